#pragma once

// Validates a JSON request body and finds the few top-level fields the gateway acts on (`model`,
// `fallbacks`, `stream`) without building a DOM. The body is forwarded as the client sent it except for
// the bytes of those fields: the model value is replaced and `fallbacks` removed by splicing (see
// rewriteBody), so every other field passes through byte for byte and nothing is re-serialised.

#include <QByteArray>
#include <QByteArrayView>
#include <QList>
#include <optional>

namespace switchyard::http {

struct Span
{
    qsizetype begin = -1;
    qsizetype end = -1; // one past the last byte
    bool isValid() const { return begin >= 0; }
};

struct ScannedBody
{
    bool valid = false;
    QByteArray error;        // why the body is not acceptable JSON (valid == false)
    qsizetype errorOffset = -1;

    bool isObject = false;
    std::optional<QByteArray> model; // decoded string value, if `model` is a string
    bool modelPresentButNotString = false;
    Span modelValue;                 // the value's bytes, quotes included
    QList<QByteArray> fallbacks;
    bool fallbacksInvalid = false;   // present but not an array of strings
    Span fallbacksMember;            // the whole member to delete, with one adjoining comma
    bool stream = false;             // `stream: true`
    bool includeUsage = false;       // `stream_options: {"include_usage": true}`
    Span streamOptionsValue;         // the value's bytes, where the gateway asks the node for usage
    // What the routing strategies read (routing/routingtable): a session's key for session_affinity
    // (OpenAI's `prompt_cache_key`, else `user`; top-level strings only) and the prompt for cache_aware —
    // the raw bytes of `messages` (chat), else `prompt` (completions), else `input` (embeddings).
    std::optional<QByteArray> promptCacheKey;
    std::optional<QByteArray> user;
    Span promptValue;
};

// Maximum nesting accepted; deeper documents are rejected rather than risking the stack.
constexpr int MaxJsonDepth = 128;

ScannedBody scanRequestBody(QByteArrayView body);

// The body split around the `model` value, `fallbacks` already removed: each attempt's body is
// before + "model" + after, so trying several nodes with different model names costs one copy each.
struct BodyTemplate
{
    QByteArray before;
    QByteArray after;
    bool hasModel = false;
    // The model goes in as a JSON string; a multipart form field (proxy/audioupload) takes it raw.
    bool quoteModel = true;
    QByteArray withModel(QByteArrayView model) const;
    // The same, in two steps for writing straight after a request head: its size first (for
    // Content-Length), then the bytes appended, with no body-sized copy in between.
    qsizetype sizeWithModel(QByteArrayView model) const;
    void appendWithModel(QByteArray &out, QByteArrayView model) const;
};
BodyTemplate makeBodyTemplate(QByteArrayView body, const ScannedBody &scan);

// The body with `model` replaced by newModel (a JSON string is written) and `fallbacks` removed.
QByteArray rewriteBody(QByteArrayView body, const ScannedBody &scan, QByteArrayView newModel);

// Quotes and escapes text as a JSON string; the size that takes; the same appended to out.
QByteArray jsonQuote(QByteArrayView text);
qsizetype jsonQuotedSize(QByteArrayView text);
void appendJsonQuoted(QByteArray &out, QByteArrayView text);
// What byte c of a UTF-8 text becomes inside a JSON string (RFC 8259): its escape ("\\n", "\\u001f", …),
// written into buffer, or an empty view when c stands for itself. The one table of escapes, for the
// quoting above and for the history's JSON (history/storedvalues).
QByteArrayView jsonEscape(char c, char (&buffer)[6]);

} // namespace switchyard::http
