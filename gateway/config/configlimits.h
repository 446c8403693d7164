#pragma once

// The bounds the loader puts on a config, in one place: what it refuses as too big, too deep or too long.

#include <QtGlobal>
#include <cstddef>

namespace switchyard::config {

// A config file is a few kilobytes; anything this big is a mistake (wrong file), not a config.
inline constexpr qint64 kMaxConfigBytes = 16LL * 1024 * 1024;

// Nothing in the schema nests deeper than 5; the cap keeps hostile input from exhausting the stack in
// recursive consumers (dump, destructors of older nlohmann versions).
inline constexpr std::size_t kMaxDepth = 64;

// Upper bounds for time values: a day is far beyond any sane timeout and keeps "seconds × 1000" and
// "2^n × backoff" arithmetic in consumers comfortably inside int.
inline constexpr qint64 kDaySeconds = 24 * 60 * 60;
inline constexpr qint64 kDayMs = kDaySeconds * 1000;

} // namespace switchyard::config
