// Internal entry of deform_roi_pool_forward for tests and benchmarks: the
// public mluOpDeformRoiPoolForward with a choice of pipeline.
#pragma once

#include "mlu_op.h"

namespace mluop {

enum class DeformRoiPoolPipeline {
  kPingPong,  // the design doc's 3.4: async loads into pong while ping computes (the API's)
  kSerial,    // the same kernel with synchronous loads: no overlap, for comparison
};

mluOpStatus_t deform_roi_pool_forward(
    mluOpHandle_t handle, mluOpTensorDescriptor_t input_desc, const void *input,
    mluOpTensorDescriptor_t rois_desc, const void *rois, mluOpTensorDescriptor_t offset_desc,
    const void *offset, int pooled_height, int pooled_width, float spatial_scale,
    int sampling_ratio, float gamma, mluOpTensorDescriptor_t output_desc, void *output,
    DeformRoiPoolPipeline pipeline);

}  // namespace mluop
