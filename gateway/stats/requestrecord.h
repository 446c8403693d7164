#pragma once

// What the gateway remembers about one finished client request: the request log line in headless
// mode, the Requests view in the panel, and the input of the statistics.

#include <QByteArray>
#include <QMetaType>
#include <QString>

namespace switchyard::stats {

struct RequestRecord
{
    qint64 startedMsSinceEpoch = 0;
    QByteArray method;
    QByteArray path;
    QString model;       // as the client asked
    QString node;        // the provider that answered (or last tried)
    int status = 0;      // sent to the client; 499 = client closed first
    int attempts = 0;
    bool stream = false;
    qint64 ttftMs = -1;  // first response byte to the client
    qint64 durationMs = 0;
    qint64 promptTokens = -1;
    qint64 completionTokens = -1;
    QString error;       // why it failed, for failed requests

    QString toLogLine() const;
    // The same line as UTF-8, appended to out without intermediate strings (the headless log writes
    // one per request).
    void appendLogLine(QByteArray &out) const;
};

} // namespace switchyard::stats

Q_DECLARE_METATYPE(switchyard::stats::RequestRecord)
