// __bang_printf: printf from a kernel, written to the host's stdout as the
// core runs (cores of a launch interleave their lines as on the device).
#pragma once

#include <cstdio>
#include <type_traits>

#include "mlusim/bang/vector.h"

namespace mlusim::detail {
// half does not take part in C's default argument promotions: widen it here.
template <typename T>
auto printf_arg(T v) {
  if constexpr (std::is_same_v<T, half>)
    return static_cast<double>(v);
  else
    return v;
}
}  // namespace mlusim::detail

template <typename... Args>
int __bang_printf(const char *format, Args... args) {
  return std::printf(format, mlusim::detail::printf_arg(args)...);
}
