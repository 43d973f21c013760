// The plain OpenMP CPU version of masked_im2col_forward the benchmark sets
// beside the simulation: one data_col row per iteration, as mmcv's loop. No
// simulator involved.
#pragma once

#include <cstdint>

#include "ops/masked_im2col_forward/masked_im2col_forward_cases.h"

namespace mluop::masked_im2col_forward::omp {

template <typename T>
void masked_im2col_forward(const T *feature, const cases::Problem &p, T *data_col) {
  const int64_t rows = p.rows(), mask_cnt = p.mask_cnt();
#pragma omp parallel for
  for (int64_t row = 0; row < rows; ++row) {
    const int64_t c = row / (p.kernel_h * p.kernel_w), i = row / p.kernel_w % p.kernel_h,
                  j = row % p.kernel_w;
    const T *plane = feature + c * p.height * p.width;
    T *out = data_col + row * mask_cnt;
    for (int64_t m = 0; m < mask_cnt; ++m) {
      const int64_t h = int64_t{p.h_idx[m]} - p.pad_h + i, w = int64_t{p.w_idx[m]} - p.pad_w + j;
      out[m] = h >= 0 && w >= 0 && h < p.height && w < p.width ? plane[h * p.width + w] : T(0);
    }
  }
}

}  // namespace mluop::masked_im2col_forward::omp
