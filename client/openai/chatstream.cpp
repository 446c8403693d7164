#include "chatstream.h"

#include "openaierror.h"
#include "openaijson.h"

using namespace Qt::Literals::StringLiterals;

namespace switchyard::openai {

namespace {

ChatStreamEvent invalid(QString why)
{
    ChatStreamEvent ev;
    ev.kind = ChatStreamEvent::Kind::Invalid;
    ev.error = std::move(why);
    return ev;
}

bool isError(const nlohmann::json &event)
{
    return member(event, "error") || stringMember(event, "object") == "error"_L1;
}

void readChoices(const nlohmann::json &event, ChatStreamEvent &ev)
{
    const nlohmann::json *choices = member(event, "choices");
    if (!choices || !choices->is_array())
        return;
    for (const nlohmann::json &choice : *choices) {
        if (countMember(choice, "index") > 0)
            continue; // n = 1: only the first choice is shown
        if (const nlohmann::json *delta = member(choice, "delta")) {
            ev.content += stringMember(*delta, "content");
            ev.reasoning += reasoningText(*delta);
        }
        if (const QString reason = stringMember(choice, "finish_reason"); !reason.isEmpty())
            ev.finishReason = reason;
    }
}

} // namespace

ChatStreamEvent parseChatStreamEvent(QByteArrayView data)
{
    const QByteArrayView text = data.trimmed();
    if (text == "[DONE]") {
        ChatStreamEvent ev;
        ev.kind = ChatStreamEvent::Kind::Done;
        return ev;
    }
    if (text.isEmpty())
        return invalid(u"empty event"_s);
    QString why;
    const nlohmann::json event = parseJsonObject(text, &why);
    if (event.is_discarded())
        return invalid(why);
    if (event.empty())
        return invalid(u"empty event"_s);

    ChatStreamEvent ev;
    if (isError(event)) {
        // vLLM and the gateway report a failure after the stream began as a data event (status 200).
        ev.kind = ChatStreamEvent::Kind::Error;
        ev.error = errorMessageFromJson(event, text);
        return ev;
    }
    ev.kind = ChatStreamEvent::Kind::Chunk;
    ev.model = stringMember(event, "model");
    readChoices(event, ev);
    if (const std::optional<TokenUsage> usage = usageOf(event)) {
        ev.hasUsage = true;
        ev.usage = *usage;
    }
    return ev;
}

} // namespace switchyard::openai
