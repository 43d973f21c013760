#include "runtime/segments.h"

#include <algorithm>

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

}  // namespace

bool first_overlap(const Segments &a, const Segments &b, uintptr_t *lo, uintptr_t *hi) {
  if (a.bytes == 0 || b.bytes == 0 || !overlaps(a.lo, a.hi(), b.lo, b.hi())) return false;
  const Segments &few = a.count <= b.count ? a : b, &many = a.count <= b.count ? b : a;
  const size_t count = few.stride == 0 ? 1 : few.count;
  for (size_t i = 0; i < count; ++i) {
    const uintptr_t s = few.lo + i * few.stride;
    if (meets(many, s, s + few.bytes, lo, hi)) return true;
  }
  return false;
}

}  // namespace mlusim::detail
