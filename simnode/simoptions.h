#pragma once

// Configuration of a simulated vLLM node: what it serves, how fast, and which fault it plays.

#include "performancemodel.h"

#include <QString>
#include <QStringList>
#include <optional>

namespace switchyard::sim {

enum class FaultMode { Healthy, Error500, Hang, Refuse, DropStream, Slow, EngineDead, Garbage };

struct FaultParams
{
    double errorFraction = 1.0; // Error500: share of inference requests answered with 500
    int dropAfterTokens = 8;    // DropStream: tokens sent before the connection is cut
    double slowFactor = 4.0;    // Slow: every model duration is multiplied by this
    int refuseMs = 0;           // Refuse: listen again after this long; 0 = until the mode changes
};

struct TextOptions
{
    std::optional<quint64> seed; // set: the same request always gets the same text
    int meanOutputTokens = 160;  // natural stop: uniform in [mean/2, 3·mean/2], then to the sentence end
    int reasoningTokens = 0;     // reasoning_content tokens before the answer (counted as completion)
    int embeddingDimensions = 1024;
};

struct SimNodeOptions
{
    QString name;                                // label for logs and the UI, e.g. "vllm-server1"
    QString host = QStringLiteral("127.0.0.1");
    quint16 port = 0;                            // 0 = an ephemeral port
    QStringList models;                          // served model names; the first labels /metrics
    int maxModelLen = 32768;
    QString modelRoot;                           // /v1/models "root"; empty = "/models/<first name>"
    QString vllmVersion = QStringLiteral("0.11.0");
    QString apiKey;                              // like --api-key: /v1/* need "Bearer <key>"
    int keepAliveTimeoutMs = 5000;               // uvicorn's default idle keep-alive timeout
    bool accessLog = false;                      // one uvicorn-style line per request (qInfo)
    bool streamUsage = true;                     // false: like a server without stream_options, a
                                                 // stream never reports usage, even when asked
    bool refuseStreamOptions = false;            // true: like a server whose schema forbids unknown
                                                 // members, a body with stream_options gets 400
    PerformanceParams performance;
    TextOptions text;
    FaultMode fault = FaultMode::Healthy;
    FaultParams faultParams;
};

// "healthy", "error500", "hang", "refuse", "drop-stream", "slow", "dead", "garbage".
QString faultModeName(FaultMode mode);
// Accepts the names above, '_' for '-', and "engine-dead".
std::optional<FaultMode> parseFaultMode(QStringView name);

// Why these options cannot run, or an empty string.
QString validateOptions(const SimNodeOptions &options);

} // namespace switchyard::sim
