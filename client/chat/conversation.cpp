#include "conversation.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::client {

double ReplyStats::tokensPerSecond() const
{
    if (completionTokens <= 0 || totalMs < 0)
        return -1;
    // Decode time only: the wait for the first token is TTFT's story, and counting it here would make a
    // queued request look like a slow node.
    const qint64 decodeMs = ttftMs >= 0 ? totalMs - ttftMs : totalMs;
    if (decodeMs <= 0)
        return -1;
    return double(completionTokens) * 1000.0 / double(decodeMs);
}

QString chatStateName(ChatMessage::State state)
{
    switch (state) {
    case ChatMessage::State::Complete: return u"complete"_s;
    case ChatMessage::State::Streaming: return u"streaming"_s;
    case ChatMessage::State::Stopped: return u"stopped"_s;
    case ChatMessage::State::Failed: return u"failed"_s;
    }
    return u"complete"_s;
}

namespace {

ChatMessage::State stateFromName(const QString &name)
{
    if (name == u"stopped"_s || name == u"streaming"_s) // a chat saved mid-reply: what arrived, stopped
        return ChatMessage::State::Stopped;
    if (name == u"failed"_s)
        return ChatMessage::State::Failed;
    return ChatMessage::State::Complete;
}

void putIfKnown(QJsonObject &o, QLatin1StringView key, qint64 v)
{
    if (v >= 0)
        o.insert(key, v);
}

qint64 intOr(const QJsonObject &o, QLatin1StringView key, qint64 fallback = -1)
{
    const QJsonValue v = o.value(key);
    return v.isDouble() ? v.toInteger(fallback) : fallback;
}

} // namespace

nlohmann::ordered_json Conversation::requestMessages() const
{
    const auto turn = [](const char *role, const QString &content) {
        return nlohmann::ordered_json{{"role", role}, {"content", content.toStdString()}};
    };
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    if (!systemPrompt.trimmed().isEmpty())
        out.push_back(turn("system", systemPrompt));
    for (const ChatMessage &m : messages) {
        if (m.isUser()) {
            out.push_back(turn("user", m.content));
            continue;
        }
        if (m.state == ChatMessage::State::Streaming)
            continue;
        if (m.content.isEmpty()) {
            // Nothing to show for this turn: drop the question too, or the next request would carry two
            // user turns in a row (some chat templates reject that) and re-ask a question that failed.
            if (!out.empty() && out.back().value("role", std::string()) == "user")
                out.erase(out.end() - 1);
            continue;
        }
        out.push_back(turn("assistant", m.content));
    }
    return out;
}

QByteArray Conversation::toJson() const
{
    QJsonObject root;
    root.insert(u"format"_s, u"switchyard-chat"_s);
    root.insert(u"version"_s, FormatVersion);
    root.insert(u"model"_s, model);
    root.insert(u"system_prompt"_s, systemPrompt);
    if (temperature)
        root.insert(u"temperature"_s, *temperature);
    if (maxTokens > 0)
        root.insert(u"max_tokens"_s, maxTokens);
    QJsonArray list;
    for (const ChatMessage &m : messages) {
        QJsonObject o;
        o.insert(u"role"_s, m.isUser() ? u"user"_s : u"assistant"_s);
        o.insert(u"content"_s, m.content);
        if (!m.isUser()) {
            if (!m.reasoning.isEmpty())
                o.insert(u"reasoning_content"_s, m.reasoning);
            o.insert(u"model"_s, m.model);
            o.insert(u"state"_s, chatStateName(m.state));
            if (!m.error.isEmpty())
                o.insert(u"error"_s, m.error);
            QJsonObject s;
            if (!m.stats.node.isEmpty())
                s.insert(u"node"_s, m.stats.node);
            if (m.stats.attempts > 0)
                s.insert(u"attempts"_s, m.stats.attempts);
            if (m.stats.httpStatus > 0)
                s.insert(u"http_status"_s, m.stats.httpStatus);
            putIfKnown(s, "ttft_ms"_L1, m.stats.ttftMs);
            putIfKnown(s, "total_ms"_L1, m.stats.totalMs);
            putIfKnown(s, "prompt_tokens"_L1, m.stats.promptTokens);
            putIfKnown(s, "completion_tokens"_L1, m.stats.completionTokens);
            if (m.stats.tokensEstimated)
                s.insert(u"tokens_estimated"_s, true);
            if (!m.stats.finishReason.isEmpty())
                s.insert(u"finish_reason"_s, m.stats.finishReason);
            o.insert(u"stats"_s, s);
        }
        list.append(o);
    }
    root.insert(u"messages"_s, list);
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

Expected<Conversation, QString> Conversation::fromJson(QByteArrayView json)
{
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(json.toByteArray(), &pe);
    if (pe.error != QJsonParseError::NoError)
        return unexpected(tr("Not valid JSON: %1 (at byte %2)").arg(pe.errorString()).arg(pe.offset));

    Conversation c;
    QJsonArray list;
    if (doc.isArray()) {
        list = doc.array();
    } else if (doc.isObject()) {
        const QJsonObject root = doc.object();
        if (!root.value("messages"_L1).isArray())
            return unexpected(tr("No \"messages\" array: this is not a saved chat."));
        const QString format = root.value("format"_L1).toString();
        if (!format.isEmpty() && format != u"switchyard-chat"_s)
            return unexpected(tr("Unknown format \"%1\".").arg(format));
        if (root.value("version"_L1).toInt(1) > FormatVersion)
            return unexpected(tr("The chat was saved by a newer Switchyard (format version %1).")
                                  .arg(root.value("version"_L1).toInt()));
        list = root.value("messages"_L1).toArray();
        c.model = root.value("model"_L1).toString();
        c.systemPrompt = root.value("system_prompt"_L1).toString();
        if (root.value("temperature"_L1).isDouble())
            c.temperature = root.value("temperature"_L1).toDouble();
        c.maxTokens = int(std::max<qint64>(0, intOr(root, "max_tokens"_L1, 0)));
    } else {
        return unexpected(tr("Expected a JSON object or array."));
    }

    for (qsizetype i = 0; i < list.size(); ++i) {
        if (!list.at(i).isObject())
            return unexpected(tr("Message %1 is not an object.").arg(i + 1));
        const QJsonObject o = list.at(i).toObject();
        const QString role = o.value("role"_L1).toString();
        // OpenAI allows content as an array of parts; keep the text parts.
        QString content;
        const QJsonValue cv = o.value("content"_L1);
        if (cv.isArray()) {
            const QJsonArray parts = cv.toArray();
            for (const QJsonValue &p : parts) {
                if (p.toObject().value("type"_L1).toString() == u"text"_s)
                    content += p.toObject().value("text"_L1).toString();
            }
        } else {
            content = cv.toString();
        }
        if (role == u"system"_s || role == u"developer"_s) {
            c.systemPrompt = c.systemPrompt.isEmpty() ? content : c.systemPrompt % u"\n\n"_s % content;
            continue;
        }
        if (role != u"user"_s && role != u"assistant"_s)
            return unexpected(tr("Message %1 has the role \"%2\"; a chat holds user and assistant messages.")
                                  .arg(i + 1)
                                  .arg(role));
        ChatMessage m;
        m.role = role == u"user"_s ? ChatMessage::Role::User : ChatMessage::Role::Assistant;
        m.content = content;
        if (!m.isUser()) {
            m.reasoning = o.value("reasoning_content"_L1).toString();
            m.model = o.value("model"_L1).toString(c.model);
            m.state = stateFromName(o.value("state"_L1).toString());
            m.error = o.value("error"_L1).toString();
            const QJsonObject s = o.value("stats"_L1).toObject();
            m.stats.node = s.value("node"_L1).toString();
            m.stats.attempts = int(intOr(s, "attempts"_L1, 0));
            m.stats.httpStatus = int(intOr(s, "http_status"_L1, 0));
            m.stats.ttftMs = intOr(s, "ttft_ms"_L1);
            m.stats.totalMs = intOr(s, "total_ms"_L1);
            m.stats.promptTokens = intOr(s, "prompt_tokens"_L1);
            m.stats.completionTokens = intOr(s, "completion_tokens"_L1);
            m.stats.tokensEstimated = s.value("tokens_estimated"_L1).toBool();
            m.stats.finishReason = s.value("finish_reason"_L1).toString();
        }
        c.messages.append(m);
    }
    return c;
}

Expected<bool, QString> Conversation::save(const QString &path) const
{
    // QSaveFile: a crash or a full disk mid-write leaves the previous file intact.
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return unexpected(f.errorString());
    const QByteArray bytes = toJson();
    if (f.write(bytes) != bytes.size() || !f.commit())
        return unexpected(f.errorString());
    return true;
}

Expected<Conversation, QString> Conversation::load(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return unexpected(f.errorString());
    // A chat file is text; anything this large is not one, and reading it would stall the window.
    constexpr qint64 MaxBytes = 64LL * 1024 * 1024;
    if (f.size() > MaxBytes)
        return unexpected(tr("The file is larger than 64 MB; it is not a saved chat."));
    return fromJson(f.readAll());
}

} // namespace switchyard::client
