#pragma once

// What the soak saw, counted: requests by kind, failures by kind, streams that ended with an error
// event (a node failed mid-stream: allowed) and streams broken without one (never allowed), latencies.

#include <QMap>
#include <QString>
#include <vector>

namespace switchyard::soak {

enum class RequestKind { Chat, Completion, Embedding, ChatStream, CompletionStream };
QString requestKindName(RequestKind kind);
inline bool isStreamed(RequestKind kind)
{
    return kind == RequestKind::ChatStream || kind == RequestKind::CompletionStream;
}

struct SoakTally
{
    QMap<QString, int> requests;            // kind → count
    QMap<QString, int> failedNonStreamed;   // "chat: HTTP 502 upstream_error" → count
    QMap<QString, int> failedStreamed;      // an error status before the stream began
    QMap<QString, int> streamErrorEvents;   // the error event's message, shortened → count
    QMap<QString, int> brokenStreams;       // cut without [DONE] or without an error event → count
    int resentOnFreshConnection = 0;        // the gateway had closed an idle keep-alive connection
    int retriedWhileRefused = 0;            // sent again after "connection refused": the gateway restarting
    std::vector<qint64> latencyNonStreamedMs;
    std::vector<qint64> latencyStreamedMs;

    int total() const;
    static int sum(const QMap<QString, int> &m);
};

// The p-th percentile (0–100) of the values, nearest rank; −1 for none.
qint64 percentile(std::vector<qint64> values, double p);

} // namespace switchyard::soak
