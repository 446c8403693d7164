#pragma once

// A non-streamed chat.completion: what a server that ignored "stream":true sends back.

#include "openaiusage.h"

#include <QByteArrayView>
#include <QString>

namespace switchyard::openai {

struct ChatCompletion
{
    bool valid = false; // the body had choices
    QString content;
    QString reasoning;
    QString finishReason;
    TokenUsage usage; // read even when there are no choices
};

ChatCompletion parseChatCompletion(QByteArrayView body);

} // namespace switchyard::openai
