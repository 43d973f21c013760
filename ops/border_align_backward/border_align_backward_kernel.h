// border_align_backward: the kernels and the NRAM sizing host, kernel and tests share.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cnrt.h"

namespace mluop::border_align_backward {

// Design doc 3.2: the first NRAM bytes hold the box's four coordinates
// (NRAM_BBOX_SIZE) and the mask LUT (NFU_ALIGN_SIZE); the rest is split into
// per-channel buffers worth 4 * sizeof(T) + sizeof(int32_t) bytes a channel.
constexpr int kBoxBytes = 128;    // NRAM_BBOX_SIZE
constexpr int kTableBytes = 128;  // NFU_ALIGN_SIZE
constexpr int kAlignBytes = 128;  // NFU_ALIGN_SIZE: vector operands are whole 128-byte granules

// Channels handled per step (the doc's deal_num):
// PAD_DOWN((MAX_NRAM_SIZE - NRAM_BBOX_SIZE - NFU_ALIGN_SIZE) / (4 * sizeof(T) + sizeof(int32_t)),
//          NFU_ALIGN_NUM), NFU_ALIGN_NUM = NFU_ALIGN_SIZE / sizeof(T).
constexpr int deal_num(size_t nram_bytes, size_t dtype_bytes) {
  const size_t per_channel = 4 * dtype_bytes + sizeof(int32_t);
  const size_t align_num = kAlignBytes / dtype_bytes;
  return static_cast<int>((nram_bytes - kBoxBytes - kTableBytes) / per_channel / align_num *
                          align_num);
}

// grad_input [N,H,W,4C] += the gradient of every (box, border, channel) of
// grad_output [N,K,4,C], through the bilinear weights of the point argmax_idx
// picked among the border's pool_size + 1 points. T: float or half (_Float16).
// Launches MLUKernelBorderAlignBackwardZero (grad_input = 0, split over every
// task), then MLUKernelBorderAlignBackward<T>, both Union1 with `dim`.
template <typename T>
cnrtRet_t launch_kernels(cnrtDim3_t dim, cnrtQueue_t queue, const T *grad_output, const T *boxes,
                         const int32_t *argmax_idx, int32_t pool_size, int32_t N, int32_t H,
                         int32_t W, int32_t C, int32_t K, T *grad_input);

}  // namespace mluop::border_align_backward
