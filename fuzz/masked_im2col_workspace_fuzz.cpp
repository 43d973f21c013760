// mluOpGetMaskedIm2colForwardWorkspaceSize: documented statuses, and the
// documented size whenever the descriptors are the ones the shapes mean.
#include <cstdio>

#include "fuzz/masked_im2col_fuzz.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz::Call call(data, size);
  fuzz::MaskedIm2col shapes(call);
  mluOpHandle_t handle = call.handle();
  const bool null_output = call.bytes().ConsumeIntegral<uint8_t>() >= 250;
  size_t workspace = 12345;
  const mluOpStatus_t status = mluOpGetMaskedIm2colForwardWorkspaceSize(
      handle, shapes.feature, shapes.mask_h, shapes.mask_w, shapes.kernel_h, shapes.kernel_w,
      shapes.data_col, null_output ? nullptr : &workspace);
  call.check(status, {MLUOP_STATUS_SUCCESS, MLUOP_STATUS_BAD_PARAM, MLUOP_STATUS_NOT_SUPPORTED});
  if (status == MLUOP_STATUS_SUCCESS && null_output) fuzz::fail("SUCCESS with a NULL workspace_size");
  if (status == MLUOP_STATUS_SUCCESS && call.intact() && shapes.kernel_h > 0 && shapes.kernel_w > 0 &&
      workspace != shapes.documented_workspace()) {
    std::fprintf(stderr, "workspace %zu, documented %zu\n", workspace, shapes.documented_workspace());
    fuzz::fail("workspace size differs from the documented formula");
  }
  return 0;
}
