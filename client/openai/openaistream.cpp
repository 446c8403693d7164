#include "openaistream.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonValue>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::client {

// ---- JSON shapes ----

namespace {

QJsonObject parseObject(QByteArrayView bytes, QString *error = nullptr)
{
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(bytes.toByteArray(), &pe);
    if (pe.error != QJsonParseError::NoError) {
        if (error)
            *error = pe.errorString();
        return {};
    }
    if (!doc.isObject()) {
        if (error)
            *error = u"not a JSON object"_s;
        return {};
    }
    return doc.object();
}

TokenUsage usageFrom(const QJsonValue &v)
{
    TokenUsage u;
    if (!v.isObject())
        return u;
    const QJsonObject o = v.toObject();
    if (o.value("prompt_tokens"_L1).isDouble())
        u.promptTokens = o.value("prompt_tokens"_L1).toInteger();
    if (o.value("completion_tokens"_L1).isDouble())
        u.completionTokens = o.value("completion_tokens"_L1).toInteger();
    return u;
}

// vLLM ≤ 0.10 streams "reasoning_content"; later builds also (or instead) name it "reasoning".
QString reasoningFrom(const QJsonObject &o)
{
    const QJsonValue rc = o.value("reasoning_content"_L1);
    if (rc.isString())
        return rc.toString();
    const QJsonValue r = o.value("reasoning"_L1);
    return r.isString() ? r.toString() : QString();
}

QString errorMessageFrom(const QJsonObject &o)
{
    const QJsonValue err = o.value("error"_L1);
    if (err.isObject()) {
        const QString m = err.toObject().value("message"_L1).toString();
        if (!m.isEmpty())
            return m;
        return QString::fromUtf8(QJsonDocument(err.toObject()).toJson(QJsonDocument::Compact));
    }
    if (err.isString())
        return err.toString();
    if (o.value("object"_L1).toString() == "error"_L1 || o.contains("message"_L1))
        return o.value("message"_L1).toString();
    return {};
}

} // namespace

ChatStreamEvent parseChatStreamEvent(QByteArrayView data)
{
    ChatStreamEvent ev;
    const QByteArrayView trimmed = data.trimmed();
    if (trimmed == "[DONE]") {
        ev.kind = ChatStreamEvent::Kind::Done;
        return ev;
    }
    QString why;
    const QJsonObject o = parseObject(trimmed, &why);
    if (o.isEmpty()) {
        ev.kind = ChatStreamEvent::Kind::Invalid;
        ev.error = why.isEmpty() ? u"empty event"_s : why;
        return ev;
    }
    if (o.contains("error"_L1) || o.value("object"_L1).toString() == "error"_L1) {
        ev.kind = ChatStreamEvent::Kind::Error;
        ev.error = errorMessageFrom(o);
        return ev;
    }
    ev.kind = ChatStreamEvent::Kind::Chunk;
    ev.model = o.value("model"_L1).toString();
    const QJsonArray choices = o.value("choices"_L1).toArray();
    for (const QJsonValue &c : choices) {
        const QJsonObject choice = c.toObject();
        if (choice.value("index"_L1).toInt(0) != 0)
            continue; // n = 1: only the first choice is shown
        const QJsonObject delta = choice.value("delta"_L1).toObject();
        ev.content += delta.value("content"_L1).toString();
        ev.reasoning += reasoningFrom(delta);
        const QJsonValue fr = choice.value("finish_reason"_L1);
        if (fr.isString())
            ev.finishReason = fr.toString();
    }
    const QJsonValue usage = o.value("usage"_L1);
    if (usage.isObject()) {
        ev.hasUsage = true;
        ev.usage = usageFrom(usage);
    }
    return ev;
}

QString errorMessageFromBody(QByteArrayView body)
{
    const QByteArrayView trimmed = body.trimmed();
    if (trimmed.isEmpty())
        return {};
    const QJsonObject o = parseObject(trimmed);
    if (!o.isEmpty()) {
        const QString m = errorMessageFrom(o);
        if (!m.isEmpty())
            return m;
    }
    // Not JSON (a proxy's HTML page, a plain-text error): show its start, not a wall of markup.
    QString text = QString::fromUtf8(trimmed.first(std::min<qsizetype>(trimmed.size(), 300))).simplified();
    if (trimmed.size() > 300)
        text += u'\u2026';
    return text;
}

bool ModelEntry::pinned() const
{
    // The gateway lists "provider/model" for each node; a bare model name may itself contain '/'
    // (Hugging Face ids), so only a prefix naming its one provider counts as a pin.
    return providers.size() == 1 && id.startsWith(providers.first() + u'/');
}

QList<ModelEntry> parseModelList(QByteArrayView body, QString *error)
{
    QString why;
    const QJsonObject o = parseObject(body, &why);
    if (o.isEmpty()) {
        if (error)
            *error = why.isEmpty() ? u"empty response"_s : why;
        return {};
    }
    if (!o.value("data"_L1).isArray()) {
        if (error)
            *error = u"no \"data\" array in the model list"_s;
        return {};
    }
    QList<ModelEntry> out;
    const QJsonArray data = o.value("data"_L1).toArray();
    for (const QJsonValue &v : data) {
        const QJsonObject m = v.toObject();
        const QString id = m.value("id"_L1).toString();
        if (id.isEmpty())
            continue;
        QStringList providers;
        const QStringList owners = m.value("owned_by"_L1).toString().split(u',', Qt::SkipEmptyParts);
        for (const QString &p : owners)
            providers.append(p.trimmed());
        out.append({id, providers});
    }
    return out;
}

ChatCompletion parseChatCompletion(QByteArrayView body)
{
    ChatCompletion c;
    const QJsonObject o = parseObject(body);
    const QJsonArray choices = o.value("choices"_L1).toArray();
    if (choices.isEmpty())
        return c;
    const QJsonObject choice = choices.first().toObject();
    const QJsonObject message = choice.value("message"_L1).toObject();
    c.valid = true;
    c.content = message.value("content"_L1).toString();
    c.reasoning = reasoningFrom(message);
    c.finishReason = choice.value("finish_reason"_L1).toString();
    c.usage = usageFrom(o.value("usage"_L1));
    return c;
}

} // namespace switchyard::client
