// masked_im2col_forward's host side below the mlu_op.h entry points: the
// workspace layout and the design doc's four device steps, exposed so that the
// benchmark can time each step.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>

#include "mlu_op.h"

namespace mluop {

// One call's shapes and device pointers, checked by mluOpMaskedIm2colForward.
struct MaskedIm2colForwardProblem {
  mluOpDataType_t dtype;  // half or float
  int channels, height, width;
  int kernel_h, kernel_w, pad_h, pad_w;
  int mask_cnt;
  const void *feature;  // [1, C, H, W] NCHW
  const int32_t *mask_h_idx, *mask_w_idx;
  void *workspace;  // masked_im2col_forward_workspace_size bytes
  void *data_col;   // [C*kernel_h*kernel_w, mask_cnt]
};

// Workspace: [feature as NHWC: C*H*W][staging data_col: mask_cnt*kh*kw*C]
// elements. The device permute tiles through NRAM and needs no scratch.
size_t masked_im2col_forward_workspace_size(mluOpDataType_t dtype, int channels, int height,
                                            int width, int kernel_h, int kernel_w, int mask_cnt);

// The four steps on handle's queue, one launch each: (1) feature NCHW -> NHWC
// into the workspace, (2) zero the staging area, (3) copy each mask's valid
// window into it, (4) permute the staging [mask_cnt, kh*kw, C] into data_col
// as [C, kh*kw, mask_cnt]. after_step(step), if given, runs after step 1..4.
mluOpStatus_t masked_im2col_forward_steps(mluOpHandle_t handle, const char *api,
                                          const MaskedIm2colForwardProblem &problem,
                                          const std::function<void(int step)> &after_step = {});

}  // namespace mluop
