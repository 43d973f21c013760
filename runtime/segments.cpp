#include "runtime/segments.h"

#include <algorithm>
#include <optional>

namespace mlusim::detail {
namespace {

// The first bytes where a segment of `b` meets [s, e), if any: the first
// segment of b ending after s is the only candidate that may start before e.
bool meets(const Segments &b, uintptr_t s, uintptr_t e, uintptr_t *lo, uintptr_t *hi) {
  const size_t count = b.stride == 0 ? 1 : b.count;
  size_t j = 0;
  if (s >= b.lo + b.bytes) {
    if (count == 1) return false;  // also a stride of 0: every segment is the first
    j = (s - b.lo - b.bytes) / b.stride + 1;
  }
  if (j >= count) return false;
  const uintptr_t seg_lo = b.lo + j * b.stride;
  if (seg_lo >= e) return false;
  *lo = std::max(s, seg_lo);
  *hi = std::min(e, seg_lo + b.bytes);
  return true;
}

// Two runs of one stride S: segment i of a and segment i + k of b meet when
// -b.bytes < (b.lo - a.lo) + k S < a.bytes, a handful of k whatever the counts
// (cores writing interleaved rows of one output); for each, the first i both
// runs have gives its lowest bytes. Null when the handful is not small.
std::optional<bool> same_stride_overlap(const Segments &a, const Segments &b, uintptr_t *lo,
                                        uintptr_t *hi) {
  constexpr int64_t kFewShifts = 64;
  const auto S = static_cast<int64_t>(a.stride);
  const auto delta = static_cast<int64_t>(b.lo) - static_cast<int64_t>(a.lo);
  const auto a_bytes = static_cast<int64_t>(a.bytes), b_bytes = static_cast<int64_t>(b.bytes);
  if ((a_bytes + b_bytes) / S + 2 > kFewShifts) return std::nullopt;
  const auto floor_div = [](int64_t x, int64_t d) { return x >= 0 ? x / d : -((-x + d - 1) / d); };
  const int64_t k_first = floor_div(-b_bytes - delta, S) + 1;
  const int64_t k_last = -floor_div(-(a_bytes - delta), S) - 1;  // ceil(...) - 1
  const auto a_count = static_cast<int64_t>(a.count), b_count = static_cast<int64_t>(b.count);
  bool found = false;
  for (int64_t k = k_first; k <= k_last; ++k) {
    const int64_t i = std::max<int64_t>(0, -k);
    if (i >= std::min(a_count, b_count - k)) continue;
    const uintptr_t a_lo = a.lo + static_cast<uintptr_t>(i) * a.stride;
    const uintptr_t b_lo = b.lo + static_cast<uintptr_t>(i + k) * b.stride;
    const uintptr_t meet = std::max(a_lo, b_lo);
    if (found && meet >= *lo) continue;
    *lo = meet;
    *hi = std::min(a_lo + a.bytes, b_lo + b.bytes);
    found = true;
  }
  return found;
}

}  // namespace

bool first_overlap(const Segments &a, const Segments &b, uintptr_t *lo, uintptr_t *hi) {
  if (a.bytes == 0 || b.bytes == 0 || !overlaps(a.lo, a.hi(), b.lo, b.hi())) return false;
  if (a.stride == b.stride && a.stride != 0 && a.count > 1 && b.count > 1)
    if (const std::optional<bool> met = same_stride_overlap(a, b, lo, hi)) return *met;
  const Segments &few = a.count <= b.count ? a : b, &many = a.count <= b.count ? b : a;
  const size_t count = few.stride == 0 ? 1 : few.count;
  for (size_t i = 0; i < count; ++i) {
    const uintptr_t s = few.lo + i * few.stride;
    if (meets(many, s, s + few.bytes, lo, hi)) return true;
  }
  return false;
}

}  // namespace mlusim::detail
