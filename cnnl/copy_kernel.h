// The strided copy behind cnnlCopy_v2 and cnnlTranspose_v2: every element of
// an N-D index space moves from src + index . src_stride to
// dst + index . dst_stride (strides in elements). The host merges dims that are
// contiguous on both sides first, so a dense copy is one long row. When the
// output's rows are contiguous but the input's are not, and another dim is
// contiguous in the input (a layout change such as NCHW to NHWC), the copy
// moves tiles of those two dims and transposes them on chip instead.
#pragma once

#include <cstdint>

#include "cnrt.h"

namespace cnnlsim {

struct CopyPlan {
  static constexpr int kMaxRank = 8;
  const void *src = nullptr;
  void *dst = nullptr;
  int width = 0;  // bytes per element: 1, 2, 4 or 8
  int rank = 0;   // at least 1; the last dim is the row each DMA moves
  int64_t shape[kMaxRank] = {};
  int64_t src_stride[kMaxRank] = {};
  int64_t dst_stride[kMaxRank] = {};
  int64_t chunk = 0;  // elements of a row one NRAM block holds
  // Tiled transposes: the dim contiguous in the input (-1: no tiling), and the
  // tile: tile_rows of the last dim by tile_cols of that dim, both multiples
  // of the device's transpose alignment.
  int tile_axis = -1;
  int64_t tile_rows = 0, tile_cols = 0;
  int nram_bytes = 0;
  cnrtDim3_t dim{1, 1, 1};  // a UNION1 launch
};

cnrtRet_t launch_copy(cnrtQueue_t queue, const CopyPlan &plan);

}  // namespace cnnlsim
