// The shapes mluOpMaskedIm2colForward and its workspace query share: feature
// [1,C,H,W] NCHW, mask_h_idx/mask_w_idx [mask_cnt] int32, data_col
// [C*kernel_h*kernel_w, mask_cnt].
#pragma once

#include "fuzz/harness.h"

namespace fuzz {

struct MaskedIm2col {
  int channels, height, width, masks, kernel_h, kernel_w;
  mluOpDataType_t dtype;
  mluOpTensorDescriptor_t feature, mask_h, mask_w, data_col;

  explicit MaskedIm2col(Call &call) {
    dtype = call.bytes().ConsumeBool() ? MLUOP_DTYPE_HALF : MLUOP_DTYPE_FLOAT;
    channels = call.count(1, 9);
    height = call.count(1, 8);
    width = call.count(1, 8);
    masks = call.count(0, 12);
    kernel_h = call.count(1, 5);
    kernel_w = call.count(1, 5);
    feature = call.tensor(MLUOP_LAYOUT_NCHW, dtype, {1, channels, height, width});
    mask_h = call.tensor(MLUOP_LAYOUT_ARRAY, MLUOP_DTYPE_INT32, {masks});
    mask_w = call.tensor(MLUOP_LAYOUT_ARRAY, MLUOP_DTYPE_INT32, {masks});
    data_col = call.tensor(MLUOP_LAYOUT_ARRAY, dtype,
                           {product({channels, kernel_h, kernel_w}), masks});
  }

  // What the header documents: (C*H*W + mask_cnt*kernel_h*kernel_w*C) * sizeof(dtype), 0 without masks.
  size_t documented_workspace() const {
    if (masks == 0) return 0;
    const size_t elements = size_t(channels) * height * width + size_t(masks) * kernel_h * kernel_w * channels;
    return elements * (dtype == MLUOP_DTYPE_HALF ? 2 : 4);
  }
};

}  // namespace fuzz
