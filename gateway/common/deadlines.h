#pragma once

// The timeouts a worker thread arms for the requests it serves — waiting for a node to connect, for its
// response head, for the whole answer — kept in one heap of its own and served by one Qt timer.
//
// Each proxied request armed two timers of Qt's and disarmed them a millisecond later: a registration
// in the thread's timer list and a timer id taken from and given back to Qt's process-wide pool every
// time, about 1,600 instructions per request (docs/PERFORMANCE.md, "Per core"). Here arming is a heap
// insert and disarming a heap removal, a few dozen instructions each, and the one Qt timer is set again
// only when a new timeout is due before the one it waits for: under steady traffic, about once per
// timeout interval rather than twice per request.
//
// A Deadline fires once, on the thread of the Deadlines it was started in, no earlier than asked (a Qt
// precise timer, checked against the monotonic clock). Not thread-safe: one thread arms, disarms and
// serves them.

#include <QBasicTimer>
#include <QObject>
#include <QtGlobal>
#include <functional>
#include <limits>
#include <vector>

namespace switchyard {

class Deadlines;

// One timeout its owner arms and disarms often. Disarmed when destroyed; the callback may destroy
// the owner, this Deadline included.
class Deadline final
{
    Q_DISABLE_COPY_MOVE(Deadline)

public:
    explicit Deadline(std::function<void()> onExpired) : m_onExpired(std::move(onExpired)) {}
    ~Deadline() { stop(); }

    // Arms it to fire in ms milliseconds (at least 1), replacing any earlier arming.
    void start(Deadlines &in, int ms);
    void stop();
    bool isActive() const { return m_queue != nullptr; }

private:
    friend class Deadlines;
    std::function<void()> m_onExpired;
    Deadlines *m_queue = nullptr;
    qint64 m_dueNs = 0;
    size_t m_slot = 0; // its place in the heap
};

class Deadlines final : public QObject
{
    Q_DISABLE_COPY_MOVE(Deadlines)

public:
    explicit Deadlines(QObject *parent = nullptr);
    ~Deadlines() override; // disarms those still armed: they never fire

    size_t armed() const { return m_heap.size(); }
    // Nanoseconds of the monotonic clock Qt's timers use.
    static qint64 nowNs();

protected:
    void timerEvent(QTimerEvent *event) override;

private:
    friend class Deadline;
    void add(Deadline *d);
    void remove(Deadline *d);
    void place(Deadline *d, size_t slot);
    void siftUp(size_t slot);
    void siftDown(size_t slot);
    // Sets the Qt timer for the earliest deadline, unless it already fires no later than that.
    void arm();

    std::vector<Deadline *> m_heap; // a binary min-heap by due time
    QBasicTimer m_timer;
    qint64 m_armedNs = std::numeric_limits<qint64>::max(); // when m_timer fires; max when it is idle
};

} // namespace switchyard
