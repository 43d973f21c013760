// mluOpMaskedIm2colForward with a workspace sized by the query (or not), or,
// built with MASKED_IM2COL_WORKSPACE, mluOpGetMaskedIm2colForwardWorkspaceSize:
// documented statuses, and the documented size whenever the descriptors are
// the ones the shapes mean. The two share their shapes: feature [1,C,H,W]
// NCHW, mask_h_idx/mask_w_idx [mask_cnt] int32, data_col
// [C*kernel_h*kernel_w, mask_cnt].
#include <algorithm>
#include <cstdio>

#include "fuzz/harness.h"

namespace fuzz {
namespace {

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

  // What the header documents: (C*H*W + mask_cnt*kernel_h*kernel_w*C) * sizeof(dtype), 0
  // without masks.
  size_t documented_workspace() const {
    if (masks == 0) return 0;
    const size_t elements =
        size_t(channels) * height * width + size_t(masks) * kernel_h * kernel_w * channels;
    return elements * (dtype == MLUOP_DTYPE_HALF ? 2 : 4);
  }
};

}  // namespace
}  // namespace fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
#ifdef MASKED_IM2COL_WORKSPACE
  fuzz::Call call(data, size);
  fuzz::MaskedIm2col shapes(call);
  mluOpHandle_t handle = call.handle();
  const bool null_output = call.bytes().ConsumeIntegral<uint8_t>() >= 250;
  size_t workspace = 12345;
  const mluOpStatus_t status = mluOpGetMaskedIm2colForwardWorkspaceSize(
      handle, shapes.feature, shapes.mask_h, shapes.mask_w, shapes.kernel_h, shapes.kernel_w,
      shapes.data_col, null_output ? nullptr : &workspace);
  call.check(status, {MLUOP_STATUS_SUCCESS, MLUOP_STATUS_BAD_PARAM, MLUOP_STATUS_NOT_SUPPORTED});
  if (status == MLUOP_STATUS_SUCCESS && null_output)
    fuzz::fail("SUCCESS with a NULL workspace_size");
  if (status == MLUOP_STATUS_SUCCESS && call.intact() && shapes.kernel_h > 0 &&
      shapes.kernel_w > 0 && workspace != shapes.documented_workspace()) {
    std::fprintf(stderr, "workspace %zu, documented %zu\n", workspace,
                 shapes.documented_workspace());
    fuzz::fail("workspace size differs from the documented formula");
  }
#else
  fuzz::Call call(data, size);
  fuzz::MaskedIm2col shapes(call);
  const int pad_h = call.count(0, 3), pad_w = call.count(0, 3);
  mluOpHandle_t handle = call.handle();
  size_t workspace_size = 0;
  if (mluOpGetMaskedIm2colForwardWorkspaceSize(handle, shapes.feature, shapes.mask_h, shapes.mask_w,
                                               shapes.kernel_h, shapes.kernel_w, shapes.data_col,
                                               &workspace_size) != MLUOP_STATUS_SUCCESS)
    workspace_size = call.bytes().ConsumeIntegralInRange<size_t>(0, 4096);
  const bool one_byte_short = call.bytes().ConsumeIntegral<uint8_t>() >= 240 && workspace_size > 0;
  const size_t passed_size = workspace_size - (one_byte_short ? 1 : 0);
  const double extent = std::max(shapes.height, shapes.width) + 3.0;
  const void *feature = call.pointer(shapes.feature, fuzz::Role::kInput);
  const void *mask_h = call.pointer(shapes.mask_h, fuzz::Role::kInput, {-3, extent});
  const void *mask_w = call.pointer(shapes.mask_w, fuzz::Role::kInput, {-3, extent});
  void *workspace = call.pointer_bytes(workspace_size, fuzz::Role::kOutput);
  void *data_col = call.pointer(shapes.data_col, fuzz::Role::kOutput);
  call.check(mluOpMaskedIm2colForward(handle, shapes.feature, feature, shapes.mask_h, mask_h,
                                      shapes.mask_w, mask_w, shapes.kernel_h, shapes.kernel_w,
                                      pad_h, pad_w, workspace, passed_size, shapes.data_col,
                                      data_col),
             fuzz::kOperatorStatuses);
#endif
  return 0;
}
