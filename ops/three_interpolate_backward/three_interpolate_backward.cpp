// mluOpThreeInterpolateBackward: the checks of the design doc (1.1, 1.3, 1.4,
// 3.7) in mlu-ops' order, the policy (3.3 tile sizes, step 1's task split),
// the theory figures and the launch.
#include "ops/common/host.h"
#include "ops/three_interpolate_backward/three_interpolate_backward_kernel.h"

namespace mluop::three_interpolate_backward {
namespace {

constexpr const char *kApi = "mluOpThreeInterpolateBackward";

mluOpStatus_t check_tensor(const char *name, const mluOpTensorStruct &t) {
  MLUOP_CHECK(kApi, t.rank() == 3, "{} is {}: must have 3 dims", name, mluop::shape_string(t));
  MLUOP_CHECK(kApi, t.layout == MLUOP_LAYOUT_ARRAY, "{} layout is {}, must be ARRAY", name,
              mluop::layout_name(t.layout));
  return MLUOP_STATUS_SUCCESS;
}

// 1.3 and 1.4: [B, C, N], [B, N, 3] int32, [B, N, 3], [B, C, M]; half or
// float, the same for grad_output, weights and grad_features.
mluOpStatus_t check_params(const mluOpTensorStruct &grad_output, const mluOpTensorStruct &indices,
                           const mluOpTensorStruct &weights,
                           const mluOpTensorStruct &grad_features) {
  for (auto [name, t] : {std::pair{"grad_output", &grad_output},
                         {"indices", &indices},
                         {"weights", &weights},
                         {"grad_features", &grad_features}})
    if (mluOpStatus_t st = check_tensor(name, *t); st != MLUOP_STATUS_SUCCESS) return st;

  MLUOP_CHECK(kApi, grad_output.dtype == weights.dtype,
              "grad_output dtype is {} and weights dtype is {}: must be equal",
              mluop::dtype_name(grad_output.dtype), mluop::dtype_name(weights.dtype));
  MLUOP_CHECK(kApi, indices.dtype == MLUOP_DTYPE_INT32, "indices dtype is {}, must be int32",
              mluop::dtype_name(indices.dtype));
  MLUOP_CHECK(kApi, weights.dtype == grad_features.dtype,
              "weights dtype is {} and grad_features dtype is {}: must be equal",
              mluop::dtype_name(weights.dtype), mluop::dtype_name(grad_features.dtype));
  MLUOP_CHECK(kApi, grad_output.dtype == MLUOP_DTYPE_HALF || grad_output.dtype == MLUOP_DTYPE_FLOAT,
              "grad_output dtype is {}, must be half or float",
              mluop::dtype_name(grad_output.dtype));

  MLUOP_CHECK(kApi, grad_output.dim(0) == indices.dim(0),
              "grad_output is {} and indices is {}: B must be equal",
              mluop::shape_string(grad_output), mluop::shape_string(indices));
  MLUOP_CHECK(kApi, indices.dims == weights.dims, "indices is {} and weights is {}: must be equal",
              mluop::shape_string(indices), mluop::shape_string(weights));
  MLUOP_CHECK(kApi, weights.dim(2) == kNeighbours, "weights is {}: last dim must be 3",
              mluop::shape_string(weights));
  MLUOP_CHECK(
      kApi,
      grad_output.dim(0) == grad_features.dim(0) && grad_output.dim(1) == grad_features.dim(1),
      "grad_output is {} and grad_features is {}: B and C must be equal",
      mluop::shape_string(grad_output), mluop::shape_string(grad_features));
  MLUOP_CHECK(kApi, grad_output.dim(2) == indices.dim(1),
              "grad_output is {} and indices is {}: N must be equal",
              mluop::shape_string(grad_output), mluop::shape_string(indices));

  for (auto [name, t] : {std::pair{"grad_output", &grad_output},
                         {"indices", &indices},
                         {"weights", &weights},
                         {"grad_features", &grad_features}})
    MLUOP_CHECK_STATUS(kApi, !mluop::is_large_tensor(*t), MLUOP_STATUS_NOT_SUPPORTED,
                       "{} is {}: {} elements, must be fewer than 2^31", name,
                       mluop::shape_string(*t), mluop::element_count_wide(*t));
  return MLUOP_STATUS_SUCCESS;
}

template <typename T>
mluOpStatus_t launch(mluOpHandle_t handle, const Shape &shape, const void *grad_output,
                     const void *indices, const void *weights, void *grad_features,
                     double theory_io, mluOpDataType_t dtype) {
  const Tiles tiles = choose_tiles<T>(shape, static_cast<int64_t>(mluop::nram_size()));
  MLUOP_CHECK_STATUS(kApi, tiles.n > 0, MLUOP_STATUS_NOT_SUPPORTED,
                     "{} bytes of NRAM cannot hold one {}-element tile per buffer",
                     mluop::nram_size(), align<T>());

  // Step 1: one task per (batch, Mo chunk); as many clusters as the tasks fill.
  const int64_t tasks = task_count(shape, tiles);
  const int cores = mluop::cores_per_cluster();
  const int64_t clusters = std::min<int64_t>(mluop::cluster_count(), ceil_div(tasks, cores));
  const cnrtDim3_t dim{static_cast<unsigned>(cores), static_cast<unsigned>(clusters), 1};
  mlusim::log::op().debug(
      "[{}] B={} C={} N={} M={} {}: No={} Co={} Mo={}, {} tasks, dim ({}, {}, 1)", kApi, shape.b,
      shape.c, shape.n, shape.m, mluop::dtype_name(dtype), tiles.n, tiles.c, tiles.m, tasks, dim.x,
      dim.y);

  // mlu-ops' theory: IO = every tensor's bytes, ops = 9 * B * C * N (for each
  // of 3 neighbours a multiply, a transpose and an add per grad_output element).
  const double theory_ops = 9.0 * shape.b * shape.c * shape.n;
  mlusim::OpScope scope(handle->queue, "three_interpolate_backward", theory_io, theory_ops, dtype);
  MLUOP_KERNEL_CHECK(kApi, launch_kernel<T>(dim, handle->queue,
                                                 static_cast<const T *>(grad_output),
                                                 static_cast<const int32_t *>(indices),
                                                 static_cast<const T *>(weights),
                                                 static_cast<T *>(grad_features), shape, tiles));
  return MLUOP_STATUS_SUCCESS;
}

mluOpStatus_t run(mluOpHandle_t handle, const mluOpTensorDescriptor_t grad_output_desc,
                  const void *grad_output, const mluOpTensorDescriptor_t indices_desc,
                  const void *indices, const mluOpTensorDescriptor_t weights_desc,
                  const void *weights, const mluOpTensorDescriptor_t grad_features_desc,
                  void *grad_features) {
  MLUOP_CHECK(kApi, handle != nullptr, "handle is NULL");
  MLUOP_CHECK(kApi, grad_output_desc != nullptr, "grad_output_desc is NULL");
  MLUOP_CHECK(kApi, indices_desc != nullptr, "indices_desc is NULL");
  MLUOP_CHECK(kApi, weights_desc != nullptr, "weights_desc is NULL");
  MLUOP_CHECK(kApi, grad_features_desc != nullptr, "grad_features_desc is NULL");
  if (mluOpStatus_t st =
          check_params(*grad_output_desc, *indices_desc, *weights_desc, *grad_features_desc);
      st != MLUOP_STATUS_SUCCESS)
    return st;

  // 1.1: B, C or N zero is BAD_PARAM. M zero is SUCCESS with nothing written,
  // as mmcv and the released mlu-ops do (the doc's table says BAD_PARAM).
  MLUOP_CHECK(kApi, mluop::element_count(*grad_output_desc) != 0,
              "grad_output is {}: B, C and N must be non-zero",
              mluop::shape_string(*grad_output_desc));
  if (mluop::element_count(*grad_features_desc) == 0) return MLUOP_STATUS_SUCCESS;

  const mluOpStatus_t pointers = mluop::check_device_tensors(
      kApi, {{"grad_output", grad_output, grad_output_desc}, {"indices", indices, indices_desc},
             {"weights", weights, weights_desc}},
      {{"grad_features", grad_features, grad_features_desc}});
  if (pointers != MLUOP_STATUS_SUCCESS) return pointers;

  const Shape shape{grad_output_desc->dim(0), grad_output_desc->dim(1),
                         grad_output_desc->dim(2), grad_features_desc->dim(2)};
  const double theory_io = mluop::theory_io_bytes(
      {grad_output_desc, indices_desc, weights_desc, grad_features_desc});
  if (grad_output_desc->dtype == MLUOP_DTYPE_HALF)
    return launch<_Float16>(handle, shape, grad_output, indices, weights, grad_features, theory_io,
                            grad_output_desc->dtype);
  return launch<float>(handle, shape, grad_output, indices, weights, grad_features, theory_io,
                       grad_output_desc->dtype);
}

}  // namespace
}  // namespace mluop::three_interpolate_backward

mluOpStatus_t mluOpThreeInterpolateBackward(
    mluOpHandle_t handle, const mluOpTensorDescriptor_t grad_output_desc, const void *grad_output,
    const mluOpTensorDescriptor_t indices_desc, const void *indices,
    const mluOpTensorDescriptor_t weights_desc, const void *weights,
    const mluOpTensorDescriptor_t grad_features_desc, void *grad_features) {
  return mluop::three_interpolate_backward::run(handle, grad_output_desc, grad_output, indices_desc,
                                                indices, weights_desc, weights, grad_features_desc,
                                                grad_features);
}
