// mluOpMaskedIm2colForward, with a workspace sized by the query (or not).
#include "fuzz/masked_im2col_fuzz.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
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
  return 0;
}
