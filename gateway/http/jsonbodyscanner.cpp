#include "jsonbodyscanner.h"

namespace switchyard::http {

namespace {

class Scanner
{
public:
    explicit Scanner(QByteArrayView s) : m_s(s) {}

    ScannedBody run()
    {
        skipWs();
        if (m_pos < m_s.size() && m_s[m_pos] == '{') {
            m_out.isObject = true;
            if (!topObject())
                return std::move(m_out);
        } else if (!value(0)) {
            return std::move(m_out);
        }
        skipWs();
        if (m_pos != m_s.size()) {
            fail("unexpected data after the JSON value");
            return std::move(m_out);
        }
        m_out.valid = true;
        return std::move(m_out);
    }

private:
    bool fail(const char *why)
    {
        if (m_out.error.isEmpty()) {
            m_out.error = why;
            m_out.errorOffset = m_pos;
        }
        return false;
    }
    void skipWs()
    {
        while (m_pos < m_s.size()) {
            const char c = m_s[m_pos];
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
                break;
            ++m_pos;
        }
    }
    bool literal(QByteArrayView word)
    {
        if (m_s.sliced(m_pos).startsWith(word)) {
            m_pos += word.size();
            return true;
        }
        return fail("invalid literal");
    }

    // Parses a string at m_pos; when out is given, stores its decoded UTF-8 value.
    // A top-level member's name: a view of the body's own bytes when it has no escape (every name a
    // client sends, in practice: no copy per member), else decoded into m_keyScratch. The view holds
    // until the next member's name.
    bool memberName(QByteArrayView *out)
    {
        const qsizetype at = m_pos;
        if (m_pos < m_s.size() && m_s[m_pos] == '"') {
            for (qsizetype i = m_pos + 1; i < m_s.size(); ++i) {
                const char c = m_s[i];
                if (c == '"') {
                    *out = m_s.sliced(m_pos + 1, i - m_pos - 1);
                    m_pos = i + 1;
                    return true;
                }
                if (c == '\\' || static_cast<unsigned char>(c) < 0x20)
                    break;
            }
        }
        m_pos = at; // escaped, bad or cut short: string() decodes it or says what is wrong
        if (!string(&m_keyScratch))
            return false;
        *out = m_keyScratch;
        return true;
    }

    bool string(QByteArray *out)
    {
        if (m_pos >= m_s.size() || m_s[m_pos] != '"')
            return fail("expected a string");
        ++m_pos;
        const qsizetype start = m_pos;
        bool plain = true;
        while (m_pos < m_s.size()) {
            const char c = m_s[m_pos];
            if (c == '"') {
                if (out && plain)
                    *out = m_s.sliced(start, m_pos - start).toByteArray();
                ++m_pos;
                return true;
            }
            if (static_cast<unsigned char>(c) < 0x20)
                return fail("control character in string");
            if (c == '\\') {
                if (plain && out)
                    *out = m_s.sliced(start, m_pos - start).toByteArray();
                plain = false;
                if (++m_pos >= m_s.size())
                    break;
                const char e = m_s[m_pos];
                char decoded = 0;
                switch (e) {
                case '"': decoded = '"'; break;
                case '\\': decoded = '\\'; break;
                case '/': decoded = '/'; break;
                case 'b': decoded = '\b'; break;
                case 'f': decoded = '\f'; break;
                case 'n': decoded = '\n'; break;
                case 'r': decoded = '\r'; break;
                case 't': decoded = '\t'; break;
                case 'u': {
                    if (m_pos + 4 >= m_s.size())
                        return fail("truncated \\u escape");
                    uint cp = 0;
                    for (int i = 1; i <= 4; ++i) {
                        const char h = m_s[m_pos + i];
                        cp <<= 4;
                        if (h >= '0' && h <= '9')
                            cp |= uint(h - '0');
                        else if (h >= 'a' && h <= 'f')
                            cp |= uint(h - 'a' + 10);
                        else if (h >= 'A' && h <= 'F')
                            cp |= uint(h - 'A' + 10);
                        else
                            return fail("invalid \\u escape");
                    }
                    m_pos += 4;
                    if (out) {
                        // Surrogate pairs are kept as two code units' worth of UTF-8 replacement:
                        // model names never contain them, and this keeps the scanner simple.
                        const QString ch = (cp >= 0xD800 && cp <= 0xDFFF) ? QString(QChar(0xFFFD))
                                                                          : QString(QChar(char16_t(cp)));
                        out->append(ch.toUtf8());
                    }
                    ++m_pos;
                    continue;
                }
                default:
                    return fail("invalid escape in string");
                }
                if (out)
                    out->append(decoded);
                ++m_pos;
                continue;
            }
            if (!plain && out)
                out->append(c);
            ++m_pos;
        }
        return fail("unterminated string");
    }

    bool number()
    {
        const qsizetype start = m_pos;
        if (m_pos < m_s.size() && m_s[m_pos] == '-')
            ++m_pos;
        if (m_pos >= m_s.size())
            return fail("invalid number");
        if (m_s[m_pos] == '0') {
            ++m_pos;
        } else if (m_s[m_pos] >= '1' && m_s[m_pos] <= '9') {
            while (m_pos < m_s.size() && m_s[m_pos] >= '0' && m_s[m_pos] <= '9')
                ++m_pos;
        } else {
            return fail("invalid number");
        }
        if (m_pos < m_s.size() && m_s[m_pos] == '.') {
            ++m_pos;
            const qsizetype digits = m_pos;
            while (m_pos < m_s.size() && m_s[m_pos] >= '0' && m_s[m_pos] <= '9')
                ++m_pos;
            if (m_pos == digits)
                return fail("invalid number");
        }
        if (m_pos < m_s.size() && (m_s[m_pos] == 'e' || m_s[m_pos] == 'E')) {
            ++m_pos;
            if (m_pos < m_s.size() && (m_s[m_pos] == '+' || m_s[m_pos] == '-'))
                ++m_pos;
            const qsizetype digits = m_pos;
            while (m_pos < m_s.size() && m_s[m_pos] >= '0' && m_s[m_pos] <= '9')
                ++m_pos;
            if (m_pos == digits)
                return fail("invalid number");
        }
        return m_pos > start;
    }

    bool value(int depth)
    {
        if (depth > MaxJsonDepth)
            return fail("JSON nested too deeply");
        skipWs();
        if (m_pos >= m_s.size())
            return fail("unexpected end of JSON");
        switch (m_s[m_pos]) {
        case '{': {
            ++m_pos;
            skipWs();
            if (m_pos < m_s.size() && m_s[m_pos] == '}') {
                ++m_pos;
                return true;
            }
            for (;;) {
                skipWs();
                if (!string(nullptr))
                    return false;
                skipWs();
                if (m_pos >= m_s.size() || m_s[m_pos] != ':')
                    return fail("expected ':' after object key");
                ++m_pos;
                if (!value(depth + 1))
                    return false;
                skipWs();
                if (m_pos < m_s.size() && m_s[m_pos] == ',') {
                    ++m_pos;
                    continue;
                }
                if (m_pos < m_s.size() && m_s[m_pos] == '}') {
                    ++m_pos;
                    return true;
                }
                return fail("expected ',' or '}' in object");
            }
        }
        case '[': {
            ++m_pos;
            skipWs();
            if (m_pos < m_s.size() && m_s[m_pos] == ']') {
                ++m_pos;
                return true;
            }
            for (;;) {
                if (!value(depth + 1))
                    return false;
                skipWs();
                if (m_pos < m_s.size() && m_s[m_pos] == ',') {
                    ++m_pos;
                    continue;
                }
                if (m_pos < m_s.size() && m_s[m_pos] == ']') {
                    ++m_pos;
                    return true;
                }
                return fail("expected ',' or ']' in array");
            }
        }
        case '"':
            return string(nullptr);
        case 't':
            return literal("true");
        case 'f':
            return literal("false");
        case 'n':
            return literal("null");
        default:
            return number();
        }
    }

    // The top-level object, remembering the members the gateway needs.
    bool topObject()
    {
        ++m_pos; // '{'
        skipWs();
        if (m_pos < m_s.size() && m_s[m_pos] == '}') {
            ++m_pos;
            return true;
        }
        qsizetype prevValueEnd = -1; // end of the previous member's value (for deleting with its comma)
        bool seenModel = false, seenFallbacks = false, seenStream = false, seenStreamOptions = false;
        for (;;) {
            skipWs();
            const qsizetype memberStart = m_pos;
            QByteArrayView key;
            if (!memberName(&key))
                return false;
            // A repeated member the gateway acts on is ambiguous: JSON parsers disagree on which copy wins
            // (Python and Go take the last, others the first or refuse), so the gateway could route, check
            // or strip one copy while the node obeys another. Refuse it, as the request parser refuses
            // conflicting Content-Length headers (found by fuzz_requestbody: a second "fallbacks" survived
            // the rewrite and reached the node).
            bool *seen = nullptr;
            const char *duplicate = nullptr;
            if (key == "model") {
                seen = &seenModel;
                duplicate = "duplicate \"model\" member";
            } else if (key == "fallbacks") {
                seen = &seenFallbacks;
                duplicate = "duplicate \"fallbacks\" member";
            } else if (key == "stream") {
                seen = &seenStream;
                duplicate = "duplicate \"stream\" member";
            } else if (key == "stream_options") {
                seen = &seenStreamOptions; // the gateway may rewrite it to ask for usage
                duplicate = "duplicate \"stream_options\" member";
            }
            if (seen) {
                if (*seen)
                    return fail(duplicate);
                *seen = true;
            }
            skipWs();
            if (m_pos >= m_s.size() || m_s[m_pos] != ':')
                return fail("expected ':' after object key");
            ++m_pos;
            skipWs();
            const qsizetype valueStart = m_pos;
            bool ok = true;
            if (key == "model" && m_pos < m_s.size() && m_s[m_pos] == '"') {
                QByteArray v;
                ok = string(&v);
                m_out.model = v;
                m_out.modelPresentButNotString = false;
                m_out.modelValue = {valueStart, m_pos};
            } else if (key == "fallbacks") {
                ok = fallbacks();
            } else if (key == "stream") {
                ok = value(1);
                m_out.stream = m_s.sliced(valueStart, m_pos - valueStart) == "true";
            } else if (key == "stream_options") {
                ok = value(1);
                const QByteArrayView v = m_s.sliced(valueStart, m_pos - valueStart);
                m_out.streamOptionsValue = {valueStart, m_pos};
                // Only a flat {"include_usage": true} matters here; a loose match is enough for stats.
                const qsizetype k = v.indexOf("\"include_usage\"");
                if (k >= 0) {
                    QByteArrayView rest = v.sliced(k + 15).trimmed();
                    if (rest.startsWith(':'))
                        m_out.includeUsage = rest.sliced(1).trimmed().startsWith("true");
                }
            } else if ((key == "prompt_cache_key" || key == "user") && m_pos < m_s.size() && m_s[m_pos] == '"') {
                QByteArray v;
                ok = string(&v);
                (key == "user" ? m_out.user : m_out.promptCacheKey) = std::move(v);
            } else if (key == "messages" || key == "prompt" || key == "input") {
                ok = value(1);
                // `messages` wins over the others (a chat body that also carries `prompt` for a plugin).
                if (key == "messages" || !m_seenMessages)
                    m_out.promptValue = {valueStart, m_pos};
                m_seenMessages = m_seenMessages || key == "messages";
            } else {
                if (key == "model") {
                    m_out.model.reset();
                    m_out.modelPresentButNotString = true;
                }
                ok = value(1);
            }
            if (!ok)
                return false;
            const qsizetype valueEnd = m_pos;
            skipWs();
            const bool more = m_pos < m_s.size() && m_s[m_pos] == ',';
            if (key == "fallbacks") {
                if (more) // delete up to the next member's key
                    m_out.fallbacksMember = {memberStart, -2};
                else if (prevValueEnd >= 0) // last member: delete the comma before it
                    m_out.fallbacksMember = {prevValueEnd, valueEnd};
                else
                    m_out.fallbacksMember = {memberStart, valueEnd};
            }
            if (more) {
                ++m_pos;
                skipWs();
                if (m_out.fallbacksMember.end == -2)
                    m_out.fallbacksMember.end = m_pos;
                prevValueEnd = valueEnd;
                continue;
            }
            if (m_pos < m_s.size() && m_s[m_pos] == '}') {
                ++m_pos;
                return true;
            }
            return fail("expected ',' or '}' in object");
        }
    }

    bool fallbacks()
    {
        m_out.fallbacks.clear();
        m_out.fallbacksInvalid = false;
        if (m_pos >= m_s.size() || m_s[m_pos] != '[') {
            m_out.fallbacksInvalid = true;
            return value(1);
        }
        ++m_pos;
        skipWs();
        if (m_pos < m_s.size() && m_s[m_pos] == ']') {
            ++m_pos;
            return true;
        }
        for (;;) {
            skipWs();
            if (m_pos < m_s.size() && m_s[m_pos] == '"') {
                QByteArray v;
                if (!string(&v))
                    return false;
                m_out.fallbacks.append(v);
            } else {
                m_out.fallbacksInvalid = true;
                if (!value(2))
                    return false;
            }
            skipWs();
            if (m_pos < m_s.size() && m_s[m_pos] == ',') {
                ++m_pos;
                continue;
            }
            if (m_pos < m_s.size() && m_s[m_pos] == ']') {
                ++m_pos;
                return true;
            }
            return fail("expected ',' or ']' in array");
        }
    }

    QByteArrayView m_s;
    qsizetype m_pos = 0;
    bool m_seenMessages = false;
    QByteArray m_keyScratch; // an escaped member name, decoded (see memberName)
    ScannedBody m_out;
};

} // namespace

ScannedBody scanRequestBody(QByteArrayView body)
{
    return Scanner(body).run();
}

namespace {

// How many bytes c takes inside a JSON string: 1, 2 for the short escapes, 6 for \u00XX.
int escapedWidth(char c)
{
    char buffer[6];
    const QByteArrayView escape = jsonEscape(c, buffer);
    return escape.isEmpty() ? 1 : int(escape.size());
}

} // namespace

QByteArrayView jsonEscape(char c, char (&buffer)[6])
{
    switch (c) {
    case '"':
        return "\\\"";
    case '\\':
        return "\\\\";
    case '\n':
        return "\\n";
    case '\r':
        return "\\r";
    case '\t':
        return "\\t";
    default:
        if (static_cast<unsigned char>(c) >= 0x20)
            return {};
        static constexpr char Hex[] = "0123456789abcdef";
        buffer[0] = '\\';
        buffer[1] = 'u';
        buffer[2] = '0';
        buffer[3] = '0';
        buffer[4] = Hex[(c >> 4) & 0xf];
        buffer[5] = Hex[c & 0xf];
        return QByteArrayView(buffer, 6);
    }
}

qsizetype jsonQuotedSize(QByteArrayView text)
{
    qsizetype n = 2;
    for (char c : text)
        n += escapedWidth(c);
    return n;
}

void appendJsonQuoted(QByteArray &out, QByteArrayView text)
{
    out.append('"');
    // A model name seldom needs escaping: then it goes in as one piece.
    if (jsonQuotedSize(text) == text.size() + 2) {
        out.append(text);
        out.append('"');
        return;
    }
    char buffer[6];
    for (char c : text) {
        const QByteArrayView escape = jsonEscape(c, buffer);
        if (escape.isEmpty())
            out.append(c);
        else
            out.append(escape);
    }
    out.append('"');
}

QByteArray jsonQuote(QByteArrayView text)
{
    QByteArray out;
    out.reserve(jsonQuotedSize(text));
    appendJsonQuoted(out, text);
    return out;
}

BodyTemplate makeBodyTemplate(QByteArrayView body, const ScannedBody &scan)
{
    BodyTemplate t;
    if (!scan.modelValue.isValid()) {
        t.before = rewriteBody(body, scan, {});
        return t;
    }
    // Rewrite with a marker-free split: the model span's position shifts only if fallbacks precede it.
    qsizetype begin = scan.modelValue.begin;
    qsizetype end = scan.modelValue.end;
    QByteArray before = body.first(begin).toByteArray();
    QByteArray after = body.sliced(end).toByteArray();
    if (scan.fallbacksMember.isValid()) {
        const Span f = scan.fallbacksMember;
        if (f.end <= begin)
            before.remove(f.begin, f.end - f.begin);
        else
            after.remove(f.begin - end, f.end - f.begin);
    }
    t.before = std::move(before);
    t.after = std::move(after);
    t.hasModel = true;
    return t;
}

QByteArray BodyTemplate::withModel(QByteArrayView model) const
{
    if (!hasModel)
        return before;
    QByteArray out;
    out.reserve(sizeWithModel(model));
    appendWithModel(out, model);
    return out;
}

qsizetype BodyTemplate::sizeWithModel(QByteArrayView model) const
{
    if (!hasModel)
        return before.size();
    return before.size() + (quoteModel ? jsonQuotedSize(model) : model.size()) + after.size();
}

void BodyTemplate::appendWithModel(QByteArray &out, QByteArrayView model) const
{
    out.append(before);
    if (!hasModel)
        return;
    if (quoteModel)
        appendJsonQuoted(out, model);
    else
        out.append(model);
    out.append(after);
}

QByteArray rewriteBody(QByteArrayView body, const ScannedBody &scan, QByteArrayView newModel)
{
    struct Edit
    {
        Span span;
        QByteArray replacement;
    };
    Edit edits[2];
    int n = 0;
    if (scan.modelValue.isValid())
        edits[n++] = {scan.modelValue, jsonQuote(newModel)};
    if (scan.fallbacksMember.isValid())
        edits[n++] = {scan.fallbacksMember, QByteArray()};
    if (n == 2 && edits[1].span.begin < edits[0].span.begin)
        std::swap(edits[0], edits[1]);

    QByteArray out;
    out.reserve(body.size() + newModel.size() + 2);
    qsizetype pos = 0;
    for (int i = 0; i < n; ++i) {
        out.append(body.sliced(pos, edits[i].span.begin - pos));
        out.append(edits[i].replacement);
        pos = edits[i].span.end;
    }
    out.append(body.sliced(pos));
    return out;
}

} // namespace switchyard::http
