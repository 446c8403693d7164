#pragma once

// One of the soak's clients: sends a request to the gateway, waits for the whole answer, judges it as
// a user of an OpenAI SDK would (an answer, an OpenAI-shaped error, or a stream that ended with an error
// event and [DONE]), and sends the next one — on one keep-alive connection, as SDKs do.

#include "http/sseparser.h"
#include "routing/routingtable.h"
#include "soaktally.h"
#include "upstream/upstreamconnection.h"

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>
#include <vector>

namespace switchyard::soak {

class SoakClient final : public QObject, private upstream::UpstreamListener
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SoakClient)

public:
    // kinds: what this client sends, in turn. The model is the gateway's bare model name.
    SoakClient(routing::Endpoint gateway, QByteArray model, std::vector<RequestKind> kinds, SoakTally *tally,
               QObject *parent = nullptr);
    ~SoakClient() override;

    void start();
    // As a client behind a restarting service does: a refused connection is tried again every
    // RefusedRetryMs until the request is RefusedBudgetMs old (off by default: a gateway that is up
    // never refuses).
    void setRetryRefused(bool retry) { m_retryRefused = retry; }
    static constexpr int RefusedRetryMs = 50;
    static constexpr int RefusedBudgetMs = 20000;
    // Finishes the request in flight, then sends no more; emits idle() when done.
    void stop();
    bool isIdle() const { return !m_busy; }

signals:
    void idle();

private:
    void upstreamHead(const http::ResponseParser &response) override;
    void upstreamBody(QByteArrayView data) override;
    void upstreamFinished() override;
    void upstreamFailed(const upstream::UpstreamError &error) override;

    void sendNext(bool sameAgain);
    void done(const QString &failure);
    QByteArray requestFor(RequestKind kind) const;

    routing::Endpoint m_gateway;
    QByteArray m_model;
    std::vector<RequestKind> m_kinds;
    SoakTally *m_tally;
    size_t m_next = 0;
    RequestKind m_kind = RequestKind::Chat;
    upstream::UpstreamConnection *m_connection = nullptr;
    bool m_busy = false;
    bool m_stopping = false;
    bool m_resent = false;
    bool m_retryRefused = false;
    int m_status = 0;
    QByteArray m_body;
    http::SseParser m_events;
    bool m_sawDone = false;
    QString m_errorEvent;
    QElapsedTimer m_clock;
    QTimer m_timeout;
};

} // namespace switchyard::soak
