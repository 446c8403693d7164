#include "common/deadlines.h"

#include <QDeadlineTimer>
#include <QTimerEvent>

namespace switchyard {

void Deadline::start(Deadlines &in, int ms)
{
    stop();
    m_dueNs = Deadlines::nowNs() + qint64(std::max(1, ms)) * 1'000'000;
    in.add(this);
}

void Deadline::stop()
{
    if (m_queue)
        m_queue->remove(this);
}

Deadlines::Deadlines(QObject *parent) : QObject(parent) {}

Deadlines::~Deadlines()
{
    for (Deadline *d : m_heap)
        d->m_queue = nullptr;
}

qint64 Deadlines::nowNs()
{
    return QDeadlineTimer::current(Qt::PreciseTimer).deadlineNSecs();
}

void Deadlines::place(Deadline *d, size_t slot)
{
    m_heap[slot] = d;
    d->m_slot = slot;
}

void Deadlines::siftUp(size_t slot)
{
    Deadline *d = m_heap[slot];
    while (slot > 0) {
        const size_t parent = (slot - 1) / 2;
        if (m_heap[parent]->m_dueNs <= d->m_dueNs)
            break;
        place(m_heap[parent], slot);
        slot = parent;
    }
    place(d, slot);
}

void Deadlines::siftDown(size_t slot)
{
    Deadline *d = m_heap[slot];
    const size_t n = m_heap.size();
    for (;;) {
        size_t child = 2 * slot + 1;
        if (child >= n)
            break;
        if (child + 1 < n && m_heap[child + 1]->m_dueNs < m_heap[child]->m_dueNs)
            ++child;
        if (m_heap[child]->m_dueNs >= d->m_dueNs)
            break;
        place(m_heap[child], slot);
        slot = child;
    }
    place(d, slot);
}

void Deadlines::add(Deadline *d)
{
    d->m_queue = this;
    m_heap.push_back(d);
    siftUp(m_heap.size() - 1);
    arm();
}

void Deadlines::remove(Deadline *d)
{
    // The Qt timer is left as it is: when it fires with nothing due it is set for the next deadline.
    const size_t slot = d->m_slot;
    d->m_queue = nullptr;
    Deadline *last = m_heap.back();
    m_heap.pop_back();
    if (last == d)
        return;
    place(last, slot);
    if (slot > 0 && last->m_dueNs < m_heap[(slot - 1) / 2]->m_dueNs)
        siftUp(slot);
    else
        siftDown(slot);
}

void Deadlines::arm()
{
    if (m_heap.empty())
        return;
    const qint64 due = m_heap.front()->m_dueNs;
    if (m_timer.isActive() && m_armedNs <= due)
        return;
    // Whole milliseconds, rounded up: a precise timer fires no earlier than asked, so a deadline is
    // never served early.
    const qint64 waitNs = std::max<qint64>(0, due - nowNs());
    m_armedNs = due;
    m_timer.start(int(std::min<qint64>((waitNs + 999'999) / 1'000'000, std::numeric_limits<int>::max())),
                  Qt::PreciseTimer, this);
}

void Deadlines::timerEvent(QTimerEvent *event)
{
    if (event->timerId() != m_timer.timerId()) {
        QObject::timerEvent(event);
        return;
    }
    m_timer.stop();
    m_armedNs = std::numeric_limits<qint64>::max();
    const qint64 now = nowNs();
    // Each expired deadline leaves the heap before its callback runs: the callback may arm others,
    // disarm others or destroy its owner.
    while (!m_heap.empty() && m_heap.front()->m_dueNs <= now) {
        Deadline *d = m_heap.front();
        remove(d);
        const std::function<void()> fire = d->m_onExpired; // d may be gone once it has run
        fire();
    }
    arm();
}

} // namespace switchyard
