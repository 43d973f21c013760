// What the host plans and the kernels of the CNNL stand-in share: how work is
// split across tasks and how on-chip buffers are sized. Plain C++, included on
// both sides.
#pragma once

#include <algorithm>
#include <cstdint>

namespace cnnlsim {

// Vector operands are whole 128-byte granules, starting 64-byte aligned.
constexpr int kGranuleBytes = 128;

constexpr int64_t round_up(int64_t x, int64_t multiple) {
  return (x + multiple - 1) / multiple * multiple;
}
constexpr int64_t ceil_div(int64_t x, int64_t y) { return (x + y - 1) / y; }

// Elements of `bytes`-sized T that fill whole granules: `count` rounded up.
template <typename T>
constexpr int64_t granule_count(int64_t count) {
  return round_up(count, kGranuleBytes / static_cast<int64_t>(sizeof(T)));
}

// The share [begin, end) of `total` items that part `part` of `parts` owns:
// total / parts each, the remainder to the first parts.
struct Share {
  int64_t begin, end;
  int64_t size() const { return end - begin; }
};
inline Share share_of(int64_t total, int64_t part, int64_t parts) {
  const int64_t base = total / parts, rem = total % parts;
  const int64_t begin = part * base + std::min(part, rem);
  return {begin, begin + base + (part < rem ? 1 : 0)};
}

}  // namespace cnnlsim
