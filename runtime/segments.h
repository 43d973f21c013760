// Exact overlap of strided ranges (a copy's side: `count` runs of `bytes`,
// `stride` apart). Hazard and race checks decide on bytes, not bounding boxes:
// two cores writing alternate rows of one matrix do not conflict.
#pragma once

#include <cstdint>

#include "mlusim/bang/detail/core.h"

namespace mlusim::detail {

// The first bytes [*lo, *hi) that both a and b cover, if any.
bool first_overlap(const Segments &a, const Segments &b, uintptr_t *lo, uintptr_t *hi);

}  // namespace mlusim::detail
