// masked_im2col_forward's step 3 (design doc 3.1-3.3): masks split evenly over
// the tasks (remainder to the first), one strided GDRAM2GDRAM copy per mask.
#include "ops/masked_im2col_forward/masked_im2col_forward_kernel.h"

#include <algorithm>

#include "ops/common/fill_kernel.h"
#include "ops/common/kernel.h"

namespace mluop {
namespace {

// The valid part of mask `index`'s window, rows [h_start, h_end] x columns
// [w_start, w_end] of the feature (inclusive ends; the doc's pseudo-code pairs
// an exclusive end with height - 1 and so copies one row and column too many).
// Row i of that rectangle is width*C elements after row i-1 in the NHWC
// feature and kernel_w*C after it in the mask's [kernel_h*kernel_w, C] block;
// the rest of the block keeps step 2's zeros.
template <typename T>
__mlu_func__ void copy_window(const T *feature_hwc, T *data_col_hwc,
                              const MaskedIm2colForwardParams &p, int64_t index, int64_t h_col,
                              int64_t w_col) {
  const int64_t h_start = h_col - p.pad_h, h_end = h_start + p.kernel_h - 1;
  const int64_t w_start = w_col - p.pad_w, w_end = w_start + p.kernel_w - 1;
  if (h_start >= p.height || w_start >= p.width || h_end < 0 || w_end < 0) return;
  const int64_t h0 = std::max<int64_t>(0, h_start), h1 = std::min<int64_t>(p.height - 1, h_end);
  const int64_t w0 = std::max<int64_t>(0, w_start), w1 = std::min<int64_t>(p.width - 1, w_end);
  const int64_t window_offset = (h0 - h_start) * p.kernel_w + (w0 - w_start);
  T *dst = data_col_hwc + (index * p.kernel_h * p.kernel_w + window_offset) * p.channels;
  const T *src = feature_hwc + (h0 * p.width + w0) * p.channels;
  __memcpy(dst, src, (w1 - w0 + 1) * p.channels * sizeof(T), GDRAM2GDRAM,
           p.kernel_w * p.channels * sizeof(T), p.width * p.channels * sizeof(T), h1 - h0);
}

}  // namespace

template <typename T>
__mlu_global__ void MLUKernelMaskedIm2colForward(const T *feature_hwc, const int32_t *mask_h_idx,
                                                 const int32_t *mask_w_idx, T *data_col_hwc,
                                                 MaskedIm2colForwardParams p) {
  if (__is_mpu()) return;  // the memory core has no NRAM
  // NRAM: the task's mask coordinates, h then w, as many as half of NRAM each.
  __nram_buffer__(char, nram_buffer, MAX_NRAM_SIZE);
  const int chunk = PAD_DOWN(MAX_NRAM_SIZE / 2, NFU_ALIGN_SIZE) / sizeof(int32_t);
  int32_t *h_idx = reinterpret_cast<int32_t *>(nram_buffer);
  int32_t *w_idx = h_idx + chunk;
  const Share mine = split_evenly(p.mask_cnt, taskId, taskDim);
  for (int64_t first = mine.begin; first < mine.end; first += chunk) {
    const int64_t n = std::min<int64_t>(chunk, mine.end - first);
    __memcpy(h_idx, mask_h_idx + first, n * sizeof(int32_t), GDRAM2NRAM);
    __memcpy(w_idx, mask_w_idx + first, n * sizeof(int32_t), GDRAM2NRAM);
    for (int64_t i = 0; i < n; ++i)
      copy_window(feature_hwc, data_col_hwc, p, first + i, h_idx[i], w_idx[i]);
  }
}

template void MLUKernelMaskedIm2colForward<half>(const half *, const int32_t *, const int32_t *,
                                                 half *, MaskedIm2colForwardParams);
template void MLUKernelMaskedIm2colForward<float>(const float *, const int32_t *, const int32_t *,
                                                  float *, MaskedIm2colForwardParams);

}  // namespace mluop
