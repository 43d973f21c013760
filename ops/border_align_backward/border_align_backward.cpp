// mluOpBorderAlignBackward: parameter checks (design doc 3.8, in mlu-ops' order),
// theory figures, and the two launches: zero grad_input, then accumulate into it.
#include "ops/border_align_backward/border_align_backward_kernel.h"
#include "ops/common/host.h"

namespace mluop::border_align_backward {
namespace {

constexpr const char *kApi = "mluOpBorderAlignBackward";

bool is_nhwc(const mluOpTensorStruct &t) { return t.layout == MLUOP_LAYOUT_NHWC; }

// The shape checks after the descriptors' ranks and dtypes are known to be right.
// N, H, W and C come from grad_input [N,H,W,4C], K from boxes [N,K,4].
mluOpStatus_t check_shapes(const mluOpTensorStruct &grad_output, const mluOpTensorStruct &boxes,
                           const mluOpTensorStruct &argmax_idx,
                           const mluOpTensorStruct &grad_input, int32_t pool_size) {
  const char *api = kApi;
  const int N = grad_input.dim(0), H = grad_input.dim(1), W = grad_input.dim(2);
  const int C = grad_input.dim(3) / 4, K = boxes.dim(1);
  MLUOP_CHECK(api, grad_input.dim(3) % 4 == 0,
              "grad_input's last dim {} must be a multiple of 4 (4 borders x C)",
              grad_input.dim(3));
  MLUOP_CHECK(api, N != 0 && H != 0 && W != 0 && C != 0,
              "grad_input {} has zero elements (N, H, W and C must be non-zero)",
              mluop::shape_string(grad_input));
  MLUOP_CHECK(api, int64_t{H} * W == K,
              "grad_input's H * W = {} * {} must equal boxes' K = {} (one box per pixel)", H, W,
              K);
  MLUOP_CHECK(api, boxes.dim(2) == 4, "boxes' last dim is {}, must be 4 (x0, y0, x1, y1)",
              boxes.dim(2));
  MLUOP_CHECK(api, K != 0, "boxes {} has zero elements", mluop::shape_string(boxes));
  MLUOP_CHECK(api, pool_size > 0, "pool_size = {} must be positive", pool_size);
  const std::vector<int> expected{N, K, 4, C};
  MLUOP_CHECK(api, grad_output.dims == expected,
              "grad_output dims [{}] must be [N, K, 4, C] = [{}] (N, C from grad_input, K from "
              "boxes)",
              fmt::join(grad_output.dims, ","), fmt::join(expected, ","));
  MLUOP_CHECK(api, boxes.dim(0) == N, "boxes dims [{}] must be [N, K, 4] with N = {}",
              fmt::join(boxes.dims, ","), N);
  MLUOP_CHECK(api, argmax_idx.dims == grad_output.dims,
              "argmax_idx dims [{}] must equal grad_output's [{}]",
              fmt::join(argmax_idx.dims, ","), fmt::join(grad_output.dims, ","));
  for (const auto *t : {&grad_output, &boxes, &grad_input})
    MLUOP_CHECK_STATUS(api, !mluop::is_large_tensor(*t), MLUOP_STATUS_NOT_SUPPORTED,
                       "{} has {} elements; at most 2^31 - 1 are supported",
                       mluop::shape_string(*t), mluop::element_count(*t));
  return MLUOP_STATUS_SUCCESS;
}

mluOpStatus_t check_params(mluOpHandle_t handle, const mluOpTensorDescriptor_t grad_output_desc,
                           const mluOpTensorDescriptor_t boxes_desc,
                           const mluOpTensorDescriptor_t argmax_idx_desc,
                           const int32_t pool_size,
                           const mluOpTensorDescriptor_t grad_input_desc) {
  const char *api = kApi;
  MLUOP_CHECK(api, handle != nullptr, "handle is NULL");
  MLUOP_CHECK(api, grad_output_desc != nullptr, "grad_output_desc is NULL");
  MLUOP_CHECK(api, boxes_desc != nullptr, "boxes_desc is NULL");
  MLUOP_CHECK(api, argmax_idx_desc != nullptr, "argmax_idx_desc is NULL");
  MLUOP_CHECK(api, grad_input_desc != nullptr, "grad_input_desc is NULL");
  const mluOpTensorStruct &grad_output = *grad_output_desc, &boxes = *boxes_desc;
  const mluOpTensorStruct &argmax_idx = *argmax_idx_desc, &grad_input = *grad_input_desc;
  MLUOP_CHECK(api, grad_output.rank() == 4, "grad_output has {} dims, must have 4 [N,K,4,C]",
              grad_output.rank());
  MLUOP_CHECK(api, boxes.rank() == 3, "boxes has {} dims, must have 3 [N,K,4]", boxes.rank());
  MLUOP_CHECK(api, argmax_idx.rank() == 4, "argmax_idx has {} dims, must have 4 [N,K,4,C]",
              argmax_idx.rank());
  MLUOP_CHECK(api, grad_input.rank() == 4, "grad_input has {} dims, must have 4 [N,H,W,4C]",
              grad_input.rank());
  MLUOP_CHECK(api,
              grad_output.dtype == MLUOP_DTYPE_FLOAT || grad_output.dtype == MLUOP_DTYPE_HALF,
              "grad_output dtype is {}, must be float or half",
              mluop::dtype_name(grad_output.dtype));
  MLUOP_CHECK(api, argmax_idx.dtype == MLUOP_DTYPE_INT32, "argmax_idx dtype is {}, must be int32",
              mluop::dtype_name(argmax_idx.dtype));
  MLUOP_CHECK(api, boxes.dtype == grad_output.dtype,
              "boxes dtype {} must equal grad_output's {}", mluop::dtype_name(boxes.dtype),
              mluop::dtype_name(grad_output.dtype));
  MLUOP_CHECK(api, grad_input.dtype == grad_output.dtype,
              "grad_input dtype {} must equal grad_output's {}",
              mluop::dtype_name(grad_input.dtype), mluop::dtype_name(grad_output.dtype));
  MLUOP_CHECK(api, is_nhwc(grad_output), "grad_output layout is {}, must be NHWC",
              mluop::layout_name(grad_output.layout));
  MLUOP_CHECK(api, is_nhwc(argmax_idx), "argmax_idx layout is {}, must be NHWC",
              mluop::layout_name(argmax_idx.layout));
  MLUOP_CHECK(api, is_nhwc(grad_input), "grad_input layout is {}, must be NHWC",
              mluop::layout_name(grad_input.layout));
  return check_shapes(grad_output, boxes, argmax_idx, grad_input, pool_size);
}

template <typename T>
cnrtRet_t launch(cnrtQueue_t queue, const void *grad_output, const void *boxes,
                 const void *argmax_idx, int32_t pool_size, const mluOpTensorStruct &grad_input_t,
                 int K, void *grad_input) {
  // Union1 over the whole device, as mlu-ops' policy does.
  const cnrtDim3_t dim{static_cast<unsigned>(mluop::cores_per_cluster()),
                       static_cast<unsigned>(mluop::cluster_count()), 1};
  return launch_kernels<T>(dim, queue, static_cast<const T *>(grad_output),
                           static_cast<const T *>(boxes), static_cast<const int32_t *>(argmax_idx),
                           pool_size, grad_input_t.dim(0), grad_input_t.dim(1), grad_input_t.dim(2),
                           grad_input_t.dim(3) / 4, K, static_cast<T *>(grad_input));
}

mluOpStatus_t run(mluOpHandle_t handle, const mluOpTensorDescriptor_t grad_output_desc,
                  const void *grad_output, const mluOpTensorDescriptor_t boxes_desc,
                  const void *boxes, const mluOpTensorDescriptor_t argmax_idx_desc,
                  const void *argmax_idx, const int32_t pool_size,
                  const mluOpTensorDescriptor_t grad_input_desc, void *grad_input) {
  const char *api = kApi;
  const mluOpStatus_t status = check_params(handle, grad_output_desc, boxes_desc,
                                            argmax_idx_desc, pool_size, grad_input_desc);
  if (status != MLUOP_STATUS_SUCCESS) return status;
  const mluOpStatus_t pointers = mluop::check_device_tensors(
      api, {{"grad_output", grad_output, grad_output_desc}, {"boxes", boxes, boxes_desc},
            {"argmax_idx", argmax_idx, argmax_idx_desc}},
      {{"grad_input", grad_input, grad_input_desc}});
  if (pointers != MLUOP_STATUS_SUCCESS) return pointers;

  // Theory figures as mlu-ops' gtest defines them: every input and the output
  // once; N * K * C * 3 ops (its formula, from grad_output's dims).
  const int K = boxes_desc->dim(1);
  const double io_bytes = mluop::theory_io_bytes(
      {grad_output_desc, boxes_desc, argmax_idx_desc, grad_input_desc});
  const double ops = 3.0 * grad_output_desc->dim(0) * K * grad_output_desc->dim(3);
  mlusim::OpScope scope(handle->queue, "border_align_backward", io_bytes, ops,
                        grad_output_desc->dtype);
  const bool is_float = grad_output_desc->dtype == MLUOP_DTYPE_FLOAT;
  MLUOP_KERNEL_CHECK(api, (is_float ? launch<float> : launch<_Float16>)(
                              handle->queue, grad_output, boxes, argmax_idx, pool_size,
                              *grad_input_desc, K, grad_input));
  return MLUOP_STATUS_SUCCESS;
}

}  // namespace
}  // namespace mluop::border_align_backward

mluOpStatus_t mluOpBorderAlignBackward(mluOpHandle_t handle,
                                       const mluOpTensorDescriptor_t grad_output_desc,
                                       const void *grad_output,
                                       const mluOpTensorDescriptor_t boxes_desc, const void *boxes,
                                       const mluOpTensorDescriptor_t argmax_idx_desc,
                                       const void *argmax_idx, const int32_t pool_size,
                                       const mluOpTensorDescriptor_t grad_input_desc,
                                       void *grad_input) {
  return mluop::border_align_backward::run(handle, grad_output_desc, grad_output, boxes_desc,
                                           boxes, argmax_idx_desc, argmax_idx, pool_size,
                                           grad_input_desc, grad_input);
}
