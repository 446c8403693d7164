#pragma once

// What the Responses API and the Messages API write for one generation request, in vLLM's shapes: the
// events that open a stream, one per token, the ones that close it, and the whole answer of a request
// that does not stream. The chat and text completions keep their own ResponseWriter (simprotocol.h).

#include "simprotocol.h"

#include <QByteArray>
#include <string>

namespace switchyard::sim {

class ApiWriter
{
public:
    virtual ~ApiWriter() = default;
    // Before the first token of a stream.
    virtual QByteArray openEvents(const Usage &usage) = 0;
    virtual QByteArray tokenEvent(QByteArrayView token) = 0;
    // After the last token of a stream: text is the whole answer.
    virtual QByteArray closeEvents(const std::string &text, FinishReason finish, const Usage &usage) = 0;
    virtual QByteArray completeBody(const std::string &text, FinishReason finish,
                                    const Usage &usage) const = 0;
    // An error after the stream began (its status line long sent).
    virtual QByteArray errorEvent(const ApiError &error) const = 0;
};

// One named SSE event, as both APIs send them: "event: <name>\ndata: <json>\n\n".
QByteArray namedEvent(const std::string &name, const QByteArray &json);

} // namespace switchyard::sim
