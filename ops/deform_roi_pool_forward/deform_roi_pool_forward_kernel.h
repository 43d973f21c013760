// What the host side and the kernel of deform_roi_pool_forward share: the
// kernel's arguments, the channel split of the design doc's 3.1, mmcv's
// sampling-grid rule and the pipeline choice; and, for tests and benchmarks,
// the entry point with that choice.
#pragma once

#include <climits>
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "cnrt.h"
#include "mlu_op.h"

namespace mluop::deform_roi_pool_forward {

enum class Pipeline {
  kPingPong,  // the design doc's 3.4: async loads into pong while ping computes (the API's)
  kSerial,    // the same kernel with synchronous loads: no overlap, for comparison
};

// NRAM starts with a small header for the current roi (5 values) and its
// offset pair; nram_out, ping and pong follow it.
constexpr int kHeaderBytes = 128;
constexpr int kRoiValues = 5;
constexpr int kOffsetSlot = 8;  // element index of the offset pair inside the header
// Vector operands are padded to 128 bytes (NFU_ALIGN_SIZE).
constexpr int kAlignBytes = 128;
// NRAM slices of one channel chunk: nram_out, 4 corners in ping, 4 in pong.
constexpr int kSlices = 9;

template <typename T>
struct Args {
  const T *input;   // [batches, height, width, channels] NHWC
  const T *rois;    // [num_rois, 5]: batch index, x1, y1, x2, y2
  const T *offset;  // [num_rois, 2, pooled_height, pooled_width], or nullptr
  T *output;        // [num_rois, pooled_height, pooled_width, channels] NHWC
  int batches, height, width, channels;
  int num_rois, pooled_height, pooled_width;
  float spatial_scale;
  int sampling_ratio;
  float gamma;
  int chunk_channels;  // channels per pass (3.1): all of them unless NRAM forces a split
};

// Samples along one side of a bin: sampling_ratio, or mmcv's adaptive
// ceil(roi extent / pooled). A grid that is not positive (empty, reversed or
// NaN/Inf roi) has no samples and its bin is 0, as in mmcv and mlu-ops.
inline int sampling_grid(float roi_extent, int pooled, int sampling_ratio) {
  if (sampling_ratio > 0) return sampling_ratio;
  const float grid = std::ceil(roi_extent / static_cast<float>(pooled));
  if (!(grid > 0) || std::isinf(grid)) return 0;
  return grid < static_cast<float>(INT_MAX) ? static_cast<int>(grid) : INT_MAX;
}

// Channels per pass, the design doc's 3.1: all `channels` when
// 8 * channels_align <= nram_limit - channels_align (ping and pong hold 4
// corner vectors each, nram_out one); otherwise the largest aligned chunk c
// with 9 aligned slices in NRAM, and the channels go in ceil(channels / c) passes.
inline int chunk_channels(int channels, size_t nram_bytes, size_t dtype_bytes) {
  const long long align = kAlignBytes / static_cast<long long>(dtype_bytes);
  const long long nram_limit =
      (static_cast<long long>(nram_bytes) - kHeaderBytes) / static_cast<long long>(dtype_bytes);
  const long long channels_align = (channels + align - 1) / align * align;
  if (8 * channels_align <= nram_limit - channels_align) return channels;
  return static_cast<int>(nram_limit / kSlices / align * align);
}

// Launches the kernel, MLUKernelDeformRoiPoolForward<T, kPingPong> (Union1):
// T is float or half (_Float16); the pipeline is the async prefetch of 3.4 or
// the same body with synchronous loads.
template <typename T>
cnrtRet_t launch_kernel(cnrtDim3_t dim, cnrtQueue_t queue, const Args<T> &args,
                        Pipeline pipeline);

// ---- Below mlu_op.h, for tests and benchmarks --------------------------------

// mluOpDeformRoiPoolForward (which is run(..., Pipeline::kPingPong)) with a
// choice of pipeline.
mluOpStatus_t run(mluOpHandle_t handle, mluOpTensorDescriptor_t input_desc, const void *input,
                  mluOpTensorDescriptor_t rois_desc, const void *rois,
                  mluOpTensorDescriptor_t offset_desc, const void *offset, int pooled_height,
                  int pooled_width, float spatial_scale, int sampling_ratio, float gamma,
                  mluOpTensorDescriptor_t output_desc, void *output, Pipeline pipeline);

}  // namespace mluop::deform_roi_pool_forward
