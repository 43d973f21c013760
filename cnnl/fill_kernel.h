// cnnlFill_v3's kernel as the host launches it: the element is moved as a bit
// pattern of its width (1, 2, 4 or 8 bytes), so one kernel serves every dtype.
#pragma once

#include <cstdint>

#include "cnrt.h"

namespace cnnlsim {

struct FillPlan {
  void *dst = nullptr;
  int64_t count = 0;                  // elements
  int width = 0;                      // bytes per element: 1, 2, 4 or 8
  uint64_t bits = 0;                  // HOST mode: the value's bytes, little-endian
  const void *device_value = nullptr; // DEVICE mode: where the value is, else NULL
  int nram_bytes = 0;
  cnrtDim3_t dim{1, 1, 1};            // a UNION1 launch
};

cnrtRet_t launch_fill(cnrtQueue_t queue, const FillPlan &plan);

}  // namespace cnnlsim
