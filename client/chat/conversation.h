#pragma once

// A chat as data: the settings it was held with (model, system prompt, temperature, max tokens) and its
// messages, each reply with what the gateway said about it (node, attempts, timings, tokens). Builds the
// "messages" array the next turn sends and saves/loads itself as JSON. No widgets, no network.

#include "common/expected.h"

#include <QByteArray>
#include <QCoreApplication>
#include <QList>
#include <QString>

#include <optional>

#include <nlohmann/json.hpp>

namespace switchyard::client {

// What the client measured and the gateway reported for one reply.
struct ReplyStats
{
    QString node;         // X-Switchyard-Node: who served it
    int attempts = 0;     // X-Switchyard-Attempts: 1 = the first node answered
    int httpStatus = 0;
    qint64 ttftMs = -1;   // request sent → first token (reasoning or content)
    qint64 totalMs = -1;  // request sent → stream ended
    qint64 promptTokens = -1;
    qint64 completionTokens = -1;
    bool tokensEstimated = false; // no usage chunk (a stopped reply): completion = chunks counted
    QString finishReason;

    // Decode speed: completion tokens over the time after the first token; -1 when unknown.
    double tokensPerSecond() const;
};

struct ChatMessage
{
    enum class Role { User, Assistant };
    enum class State {
        Complete,  // finished normally (or a user message)
        Streaming, // arriving now
        Stopped,   // the operator stopped it; content is what arrived
        Failed,    // the request failed; error says why, content holds what arrived before
    };

    Role role = Role::User;
    State state = State::Complete;
    QString content;
    QString reasoning; // assistant: reasoning_content, shown apart and never sent back
    QString model;     // assistant: the model asked for ("pool" name or "provider/model")
    QString error;
    ReplyStats stats;

    bool isUser() const { return role == Role::User; }
};

class Conversation final
{
    Q_DECLARE_TR_FUNCTIONS(Conversation)

public:
    QString model;
    QString systemPrompt;
    std::optional<double> temperature; // unset = the model's default
    int maxTokens = 0;                 // 0 = the model's default
    QList<ChatMessage> messages;

    bool isEmpty() const { return messages.isEmpty(); }
    void clearMessages() { messages.clear(); }

    // The OpenAI "messages" for the next request: the system prompt, then every turn that got an answer
    // (a user message whose reply failed with nothing to show is left out, with that reply, so the model
    // does not see two user turns in a row), then trailing user messages. Replies still streaming and
    // reasoning are not sent: vLLM's docs say reasoning_content must not go back into the history.
    nlohmann::ordered_json requestMessages() const;

    // {"format":"switchyard-chat","version":1,"model":…,"system_prompt":…,"temperature":…,
    //  "max_tokens":…,"messages":[{"role":…,"content":…,"reasoning_content":…,"state":…,"error":…,
    //  "stats":{…}}…]}
    QByteArray toJson() const;
    // Reads the format above, and also a bare OpenAI request ({"model":…,"messages":[…]} or just the
    // messages array) so a curl body can be opened as a chat. A "system" message becomes the prompt.
    static Expected<Conversation, QString> fromJson(QByteArrayView json);

    Expected<bool, QString> save(const QString &path) const;
    static Expected<Conversation, QString> load(const QString &path);

    static constexpr int FormatVersion = 1;
};

QString chatStateName(ChatMessage::State state);

} // namespace switchyard::client
