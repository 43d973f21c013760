// masked_im2col_forward's step 3 kernel (design doc section 3): the part of
// each mask's window that lies inside the feature, copied from the NHWC
// feature into the [mask_cnt, kernel_h*kernel_w, C] staging area.
#pragma once

#include <cstdint>

#include "cnrt.h"

namespace mluop {

struct MaskedIm2colForwardParams {
  int height, width, channels;
  int kernel_h, kernel_w, pad_h, pad_w;
  int mask_cnt;
};

// feature_hwc [H, W, C]; mask_h_idx, mask_w_idx [mask_cnt];
// data_col_hwc [mask_cnt, kernel_h*kernel_w, C], zero where no copy lands.
template <typename T>
cnrtRet_t launch_masked_im2col_kernel(cnrtDim3_t dim, cnrtQueue_t queue, const T *feature_hwc,
                                      const int32_t *mask_h_idx, const int32_t *mask_w_idx,
                                      T *data_col_hwc, MaskedIm2colForwardParams p);

}  // namespace mluop
