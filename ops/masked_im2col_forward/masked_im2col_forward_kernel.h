// What the host side and the step 3 kernel of masked_im2col_forward share (the
// design doc's section 3: the part of each mask's window that lies inside the
// feature, copied from the NHWC feature into the [mask_cnt, kernel_h*kernel_w,
// C] staging area); and, for the benchmark, the workspace layout and the doc's
// four device steps one by one.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>

#include "cnrt.h"
#include "mlu_op.h"

namespace mluop::masked_im2col_forward {

struct Params {
  int height, width, channels;
  int kernel_h, kernel_w, pad_h, pad_w;
  int mask_cnt;
};

// feature_hwc [H, W, C]; mask_h_idx, mask_w_idx [mask_cnt];
// data_col_hwc [mask_cnt, kernel_h*kernel_w, C], zero where no copy lands.
template <typename T>
cnrtRet_t launch_kernel(cnrtDim3_t dim, cnrtQueue_t queue, const T *feature_hwc,
                        const int32_t *mask_h_idx, const int32_t *mask_w_idx, T *data_col_hwc,
                        Params p);

// ---- Below mlu_op.h, for the benchmark ---------------------------------------

// One call's shapes and device pointers, checked by mluOpMaskedIm2colForward.
struct Call {
  mluOpDataType_t dtype;  // half or float
  Params shape;
  const void *feature;  // [1, C, H, W] NCHW
  const int32_t *mask_h_idx, *mask_w_idx;
  void *workspace;  // workspace_size bytes
  void *data_col;   // [C*kernel_h*kernel_w, mask_cnt]
};

// Workspace: [feature as NHWC: C*H*W][staging data_col: mask_cnt*kh*kw*C]
// elements. The device permute tiles through NRAM and needs no scratch.
size_t workspace_size(mluOpDataType_t dtype, const Params &shape);

// The four steps on handle's queue, one launch each: (1) feature NCHW -> NHWC
// into the workspace, (2) zero the staging area, (3) copy each mask's valid
// window into it, (4) permute the staging [mask_cnt, kh*kw, C] into data_col
// as [C, kh*kw, mask_cnt]. after_step(step), if given, runs after step 1..4.
mluOpStatus_t run_steps(mluOpHandle_t handle, const char *api, const Call &call,
                        const std::function<void(int step)> &after_step = {});

}  // namespace mluop::masked_im2col_forward
