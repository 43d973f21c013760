// cnnlRoiPoolingForward / cnnlRoiPoolingBackward: checks (the max mode,
// NHWC float or half maps, rois [rois, 5] of the map's dtype, int32 argmax,
// dense tensors, device memory), the channel blocking of roi_pooling_kernel.h
// and the launches. Semantics: Caffe's / mmcv's roi_pool.
#include <algorithm>

#include "cnnl/host.h"
#include "cnnl/roi_pooling_kernel.h"
#include "runtime/operator_kit.h"

namespace {

using cnnlsim::Tensor;
namespace rp = cnnlsim::roi_pooling;

cnnlStatus_t check_map(const char *api, const char *name, const Tensor &t, bool int32 = false) {
  CNNL_CHECK(api, t.rank() == 4 && t.layout == CNNL_LAYOUT_NHWC,
             "{} is {}: must be a 4-D NHWC tensor", name, cnnlsim::describe(t));
  if (int32) {
    CNNL_CHECK(api, t.dtype == CNNL_DTYPE_INT32, "{} is {}: int32", name, cnnlsim::describe(t));
  } else {
    CNNL_CHECK(api, t.dtype == CNNL_DTYPE_FLOAT || t.dtype == CNNL_DTYPE_HALF,
               "{} is {}: float or half", name, cnnlsim::describe(t));
  }
  CNNL_SUPPORTS(api, t.dense(), "{} {}: a dense tensor", name, cnnlsim::describe(t));
  return CNNL_STATUS_SUCCESS;
}

cnnlStatus_t check_common(const char *api, cnnlPoolingMode_t mode, float spatial_scale,
                          const Tensor &rois, const Tensor &map) {
  CNNL_SUPPORTS(api, mode == CNNL_POOLING_MAX, "pooling_mode CNNL_POOLING_MAX (0), got {}",
                static_cast<int>(mode));
  CNNL_CHECK(api, spatial_scale > 0, "spatial_scale = {} must be positive", spatial_scale);
  CNNL_CHECK(api, rois.rank() == 2 && rois.dim(1) == 5 && rois.dtype == map.dtype,
             "rois is {}: must be [rois, 5] of the map's dtype ({})", cnnlsim::describe(rois),
             cnnlsim::dtype_name(map.dtype));
  CNNL_SUPPORTS(api, rois.dense(), "rois {}: a dense tensor", cnnlsim::describe(rois));
  // Pixel indices travel as floats in the kernel: exact below 2^24.
  CNNL_SUPPORTS(api, map.dim(1) * map.dim(2) <= (int64_t{1} << 24),
                "a feature map of at most 2^24 pixels, got {}", cnnlsim::describe(map));
  return CNNL_STATUS_SUCCESS;
}

// Channel blocks narrow enough that every core gets a (bin, block) item, no
// wider than NRAM holds `vectors` float vectors and `row_pixels` pixels of
// one bin row (floats plus a half stage) of.
rp::Plan make_plan(const Tensor &map, const Tensor &pooled, float spatial_scale, int vectors,
                   int64_t row_pixels) {
  rp::Plan p{};
  p.batch = map.dim(0);
  p.height = map.dim(1);
  p.width = map.dim(2);
  p.channels = map.dim(3);
  p.rois = pooled.dim(0);
  p.pooled_height = pooled.dim(1);
  p.pooled_width = pooled.dim(2);
  p.half = map.dtype == CNNL_DTYPE_HALF;
  p.spatial_scale = spatial_scale;
  p.nram_bytes = cnnlsim::nram_bytes();
  p.row_pixels = std::clamp<int64_t>(row_pixels, 1, std::max<int64_t>(p.width, 1));
  p.cp = cnnlsim::channel_pitch(p.channels, p.bins(), 4 * vectors + 6 * p.row_pixels,
                                rp::kPitchAlign);
  p.cb = std::min(p.cp, p.channels);
  p.dim = cnnlsim::union1_dim(p.bins() * p.channel_blocks());
  return p;
}
constexpr int kForwardVectors = 6, kBackwardVectors = 3;
constexpr int64_t kRowPixels = 64;  // pixels of a bin row per load, at most

}  // namespace

cnnlStatus_t cnnlRoiPoolingForward(cnnlHandle_t handle, cnnlPoolingMode_t pooling_mode,
                                   const cnnlTensorDescriptor_t input_desc, const void *input,
                                   const cnnlTensorDescriptor_t rois_desc, const void *rois,
                                   float spatial_scale, const cnnlTensorDescriptor_t output_desc,
                                   void *output, int *argmax) {
  const char *api = "cnnlRoiPoolingForward";
  cnrtQueue_t queue = nullptr;
  CNNL_RETURN_IF_ERROR(cnnlsim::queue_of(api, handle, queue));
  Tensor input_t, rois_t, output_t;
  CNNL_RETURN_IF_ERROR(cnnlsim::required(api, "input_desc", input_desc, input_t));
  CNNL_RETURN_IF_ERROR(cnnlsim::required(api, "rois_desc", rois_desc, rois_t));
  CNNL_RETURN_IF_ERROR(cnnlsim::required(api, "output_desc", output_desc, output_t));
  CNNL_RETURN_IF_ERROR(check_map(api, "input", input_t));
  CNNL_RETURN_IF_ERROR(check_map(api, "output", output_t));
  CNNL_RETURN_IF_ERROR(check_common(api, pooling_mode, spatial_scale, rois_t, input_t));
  CNNL_CHECK(api,
             output_t.dim(0) == rois_t.dim(0) && output_t.dim(3) == input_t.dim(3) &&
                 output_t.dtype == input_t.dtype,
             "output {} needs one row per roi ({} rois) and input {}'s channels and dtype",
             cnnlsim::describe(output_t), rois_t.dim(0), cnnlsim::describe(input_t));
  if (output_t.elements() == 0) return CNNL_STATUS_SUCCESS;
  // argmax: int32 of output's dims, described by output's descriptor.
  Tensor argmax_t = output_t;
  argmax_t.dtype = CNNL_DTYPE_INT32;
  CNNL_RETURN_IF_ERROR(cnnlsim::check_buffers(
      api, {{"input", &input_t, input}, {"rois", &rois_t, rois}},
      {{"output", &output_t, output}, {"argmax", &argmax_t, argmax}}));
  const rp::ForwardArgs args{make_plan(input_t, output_t, spatial_scale, kForwardVectors, kRowPixels),
                             input, rois, output, argmax};
  mlusim::OpScope scope(queue, api, cnnlsim::io_bytes({&input_t, &rois_t, &output_t, &argmax_t}),
                        static_cast<double>(output_t.elements()), input_t.dtype);
  return cnnlsim::launched(api, rp::launch_forward(queue, args));
}

cnnlStatus_t cnnlRoiPoolingBackward(cnnlHandle_t handle, cnnlPoolingMode_t pooling_mode,
                                    const cnnlTensorDescriptor_t grads_desc, const void *grads,
                                    const cnnlTensorDescriptor_t rois_desc, const void *rois,
                                    const cnnlTensorDescriptor_t argmax_desc, const int *argmax,
                                    const float spatial_scale,
                                    const cnnlTensorDescriptor_t grads_image_desc,
                                    void *grads_image) {
  const char *api = "cnnlRoiPoolingBackward";
  cnrtQueue_t queue = nullptr;
  CNNL_RETURN_IF_ERROR(cnnlsim::queue_of(api, handle, queue));
  Tensor grads_t, rois_t, argmax_t, image_t;
  CNNL_RETURN_IF_ERROR(cnnlsim::required(api, "grads_desc", grads_desc, grads_t));
  CNNL_RETURN_IF_ERROR(cnnlsim::required(api, "rois_desc", rois_desc, rois_t));
  CNNL_RETURN_IF_ERROR(cnnlsim::required(api, "argmax_desc", argmax_desc, argmax_t));
  CNNL_RETURN_IF_ERROR(cnnlsim::required(api, "grads_image_desc", grads_image_desc, image_t));
  CNNL_RETURN_IF_ERROR(check_map(api, "grads", grads_t));
  CNNL_RETURN_IF_ERROR(check_map(api, "grads_image", image_t));
  CNNL_RETURN_IF_ERROR(check_map(api, "argmax", argmax_t, true));
  CNNL_RETURN_IF_ERROR(check_common(api, pooling_mode, spatial_scale, rois_t, image_t));
  CNNL_CHECK(api,
             grads_t.dim(0) == rois_t.dim(0) && grads_t.dim(3) == image_t.dim(3) &&
                 grads_t.dtype == image_t.dtype && argmax_t.dims == grads_t.dims,
             "grads {} needs one row per roi ({} rois), grads_image {}'s channels and dtype, and "
             "argmax {} its dims",
             cnnlsim::describe(grads_t), rois_t.dim(0), cnnlsim::describe(image_t),
             cnnlsim::describe(argmax_t));
  if (image_t.elements() == 0) return CNNL_STATUS_SUCCESS;
  CNNL_RETURN_IF_ERROR(cnnlsim::check_buffers(
      api, {{"grads", &grads_t, grads}, {"rois", &rois_t, rois}, {"argmax", &argmax_t, argmax}},
      {{"grads_image", &image_t, grads_image}}));
  const rp::BackwardArgs args{make_plan(image_t, grads_t, spatial_scale, kBackwardVectors, 1),
                              grads, rois, argmax, grads_image};
  mlusim::OpScope scope(queue, api, cnnlsim::io_bytes({&grads_t, &rois_t, &argmax_t, &image_t}),
                        static_cast<double>(grads_t.elements()), image_t.dtype);
  // grads_image is overwritten: zeroed first, then every output adds into it.
  CNNL_RETURN_IF_ERROR(cnnlsim::zero_fill(api, queue, grads_image, image_t));
  if (grads_t.elements() == 0) return CNNL_STATUS_SUCCESS;
  return cnnlsim::launched(api, rp::launch_backward(queue, args));
}
