#include "responsesstream.h"

#include "openaierror.h"
#include "openaijson.h"

using namespace Qt::Literals::StringLiterals;

namespace switchyard::openai {

namespace {

void readFinal(const nlohmann::json &response, ChatStreamEvent &ev)
{
    const QString status = stringMember(response, "status");
    ev.finishReason = status == "incomplete"_L1 ? u"length"_s
                      : status == "failed"_L1   ? u"error"_s
                                                : u"stop"_s;
    ev.model = stringMember(response, "model");
    if (const nlohmann::json *usage = member(response, "usage")) {
        ev.hasUsage = true;
        ev.usage.promptTokens = countMember(*usage, "input_tokens");
        ev.usage.completionTokens = countMember(*usage, "output_tokens");
        if (const nlohmann::json *details = member(*usage, "input_tokens_details"))
            ev.usage.cachedPromptTokens = countMember(*details, "cached_tokens");
    }
}

} // namespace

ChatStreamEvent parseResponsesStreamEvent(QByteArrayView data)
{
    const QByteArrayView text = data.trimmed();
    ChatStreamEvent ev;
    if (text == "[DONE]") { // the gateway's end after an error of its own
        ev.kind = ChatStreamEvent::Kind::Done;
        return ev;
    }
    QString why;
    const nlohmann::json event = parseJsonObject(text, &why);
    if (event.is_discarded() || event.empty()) {
        ev.kind = ChatStreamEvent::Kind::Invalid;
        ev.error = why.isEmpty() ? u"empty event"_s : why;
        return ev;
    }
    const QString type = stringMember(event, "type");
    if (type == "error"_L1 || member(event, "error")) {
        ev.kind = ChatStreamEvent::Kind::Error;
        const QString message = stringMember(event, "message");
        ev.error = message.isEmpty() ? errorMessageFromJson(event, text) : message;
        return ev;
    }
    ev.kind = ChatStreamEvent::Kind::Chunk;
    if (type == "response.output_text.delta"_L1)
        ev.content = stringMember(event, "delta");
    else if (type == "response.reasoning_text.delta"_L1 || type == "response.reasoning_summary_text.delta"_L1)
        ev.reasoning = stringMember(event, "delta");
    else if (type == "response.completed"_L1 || type == "response.incomplete"_L1 ||
             type == "response.failed"_L1) {
        if (const nlohmann::json *response = member(event, "response"))
            readFinal(*response, ev);
    }
    return ev;
}

} // namespace switchyard::openai
