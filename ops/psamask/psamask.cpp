// mluOpPsamaskForward / mluOpPsamaskBackward: the checks of the design doc
// (1.3, 1.4, 3.4), the policy (3.3 split, 3.2.3 NRAM sizing), the theory
// figures and the launch. Forward and backward differ only in which tensor is
// the input: the mask tensor (x; dx is backward's output) has h_mask * w_mask
// channels, the feature tensor (y; dy is backward's input) has H * W.
#include "ops/common/host.h"
#include "ops/psamask/psamask_kernel.h"

namespace mluop::psamask {
namespace {

struct Direction {
  const char *api;   // for log lines
  const char *name;  // for the op report
  bool backward;
  const char *in, *out;  // tensor names
};
constexpr Direction kForward{"mluOpPsamaskForward", "psamask_forward", false, "x", "y"};
constexpr Direction kBackward{"mluOpPsamaskBackward", "psamask_backward", true, "dy", "dx"};

mluOpStatus_t check_tensor(const char *api, const char *name, const mluOpTensorStruct &t) {
  MLUOP_CHECK(api, t.rank() == 4, "{} is {}: must have 4 dims", name, mluop::shape_string(t));
  MLUOP_CHECK(api, t.layout == MLUOP_LAYOUT_NHWC, "{} layout is {}, must be NHWC", name,
              mluop::layout_name(t.layout));
  MLUOP_CHECK(api, t.dtype == MLUOP_DTYPE_FLOAT, "{} dtype is {}, must be float", name,
              mluop::dtype_name(t.dtype));
  MLUOP_CHECK(api, !mluop::is_large_tensor(t), "{} is {}: {} elements, must be fewer than 2^31",
              name, mluop::shape_string(t), mluop::element_count_wide(t));
  return MLUOP_STATUS_SUCCESS;
}

// Section 1.4 and 3.4: float NHWC tensors, equal N, H, W, mask channels
// h_mask * w_mask, feature channels H * W. psa_type must name a mode.
mluOpStatus_t check_params(const Direction &d, int psa_type, const mluOpTensorStruct &in,
                           const mluOpTensorStruct &out, int h_mask, int w_mask) {
  const char *api = d.api;
  MLUOP_CHECK(api, psa_type == kCollect || psa_type == kDistribute,
              "psa_type is {}, must be 0 (COLLECT) or 1 (DISTRIBUTE)", psa_type);
  if (mluOpStatus_t st = check_tensor(api, d.in, in); st != MLUOP_STATUS_SUCCESS) return st;
  if (mluOpStatus_t st = check_tensor(api, d.out, out); st != MLUOP_STATUS_SUCCESS) return st;
  MLUOP_CHECK(api, in.dim(0) == out.dim(0) && in.dim(1) == out.dim(1) && in.dim(2) == out.dim(2),
              "{} is {} and {} is {}: N, H, W must be equal", d.in, mluop::shape_string(in), d.out,
              mluop::shape_string(out));
  MLUOP_CHECK(api, h_mask > 0 && w_mask > 0, "h_mask = {}, w_mask = {}: must be positive", h_mask,
              w_mask);
  const mluOpTensorStruct &mask = d.backward ? out : in, &feature = d.backward ? in : out;
  const char *mask_name = d.backward ? d.out : d.in, *feature_name = d.backward ? d.in : d.out;
  MLUOP_CHECK(api, int64_t{h_mask} * w_mask == mask.dim(3),
              "{} has {} channels, must be h_mask * w_mask = {} * {}", mask_name, mask.dim(3),
              h_mask, w_mask);
  MLUOP_CHECK(api, int64_t{feature.dim(1)} * feature.dim(2) == feature.dim(3),
              "{} has {} channels, must be H * W = {} * {}", feature_name, feature.dim(3),
              feature.dim(1), feature.dim(2));
  return MLUOP_STATUS_SUCCESS;
}

mluOpStatus_t run(const Direction &d, mluOpHandle_t handle, int psa_type,
                  const mluOpTensorDescriptor_t in_desc, const void *input, int h_mask, int w_mask,
                  const mluOpTensorDescriptor_t out_desc, void *output) {
  const char *api = d.api;
  MLUOP_CHECK(api, handle != nullptr, "handle is NULL");
  MLUOP_CHECK(api, out_desc != nullptr, "{}_desc is NULL", d.out);
  MLUOP_CHECK(api, in_desc != nullptr, "{}_desc is NULL", d.in);
  if (mluOpStatus_t st = check_params(d, psa_type, *in_desc, *out_desc, h_mask, w_mask);
      st != MLUOP_STATUS_SUCCESS)
    return st;
  // Zero elements: nothing to do (N, H or W is 0, so both tensors are empty).
  if (mluop::element_count(*in_desc) == 0) return MLUOP_STATUS_SUCCESS;

  if (mluOpStatus_t st =
          mluop::check_device_tensors(api, {{d.in, input, in_desc}}, {{d.out, output, out_desc}});
      st != MLUOP_STATUS_SUCCESS)
    return st;

  const Shape shape = make_shape(in_desc->dim(0), in_desc->dim(1),
                                                   in_desc->dim(2), h_mask, w_mask, psa_type);
  const auto nram_floats = static_cast<int64_t>(mluop::nram_size() / sizeof(float));
  const NramPlan one = plan_nram<float>(shape, 1);
  MLUOP_CHECK_STATUS(api, one.total() <= nram_floats, MLUOP_STATUS_NOT_SUPPORTED,
                     "one point needs {} bytes of NRAM ({} mask + {} x {} feature floats), the "
                     "device has {}: h_mask * w_mask = {} or H * W = {} too large",
                     one.total() * sizeof(float), one.mask, one.regions, one.feature,
                     mluop::nram_size(), shape.mask_c, shape.feature_c);

  const int clusters = clusters_needed(shape, mluop::cluster_count());
  const cnrtDim3_t dim{static_cast<unsigned>(mluop::cores_per_cluster()),
                       static_cast<unsigned>(clusters), 1};
  mlusim::log::op().debug("[{}] {} -> {}, {}: dim ({}, {}, 1)", api, mluop::shape_string(*in_desc),
                          mluop::shape_string(*out_desc),
                          psa_type == kCollect ? "COLLECT" : "DISTRIBUTE", dim.x, dim.y);

  // mlu-ops' theory: IO = input + output bytes, ops = output elements.
  mlusim::OpScope scope(handle->queue, d.name, mluop::theory_io_bytes({in_desc, out_desc}),
                        static_cast<double>(mluop::element_count(*out_desc)), in_desc->dtype);
  const auto *in = static_cast<const float *>(input);
  auto *out = static_cast<float *>(output);
  if (d.backward)
    MLUOP_KERNEL_CHECK(api, launch_backward(dim, handle->queue, in, out, shape));
  else
    MLUOP_KERNEL_CHECK(api, launch_forward(dim, handle->queue, in, out, shape));
  return MLUOP_STATUS_SUCCESS;
}

}  // namespace
}  // namespace mluop::psamask

mluOpStatus_t mluOpPsamaskForward(mluOpHandle_t handle, const int psa_type,
                                  const mluOpTensorDescriptor_t x_desc, const void *x,
                                  const int h_mask, const int w_mask,
                                  const mluOpTensorDescriptor_t y_desc, void *y) {
  return mluop::psamask::run(mluop::psamask::kForward, handle, psa_type, x_desc, x, h_mask, w_mask,
                             y_desc, y);
}

mluOpStatus_t mluOpPsamaskBackward(mluOpHandle_t handle, const int psa_type,
                                   const mluOpTensorDescriptor_t dy_desc, const void *dy,
                                   const int h_mask, const int w_mask,
                                   const mluOpTensorDescriptor_t dx_desc, void *dx) {
  return mluop::psamask::run(mluop::psamask::kBackward, handle, psa_type, dy_desc, dy, h_mask,
                             w_mask, dx_desc, dx);
}
