#pragma once

// A fixed-capacity ring: pushing into a full ring drops the oldest element. Indexing is oldest-first.
// The panel's histories and logs are all bounded by one of these, so memory does not grow with uptime.

#include <QtGlobal>
#include <vector>

namespace switchyard::ui {

template<typename T>
class RingBuffer final
{
public:
    explicit RingBuffer(qsizetype capacity) : m_items(size_t(qMax<qsizetype>(1, capacity))) { }

    qsizetype capacity() const { return qsizetype(m_items.size()); }
    qsizetype size() const { return m_size; }
    bool isEmpty() const { return m_size == 0; }
    bool isFull() const { return m_size == capacity(); }

    void push(T value)
    {
        m_items[size_t((m_head + m_size) % capacity())] = std::move(value);
        if (m_size < capacity())
            ++m_size;
        else
            m_head = (m_head + 1) % capacity();
    }
    void popFront()
    {
        if (m_size == 0)
            return;
        m_items[size_t(m_head)] = T();
        m_head = (m_head + 1) % capacity();
        --m_size;
    }
    void clear()
    {
        while (m_size > 0)
            popFront();
        m_head = 0;
    }

    // 0 = oldest.
    const T &at(qsizetype i) const { return m_items[size_t((m_head + i) % capacity())]; }
    T &at(qsizetype i) { return m_items[size_t((m_head + i) % capacity())]; }
    const T &front() const { return at(0); }
    const T &back() const { return at(m_size - 1); }
    T &back() { return at(m_size - 1); }

private:
    std::vector<T> m_items;
    qsizetype m_head = 0;
    qsizetype m_size = 0;
};

} // namespace switchyard::ui
