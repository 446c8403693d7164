#pragma once

// GET /v1/models: the "data" array of a model list, as the gateway, a vLLM node or OpenAI answers it.
// The gateway lists each model once with its providers in owned_by ("a,b"), and once per provider as
// "provider/model", which pins a request to that provider's node.

#include <QByteArrayView>
#include <QList>
#include <QString>
#include <QStringList>

namespace switchyard::client {

// Declared in switchyard::client rather than switchyard::openai because the chat console declares it
// there ahead of use (ui/chat/chatconsole.h); openai code names it through the using-declaration below.
struct ModelEntry
{
    QString id;
    QStringList providers; // owned_by, comma-separated by the gateway
    // "provider/model": the gateway pins such a request to that provider's node.
    bool pinned() const;
};

} // namespace switchyard::client

namespace switchyard::openai {

using client::ModelEntry;

// The models of a list, those without an id left out. On a body that is no model list: nothing, and
// *error (when given) says why; *error is left alone on success.
QList<ModelEntry> parseModelList(QByteArrayView body, QString *error = nullptr);

} // namespace switchyard::openai
