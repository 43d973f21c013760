// printf from a kernel (__bang_printf; mlusim-cncc turns printf in device
// code into it): each core buffers its own line and prints it whole, so lines
// of different cores never interleave mid-line. Outside a kernel it is printf.
#pragma once

#include <cstdio>
#include <string>
#include <type_traits>

#include "mlusim/bang/detail/core.h"

namespace mlusim::bang {

void device_print(const char *text, size_t length);

// half does not take part in C's default argument promotions: widen it here.
template <typename V>
auto printf_arg(V v) {
  if constexpr (std::is_same_v<V, _Float16>)
    return static_cast<double>(v);
  else
    return v;
}

}  // namespace mlusim::bang

template <typename... A>
int __bang_printf(const char *format, A... args) {
  using mlusim::bang::printf_arg;
  if (mlusim::detail::tls_core == nullptr) return std::printf(format, printf_arg(args)...);
  // The watchdog's signal must not abandon the printing lock or a line's growth.
  const mlusim::detail::HeapHeld held(*mlusim::detail::tls_core);
  char small[512];
  const int n = std::snprintf(small, sizeof(small), format, printf_arg(args)...);
  if (n < 0) return n;
  if (static_cast<size_t>(n) < sizeof(small)) {
    mlusim::bang::device_print(small, static_cast<size_t>(n));
  } else {
    std::string big(static_cast<size_t>(n) + 1, '\0');
    std::snprintf(big.data(), big.size(), format, printf_arg(args)...);
    mlusim::bang::device_print(big.data(), static_cast<size_t>(n));
  }
  return n;
}
