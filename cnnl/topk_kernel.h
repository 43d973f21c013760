// cnnlTopKTensor_v3's kernel as the host launches it. The rows (the input's
// dims but the last, each of `cols` floats) are split over the tasks; a task
// brings a row into NRAM, sorts its indices by value, largest first (a stable
// merge sort: equal values keep the lower index first), and writes the first
// k values and indices out. The order is total: +NaN above +inf, the numbers,
// -inf, and -NaN below everything.
#pragma once

#include <cstdint>

#include "cnrt.h"

namespace cnnlsim::topk {

struct Plan {
  int64_t rows = 0;  // product of the input's dims but the last
  int64_t cols = 0;  // the input's last dim
  int64_t k = 0;     // values kept per row
  int nram_bytes = 0;
  cnrtDim3_t dim{1, 1, 1};
};

struct Args {
  Plan plan;
  const float *input;  // [rows, cols]
  float *values;       // [rows, k]
  int32_t *indices;    // [rows, k]
};

// NRAM a task needs: the row, the sort's two index arrays (the second holds
// the values on the way out), in whole 4-byte elements.
inline int64_t nram_needed(const Plan &p) { return 4 * 3 * p.cols + 128; }

cnrtRet_t launch(cnrtQueue_t queue, const Args &args);

}  // namespace cnnlsim::topk
