// RoiAlign: the descriptor calls, cnnlRoiAlign_v2, cnnlRoiAlignBackward(_v2):
// checks (NHWC float or half feature maps, boxes [rois, 5] of the same dtype,
// dense tensors, device memory), the channel blocking of roi_align_kernel.h
// and the launches. Semantics: mmcv's roi_align (include/cnnl.h states them).
#include <algorithm>

#include <spdlog/fmt/ranges.h>

#include "cnnl/host.h"
#include "cnnl/roi_align_kernel.h"
#include "runtime/operator_kit.h"

namespace {

using cnnlsim::Tensor;
namespace ra = cnnlsim::roi_align;

// A 4-D NHWC float or half tensor, dense.
cnnlStatus_t check_nhwc(const char *api, const char *name, const Tensor &t) {
  CNNL_CHECK(api, t.rank() == 4 && t.layout == CNNL_LAYOUT_NHWC,
             "{} is {}: must be a 4-D NHWC tensor", name, cnnlsim::describe(t));
  CNNL_CHECK(api, t.dtype == CNNL_DTYPE_FLOAT || t.dtype == CNNL_DTYPE_HALF,
             "{} is {}: float or half", name, cnnlsim::describe(t));
  CNNL_SUPPORTS(api, t.dense(), "{} {}: a dense tensor", name, cnnlsim::describe(t));
  return CNNL_STATUS_SUCCESS;
}

cnnlStatus_t check_boxes(const char *api, const Tensor &boxes, const Tensor &feature) {
  CNNL_CHECK(api, boxes.rank() == 2 && boxes.dim(1) == 5 && boxes.dtype == feature.dtype,
             "boxes is {}: must be [rois, 5] of the feature map's dtype ({})",
             cnnlsim::describe(boxes), cnnlsim::dtype_name(feature.dtype));
  CNNL_SUPPORTS(api, boxes.dense(), "boxes {}: a dense tensor", cnnlsim::describe(boxes));
  return CNNL_STATUS_SUCCESS;
}

cnnlStatus_t check_params(const char *api, const ra::Params &p) {
  CNNL_CHECK(api, p.sampling_ratio >= 0, "sampling_ratio = {} is negative", p.sampling_ratio);
  CNNL_CHECK(api, p.spatial_scale > 0, "spatial_scale = {} must be positive", p.spatial_scale);
  CNNL_CHECK(api, p.pool_mode == 0 || p.pool_mode == 1, "pool_mode is {}: 0 (max) or 1 (average)",
             p.pool_mode);
  return CNNL_STATUS_SUCCESS;
}

// The argmax tensors of the max mode: like `like` (the output, or grads).
cnnlStatus_t check_argmax(const char *api, const char *name, cnnlTensorDescriptor_t desc,
                          const Tensor &like, Tensor &t) {
  bool present = false;
  CNNL_RETURN_IF_ERROR(cnnlsim::optional(api, name, desc, t, present));
  CNNL_CHECK(api, present, "{} is absent: the max mode (pool_mode 0) needs it", name);
  CNNL_CHECK(api, t.dims == like.dims && t.dtype == like.dtype,
             "{} is {}: must have the dims and dtype of {}", name, cnnlsim::describe(t),
             cnnlsim::describe(like));
  CNNL_SUPPORTS(api, t.dense(), "{} {}: a dense tensor", name, cnnlsim::describe(t));
  return CNNL_STATUS_SUCCESS;
}

// The launch for `rois` bins of pooled_height x pooled_width over feature map
// `map`: channel blocks narrow enough that every core gets a (bin, block)
// item, no wider than NRAM holds the kernel's `vectors` float vectors and one
// half vector of.
ra::Plan make_plan(const Tensor &map, int64_t rois, int64_t pooled_height, int64_t pooled_width,
                   const ra::Params &p, int vectors) {
  ra::Plan plan{};
  ra::Shape &s = plan.s;
  s = ra::Shape{map.dim(0), map.dim(1),    map.dim(2),   map.dim(3), rois,
                pooled_height, pooled_width, 0, 0, map.dtype == CNNL_DTYPE_HALF};
  plan.p = p;
  plan.nram_bytes = cnnlsim::nram_bytes();
  s.cp = cnnlsim::channel_pitch(s.channels, s.bins(), 4 * vectors + 2, ra::kPitchAlign);
  s.cb = std::min(s.cp, s.channels);
  plan.dim = cnnlsim::union1_dim(s.bins() * s.channel_blocks());
  return plan;
}
constexpr int kForwardVectors = 7, kBackwardVectors = 5;

cnnlStatus_t backward(const char *api, cnnlHandle_t handle, const ra::Params &p,
                      const cnnlTensorDescriptor_t grads_desc, const void *grads,
                      const cnnlTensorDescriptor_t boxes_desc, const void *boxes,
                      const cnnlTensorDescriptor_t argmax_x_desc, const void *argmax_x,
                      const cnnlTensorDescriptor_t argmax_y_desc, const void *argmax_y,
                      const cnnlTensorDescriptor_t grads_image_desc, void *grads_image) {
  cnrtQueue_t queue = nullptr;
  CNNL_RETURN_IF_ERROR(cnnlsim::queue_of(api, handle, queue));
  CNNL_RETURN_IF_ERROR(check_params(api, p));
  Tensor grads_t, boxes_t, image_t, arg_x_t, arg_y_t;
  CNNL_RETURN_IF_ERROR(cnnlsim::required(api, "grads_desc", grads_desc, grads_t));
  CNNL_RETURN_IF_ERROR(cnnlsim::required(api, "boxes_desc", boxes_desc, boxes_t));
  CNNL_RETURN_IF_ERROR(cnnlsim::required(api, "grads_image_desc", grads_image_desc, image_t));
  CNNL_RETURN_IF_ERROR(check_nhwc(api, "grads", grads_t));
  CNNL_RETURN_IF_ERROR(check_nhwc(api, "grads_image", image_t));
  CNNL_RETURN_IF_ERROR(check_boxes(api, boxes_t, grads_t));
  CNNL_CHECK(api,
             grads_t.dim(0) == boxes_t.dim(0) && grads_t.dim(3) == image_t.dim(3) &&
                 grads_t.dtype == image_t.dtype,
             "grads {} needs one row per box ({} boxes) and grads_image {}'s channels and dtype",
             cnnlsim::describe(grads_t), boxes_t.dim(0), cnnlsim::describe(image_t));
  if (p.pool_mode == 0) {
    CNNL_RETURN_IF_ERROR(check_argmax(api, "argmax_x", argmax_x_desc, grads_t, arg_x_t));
    CNNL_RETURN_IF_ERROR(check_argmax(api, "argmax_y", argmax_y_desc, grads_t, arg_y_t));
  }
  if (image_t.elements() == 0) return CNNL_STATUS_SUCCESS;
  CNNL_RETURN_IF_ERROR(cnnlsim::check_buffers(api,
                                     {{"grads", &grads_t, grads},
                                      {"boxes", &boxes_t, boxes},
                                      {"argmax_x", &arg_x_t, argmax_x},
                                      {"argmax_y", &arg_y_t, argmax_y}},
                                     {{"grads_image", &image_t, grads_image}}));
  const ra::BackwardArgs args{
      make_plan(image_t, grads_t.dim(0), grads_t.dim(1), grads_t.dim(2), p, kBackwardVectors),
      grads, boxes, argmax_x, argmax_y, grads_image};
  mlusim::OpScope scope(queue, api, cnnlsim::io_bytes({&grads_t, &boxes_t, &image_t}),
                        14.0 * grads_t.elements(), image_t.dtype);
  // grads_image is overwritten: zeroed first, then every bin adds into it.
  CNNL_RETURN_IF_ERROR(cnnlsim::zero_fill(api, queue, grads_image, image_t));
  if (grads_t.elements() == 0) return CNNL_STATUS_SUCCESS;
  return cnnlsim::launched(api, ra::launch_backward(queue, args));
}

}  // namespace

cnnlStatus_t cnnlCreateRoiAlignDescriptor(cnnlRoiAlignDescriptor_t *desc) {
  return cnnlsim::create_call("cnnlCreateRoiAlignDescriptor", desc);
}

cnnlStatus_t cnnlDestroyRoiAlignDescriptor(cnnlRoiAlignDescriptor_t desc) {
  return cnnlsim::destroy_call("cnnlDestroyRoiAlignDescriptor", desc);
}

cnnlStatus_t cnnlSetRoiAlignDescriptor_v2(cnnlRoiAlignDescriptor_t desc, const int pooled_height,
                                          const int pooled_width, const int sampling_ratio,
                                          const float spatial_scale, const int pool_mode,
                                          const bool aligned) {
  const char *api = "cnnlSetRoiAlignDescriptor_v2";
  const auto live = cnnlsim::find_roi_align(desc);
  CNNL_CHECK(api, live != nullptr, "descriptor {} is not a live RoiAlign descriptor",
             static_cast<void *>(desc));
  CNNL_CHECK(api, pooled_height > 0 && pooled_width > 0,
             "pooled_height = {}, pooled_width = {}: must be positive", pooled_height,
             pooled_width);
  CNNL_RETURN_IF_ERROR(check_params(api, ra::Params{sampling_ratio, spatial_scale, aligned, pool_mode}));
  *live = cnnlRoiAlignStruct{true,          pooled_height, pooled_width, sampling_ratio,
                             spatial_scale, pool_mode,     aligned};
  return CNNL_STATUS_SUCCESS;
}

cnnlStatus_t cnnlRoiAlign_v2(cnnlHandle_t handle, const cnnlRoiAlignDescriptor_t roialign_desc,
                             const cnnlTensorDescriptor_t input_desc, const void *input,
                             const cnnlTensorDescriptor_t boxes_desc, const void *boxes,
                             const cnnlTensorDescriptor_t output_desc, void *output,
                             const cnnlTensorDescriptor_t argmax_x_desc, void *argmax_x,
                             const cnnlTensorDescriptor_t argmax_y_desc, void *argmax_y) {
  const char *api = "cnnlRoiAlign_v2";
  cnrtQueue_t queue = nullptr;
  CNNL_RETURN_IF_ERROR(cnnlsim::queue_of(api, handle, queue));
  const auto desc = cnnlsim::find_roi_align(roialign_desc);
  CNNL_CHECK(api, desc != nullptr, "roialign_desc {} is not a live RoiAlign descriptor",
             static_cast<void *>(roialign_desc));
  CNNL_CHECK(api, desc->set, "roialign_desc was never set (cnnlSetRoiAlignDescriptor_v2)");
  const ra::Params p{desc->sampling_ratio, desc->spatial_scale, desc->aligned, desc->pool_mode};
  Tensor input_t, boxes_t, output_t, arg_x_t, arg_y_t;
  CNNL_RETURN_IF_ERROR(cnnlsim::required(api, "input_desc", input_desc, input_t));
  CNNL_RETURN_IF_ERROR(cnnlsim::required(api, "boxes_desc", boxes_desc, boxes_t));
  CNNL_RETURN_IF_ERROR(cnnlsim::required(api, "output_desc", output_desc, output_t));
  CNNL_RETURN_IF_ERROR(check_nhwc(api, "input", input_t));
  CNNL_RETURN_IF_ERROR(check_nhwc(api, "output", output_t));
  CNNL_RETURN_IF_ERROR(check_boxes(api, boxes_t, input_t));
  const std::vector<int64_t> out_dims = {boxes_t.dim(0), desc->pooled_height, desc->pooled_width,
                                         input_t.dim(3)};
  CNNL_CHECK(api, output_t.dims == out_dims && output_t.dtype == input_t.dtype,
             "output is {}: must be [rois, pooled_height, pooled_width, channels] = [{}] of {}",
             cnnlsim::describe(output_t), fmt::join(out_dims, ","),
             cnnlsim::dtype_name(input_t.dtype));
  if (p.pool_mode == 0) {
    CNNL_RETURN_IF_ERROR(check_argmax(api, "argmax_x", argmax_x_desc, output_t, arg_x_t));
    CNNL_RETURN_IF_ERROR(check_argmax(api, "argmax_y", argmax_y_desc, output_t, arg_y_t));
  }
  if (output_t.elements() == 0) return CNNL_STATUS_SUCCESS;
  CNNL_CHECK(api, input_t.dim(1) > 0 && input_t.dim(2) > 0,
             "input is {}: boxes need a feature map of some height and width",
             cnnlsim::describe(input_t));
  CNNL_RETURN_IF_ERROR(cnnlsim::check_buffers(
      api, {{"input", &input_t, input}, {"boxes", &boxes_t, boxes}},
      {{"output", &output_t, output}, {"argmax_x", &arg_x_t, argmax_x}, {"argmax_y", &arg_y_t, argmax_y}}));
  const ra::ForwardArgs args{
      make_plan(input_t, boxes_t.dim(0), out_dims[1], out_dims[2], p, kForwardVectors), input,
      boxes, output, argmax_x, argmax_y};
  mlusim::OpScope scope(queue, api, cnnlsim::io_bytes({&input_t, &boxes_t, &output_t}),
                        8.0 * output_t.elements(), input_t.dtype);
  return cnnlsim::launched(api, ra::launch_forward(queue, args));
}

cnnlStatus_t cnnlRoiAlignBackward(cnnlHandle_t handle, const float spatial_scale,
                                  const int sampling_ratio, const bool aligned,
                                  const cnnlTensorDescriptor_t grads_desc, const void *grads,
                                  const cnnlTensorDescriptor_t boxes_desc, const void *boxes,
                                  const cnnlTensorDescriptor_t grads_image_desc,
                                  void *grads_image) {
  return backward("cnnlRoiAlignBackward", handle, {sampling_ratio, spatial_scale, aligned, 1},
                  grads_desc, grads, boxes_desc, boxes, nullptr, nullptr, nullptr, nullptr,
                  grads_image_desc, grads_image);
}

cnnlStatus_t cnnlRoiAlignBackward_v2(
    cnnlHandle_t handle, const cnnlTensorDescriptor_t grads_desc, const void *grads,
    const cnnlTensorDescriptor_t boxes_desc, const void *boxes,
    const cnnlTensorDescriptor_t argmax_x_desc, const void *argmax_x,
    const cnnlTensorDescriptor_t argmax_y_desc, const void *argmax_y, const float spatial_scale,
    const int sampling_ratio, const bool aligned, const int pool_mode,
    const cnnlTensorDescriptor_t grads_image_desc, void *grads_image) {
  return backward("cnnlRoiAlignBackward_v2", handle,
                  {sampling_ratio, spatial_scale, aligned, pool_mode}, grads_desc, grads,
                  boxes_desc, boxes, argmax_x_desc, argmax_x, argmax_y_desc, argmax_y,
                  grads_image_desc, grads_image);
}
