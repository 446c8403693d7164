#pragma once

// Turns SIGTERM, SIGINT and SIGHUP into Qt signals on the main thread (self-pipe + QSocketNotifier):
// a POSIX signal handler may do almost nothing, so it only writes a byte that the event loop reads.

#include <QObject>

class QSocketNotifier;

namespace switchyard::app {

class SignalWatcher final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SignalWatcher)

public:
    explicit SignalWatcher(QObject *parent = nullptr);
    ~SignalWatcher() override;

signals:
    void terminateRequested(int signalNumber); // SIGTERM or SIGINT
    void reloadRequested();                    // SIGHUP

private:
    QSocketNotifier *m_notifier = nullptr;
};

} // namespace switchyard::app
