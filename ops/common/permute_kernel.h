// A device permute (cnnlTranspose_v2's job): out's axis d is in's axis perm[d].
// Any operator can call mluop::launch_permute inside its own OpScope.
//
// The host merges axes that stay neighbours and drops axes of size 1, then
// picks one of two kernels:
//  - the input's contiguous axis stays last: whole rows move, one strided
//    GDRAM2GDRAM __memcpy per run of rows (MLUKernelPermuteRows);
//  - it moves: every batch item is a rows x cols matrix (rows = the output's
//    contiguous axis, cols = the input's) that goes through NRAM in tiles:
//    strided load, __bang_transpose, strided store (MLUKernelPermuteTiles).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "mlu_op.h"

namespace mluop {

constexpr int kPermuteMaxDims = MLUOP_DIM_MAX;

// The axes a kernel loops over outside its 2-D work: batch item i sits at
// sum(coord_k * in_strides[k]) in the input and sum(coord_k * out_strides[k])
// in the output, coordinates taken mixed-radix over dims (last fastest).
struct PermuteBatch {
  int rank = 0;
  int64_t dims[kPermuteMaxDims] = {};
  int64_t in_strides[kPermuteMaxDims] = {};
  int64_t out_strides[kPermuteMaxDims] = {};
  int64_t count = 1;  // product of dims
};

// MLUKernelPermuteRows: per batch item, `segments` rows of `row_elems`
// contiguous elements; row j is at j * segment_in_stride in the input and at
// j * row_elems in the output. Tasks take ranges of the batch*segments rows.
struct PermuteRowsParams {
  PermuteBatch batch;
  int64_t segments = 1;
  int64_t row_elems = 1;
  int64_t segment_in_stride = 0;
};

// MLUKernelPermuteTiles: per batch item, a rows x cols matrix with element
// (r, c) at r * row_in_stride + c in the input and at c * col_out_stride + r in
// the output. Tasks take ranges of the batch*rows rows or of the batch*cols
// columns (split_cols); a tile is at most tile_rows x tile_cols, both
// multiples of `align` (the elements in __bang_transpose's 64-byte dimension
// granule), and NRAM holds the loaded tile at 0 and the transposed one at
// tile_bytes.
struct PermuteTilesParams {
  PermuteBatch batch;
  int64_t rows = 1, cols = 1;
  int64_t row_in_stride = 0;
  int64_t col_out_stride = 0;
  bool split_cols = false;
  int64_t align = 1;
  int64_t tile_rows = 0, tile_cols = 0;
  int tile_bytes = 0;
};

template <typename T>
void MLUKernelPermuteRows(const T *in, T *out, PermuteRowsParams p);
template <typename T>
void MLUKernelPermuteTiles(const T *in, T *out, PermuteTilesParams p);

// Launches out = permute(in) on handle's queue: in is contiguous with shape
// dims (1 to 8 axes), out gets shape dims[perm[0]], dims[perm[1]], ...
// Elements are elem_bytes wide (1, 2, 4 or 8); in and out must not overlap.
// Zero elements: nothing is launched. BAD_PARAM for bad arguments,
// NOT_SUPPORTED when a row or stride does not fit __memcpy's 32-bit sizes,
// EXECUTION_FAILED when the launch fails; each with one log line under `api`.
mluOpStatus_t launch_permute(mluOpHandle_t handle, const char *api, const void *in, void *out,
                             const std::vector<int> &dims, const std::vector<int> &perm,
                             size_t elem_bytes);

}  // namespace mluop
