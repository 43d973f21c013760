// mluOpBorderAlignBackward: grad_output [N,K,4,C], boxes [N,K,4], argmax_idx
// [N,K,4,C] -> grad_input [N,H,W,4C] with K = H*W.
#include "fuzz/harness.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz::Call call(data, size);
  const mluOpDataType_t dtype = call.bytes().ConsumeBool() ? MLUOP_DTYPE_HALF : MLUOP_DTYPE_FLOAT;
  const int n = call.count(1, 2), h = call.count(1, 6), w = call.count(1, 6), c = call.count(1, 9);
  const int k = fuzz::product({h, w});
  // Each border visits pool_size + 1 points: the count's edges 1 << 16 and
  // INT_MAX are valid (mlu-ops checks only pool_size > 0) but run for hours, and
  // border_align_backward_watchdog_test covers them; the fuzzer keeps to 64.
  const int pool_size = std::min(call.count(1, 10), 64);
  const double extent = std::max(h, w) + 2.0;
  const double points =
      4.0 * std::max(n, 0) * std::max(k, 0) * std::max(c, 0) * (pool_size + 1.0);
  if (points > fuzz::kMaxSteps) return 0;
  mluOpTensorDescriptor_t grad_output_desc =
      call.tensor(MLUOP_LAYOUT_NHWC, dtype, {n, k, 4, c});
  mluOpTensorDescriptor_t boxes_desc = call.tensor(MLUOP_LAYOUT_ARRAY, dtype, {n, k, 4});
  mluOpTensorDescriptor_t argmax_desc =
      call.tensor(MLUOP_LAYOUT_NHWC, MLUOP_DTYPE_INT32, {n, k, 4, c});
  mluOpTensorDescriptor_t grad_input_desc =
      call.tensor(MLUOP_LAYOUT_NHWC, dtype, {n, h, w, fuzz::product({4, c})});
  mluOpHandle_t handle = call.handle();
  const void *grad_output = call.pointer(grad_output_desc, fuzz::Role::kInput);
  const void *boxes = call.pointer(boxes_desc, fuzz::Role::kInput, {-2, extent});
  const void *argmax = call.pointer(argmax_desc, fuzz::Role::kInput, {-2, pool_size + 2.0});
  void *grad_input = call.pointer(grad_input_desc, fuzz::Role::kOutput);
  call.check(mluOpBorderAlignBackward(handle, grad_output_desc, grad_output, boxes_desc, boxes,
                                      argmax_desc, argmax, pool_size, grad_input_desc, grad_input),
             fuzz::kOperatorStatuses);
  return 0;
}
