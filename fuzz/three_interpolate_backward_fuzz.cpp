// mluOpThreeInterpolateBackward: grad_output [B,C,N], indices [B,N,3], weights
// [B,N,3] -> grad_features [B,C,M].
#include "fuzz/harness.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz::Call call(data, size);
  const mluOpDataType_t dtype = call.bytes().ConsumeBool() ? MLUOP_DTYPE_HALF : MLUOP_DTYPE_FLOAT;
  const int b = call.count(1, 2), c = call.count(1, 9), n = call.count(1, 16), m = call.count(0, 16);
  mluOpTensorDescriptor_t grad_output_desc = call.tensor(MLUOP_LAYOUT_ARRAY, dtype, {b, c, n});
  mluOpTensorDescriptor_t indices_desc = call.tensor(MLUOP_LAYOUT_ARRAY, MLUOP_DTYPE_INT32, {b, n, 3});
  mluOpTensorDescriptor_t weights_desc = call.tensor(MLUOP_LAYOUT_ARRAY, dtype, {b, n, 3});
  mluOpTensorDescriptor_t grad_features_desc = call.tensor(MLUOP_LAYOUT_ARRAY, dtype, {b, c, m});
  mluOpHandle_t handle = call.handle();
  const void *grad_output = call.pointer(grad_output_desc, fuzz::Role::kInput);
  const void *indices = call.pointer(indices_desc, fuzz::Role::kInput, {-2, m + 2.0});
  const void *weights = call.pointer(weights_desc, fuzz::Role::kInput);
  void *grad_features = call.pointer(grad_features_desc, fuzz::Role::kOutput);
  call.check(mluOpThreeInterpolateBackward(handle, grad_output_desc, grad_output, indices_desc,
                                           indices, weights_desc, weights, grad_features_desc,
                                           grad_features),
             fuzz::kOperatorStatuses);
  return 0;
}
