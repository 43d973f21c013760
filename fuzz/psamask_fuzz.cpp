// mluOpPsamaskForward, or mluOpPsamaskBackward when built with PSAMASK_BACKWARD:
// the two share their shapes, x/dx [N,H,W,h_mask*w_mask] and y/dy [N,H,W,H*W].
#include <algorithm>

#include "fuzz/harness.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz::Call call(data, size);
  const int psa_type = call.count(0, 1);
  const int n = call.count(1, 2), h = call.count(1, 6), w = call.count(1, 6);
  // Masks up to 2*H+1 reach past the map on every side (h, w may be edge values).
  const int h_mask = call.count(1, 2 * std::clamp(h, 1, 6) + 1);
  const int w_mask = call.count(1, 2 * std::clamp(w, 1, 6) + 1);
  mluOpTensorDescriptor_t mask_side =
      call.tensor(MLUOP_LAYOUT_NHWC, MLUOP_DTYPE_FLOAT, {n, h, w, fuzz::product({h_mask, w_mask})});
  mluOpTensorDescriptor_t map_side =
      call.tensor(MLUOP_LAYOUT_NHWC, MLUOP_DTYPE_FLOAT, {n, h, w, fuzz::product({h, w})});
  mluOpHandle_t handle = call.handle();
#ifdef PSAMASK_BACKWARD
  const void *dy = call.pointer(map_side, fuzz::Role::kInput);
  void *dx = call.pointer(mask_side, fuzz::Role::kOutput);
  call.check(mluOpPsamaskBackward(handle, psa_type, map_side, dy, h_mask, w_mask, mask_side, dx),
             fuzz::kOperatorStatuses);
#else
  const void *x = call.pointer(mask_side, fuzz::Role::kInput);
  void *y = call.pointer(map_side, fuzz::Role::kOutput);
  call.check(mluOpPsamaskForward(handle, psa_type, mask_side, x, h_mask, w_mask, map_side, y),
             fuzz::kOperatorStatuses);
#endif
  return 0;
}
