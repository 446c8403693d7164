#pragma once

// A small result-as-value type: either a T or an error of type E. Used across module lines instead of
// exceptions (std::expected is C++23; Debian 12's g++ 12 lacks it).

#include <utility>
#include <variant>

namespace switchyard {

template <typename E>
struct Unexpected
{
    E error;
};

template <typename E>
Unexpected<std::decay_t<E>> unexpected(E &&e)
{
    return {std::forward<E>(e)};
}

template <typename T, typename E>
class Expected
{
public:
    Expected(T value) : m_v(std::in_place_index<0>, std::move(value)) {}
    template <typename G>
    Expected(Unexpected<G> e) : m_v(std::in_place_index<1>, E(std::move(e.error)))
    {
    }

    bool hasValue() const { return m_v.index() == 0; }
    explicit operator bool() const { return hasValue(); }
    T &value() { return std::get<0>(m_v); }
    const T &value() const { return std::get<0>(m_v); }
    T &operator*() { return value(); }
    const T &operator*() const { return value(); }
    T *operator->() { return &value(); }
    const T *operator->() const { return &value(); }
    const E &error() const { return std::get<1>(m_v); }

private:
    std::variant<T, E> m_v;
};

} // namespace switchyard
