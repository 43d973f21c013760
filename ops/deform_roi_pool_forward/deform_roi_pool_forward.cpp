// mluOpDeformRoiPoolForward: the parameter checks of the design doc's 3.8 in
// mlu-ops' order, the policy (task split, channel split) and the launch.
#include <algorithm>
#include <climits>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "ops/common/host.h"
#include "ops/deform_roi_pool_forward/deform_roi_pool_forward_kernel.h"

namespace mluop::deform_roi_pool_forward {
namespace {

constexpr const char *kApi = "mluOpDeformRoiPoolForward";

// Descriptors, dtypes, layouts and shapes (3.8 items 1, 3 and 4, and the
// limits of 1.4). Ranks are checked first so that no dim is read that is not there.
mluOpStatus_t check_descriptors(mluOpTensorDescriptor_t input_desc,
                                mluOpTensorDescriptor_t rois_desc,
                                mluOpTensorDescriptor_t offset_desc, int pooled_height,
                                int pooled_width, mluOpTensorDescriptor_t output_desc) {
  const auto &in = *input_desc, &rois = *rois_desc, &out = *output_desc;
  MLUOP_CHECK(kApi, in.rank() == 4, "input rank is {}, must be 4 ([N,H,W,C])", in.rank());
  MLUOP_CHECK(kApi, out.rank() == 4, "output rank is {}, must be 4 ([R,ph,pw,C])", out.rank());
  MLUOP_CHECK(kApi, in.layout == MLUOP_LAYOUT_NHWC, "input layout is {}, must be NHWC",
              mluop::layout_name(in.layout));
  MLUOP_CHECK(kApi, out.layout == MLUOP_LAYOUT_NHWC, "output layout is {}, must be NHWC",
              mluop::layout_name(out.layout));
  MLUOP_CHECK(kApi, in.dtype == MLUOP_DTYPE_FLOAT || in.dtype == MLUOP_DTYPE_HALF,
              "input dtype is {}, must be float or half", mluop::dtype_name(in.dtype));
  MLUOP_CHECK(kApi, rois.dtype == in.dtype, "rois dtype {} differs from input dtype {}",
              mluop::dtype_name(rois.dtype), mluop::dtype_name(in.dtype));
  MLUOP_CHECK(kApi, out.dtype == in.dtype, "output dtype {} differs from input dtype {}",
              mluop::dtype_name(out.dtype), mluop::dtype_name(in.dtype));
  MLUOP_CHECK(kApi, rois.rank() == 2, "rois rank is {}, must be 2 ([R,5])", rois.rank());
  MLUOP_CHECK(kApi, rois.dim(1) == 5, "rois dims[1] is {}, must be 5", rois.dim(1));
  MLUOP_CHECK(kApi, pooled_height > 0, "pooled_height is {}, must be > 0", pooled_height);
  MLUOP_CHECK(kApi, pooled_width > 0, "pooled_width is {}, must be > 0", pooled_width);
  MLUOP_CHECK(kApi, out.dim(1) == pooled_height, "output dims[1] is {}, pooled_height is {}",
              out.dim(1), pooled_height);
  MLUOP_CHECK(kApi, out.dim(2) == pooled_width, "output dims[2] is {}, pooled_width is {}",
              out.dim(2), pooled_width);
  if (offset_desc != nullptr) {
    const auto &off = *offset_desc;
    MLUOP_CHECK(kApi, off.dtype == in.dtype, "offset dtype {} differs from input dtype {}",
                mluop::dtype_name(off.dtype), mluop::dtype_name(in.dtype));
    MLUOP_CHECK(kApi, off.rank() == 4, "offset rank is {}, must be 4 ([R,2,ph,pw])", off.rank());
    MLUOP_CHECK(kApi, off.dim(0) == rois.dim(0), "offset dims[0] is {}, rois number is {}",
                off.dim(0), rois.dim(0));
    MLUOP_CHECK(kApi, off.dim(1) == 2, "offset dims[1] is {}, must be 2", off.dim(1));
    MLUOP_CHECK(kApi, off.dim(2) == pooled_height, "offset dims[2] is {}, pooled_height is {}",
                off.dim(2), pooled_height);
    MLUOP_CHECK(kApi, off.dim(3) == pooled_width, "offset dims[3] is {}, pooled_width is {}",
                off.dim(3), pooled_width);
    MLUOP_CHECK_STATUS(kApi, !mluop::is_large_tensor(off),
                       MLUOP_STATUS_NOT_SUPPORTED, "offset has {} elements, limit is 2^31",
                       mluop::element_count(off));
  }
  MLUOP_CHECK(kApi, rois.dim(0) == out.dim(0), "rois number is {}, output dims[0] is {}",
              rois.dim(0), out.dim(0));
  MLUOP_CHECK(kApi, in.dim(3) == out.dim(3), "input channels are {}, output channels are {}",
              in.dim(3), out.dim(3));
  for (const auto *t : {&in, &rois, &out})
    MLUOP_CHECK_STATUS(kApi, !mluop::is_large_tensor(*t), MLUOP_STATUS_NOT_SUPPORTED,
                       "tensor {} has {} elements, limit is 2^31", mluop::shape_string(*t),
                       mluop::element_count(*t));
  return MLUOP_STATUS_SUCCESS;
}

// Theory figures. IO as mlu-ops defines it: input + rois + offset + output.
// Ops (mlu-ops defines none): the bilinear multiply-adds, 4 products and 4
// additions per sample and channel, plus one scaling per output element. The
// sample count depends on the rois, read back here; every grid sample counts,
// on the map or not.
double theory_ops(const mluOpTensorStruct &rois_desc, const void *rois, int pooled_height,
                  int pooled_width, float spatial_scale, int sampling_ratio, int channels) {
  const int num_rois = rois_desc.dim(0);
  std::vector<float> boxes(static_cast<size_t>(num_rois) * 5);
  if (rois_desc.dtype == MLUOP_DTYPE_HALF) {
    std::vector<_Float16> h(boxes.size());
    cnrtMemcpy(h.data(), const_cast<void *>(rois), h.size() * sizeof(_Float16),
               cnrtMemcpyDevToHost);
    std::copy(h.begin(), h.end(), boxes.begin());
  } else {
    cnrtMemcpy(boxes.data(), const_cast<void *>(rois), boxes.size() * sizeof(float),
               cnrtMemcpyDevToHost);
  }
  double samples = 0;
  for (int r = 0; r < num_rois; ++r) {
    const float *b = &boxes[static_cast<size_t>(r) * 5];
    const float roi_w = (b[3] * spatial_scale - 0.5f) - (b[1] * spatial_scale - 0.5f);
    const float roi_h = (b[4] * spatial_scale - 0.5f) - (b[2] * spatial_scale - 0.5f);
    samples += static_cast<double>(sampling_grid(roi_h, pooled_height, sampling_ratio)) *
               sampling_grid(roi_w, pooled_width, sampling_ratio);
  }
  const double points = static_cast<double>(pooled_height) * pooled_width * channels;
  return points * (8 * samples + num_rois);
}

template <typename T>
mluOpStatus_t launch(mluOpHandle_t handle, const Args<T> &args, Pipeline pipeline) {
  // Union1 over the output points: 4 cores per cluster, no more clusters than
  // the points need; tasks take points round-robin (remainders go to the first).
  const int cores = mluop::cores_per_cluster();
  const int64_t bins = static_cast<int64_t>(args.num_rois) * args.pooled_height * args.pooled_width;
  const int clusters = static_cast<int>(
      std::min<int64_t>((bins + cores - 1) / cores, mluop::cluster_count()));
  const cnrtDim3_t dim{static_cast<unsigned>(cores), static_cast<unsigned>(clusters), 1};
  MLUOP_KERNEL_CHECK(kApi, launch_kernel<T>(dim, handle->queue, args, pipeline));
  return MLUOP_STATUS_SUCCESS;
}

template <typename T>
Args<T> make_args(const mluOpTensorStruct &in, const void *input,
                  const mluOpTensorStruct &rois_desc, const void *rois, const void *offset,
                  const mluOpTensorStruct &out, void *output, float spatial_scale,
                  int sampling_ratio, float gamma) {
  Args<T> a{};
  a.input = static_cast<const T *>(input);
  a.rois = static_cast<const T *>(rois);
  a.offset = static_cast<const T *>(offset);
  a.output = static_cast<T *>(output);
  a.batches = in.dim(0), a.height = in.dim(1), a.width = in.dim(2), a.channels = in.dim(3);
  a.num_rois = rois_desc.dim(0), a.pooled_height = out.dim(1), a.pooled_width = out.dim(2);
  a.spatial_scale = spatial_scale, a.sampling_ratio = sampling_ratio, a.gamma = gamma;
  a.chunk_channels = chunk_channels(a.channels, mluop::nram_size(), sizeof(T));
  return a;
}

}  // namespace

mluOpStatus_t run(mluOpHandle_t handle, mluOpTensorDescriptor_t input_desc, const void *input,
                  mluOpTensorDescriptor_t rois_desc, const void *rois,
                  mluOpTensorDescriptor_t offset_desc, const void *offset, int pooled_height,
                  int pooled_width, float spatial_scale, int sampling_ratio, float gamma,
                  mluOpTensorDescriptor_t output_desc, void *output, Pipeline pipeline) {
  MLUOP_CHECK(kApi, handle != nullptr, "handle is NULL");
  MLUOP_CHECK(kApi, input_desc != nullptr, "input_desc is NULL");
  MLUOP_CHECK(kApi, rois_desc != nullptr, "rois_desc is NULL");
  MLUOP_CHECK(kApi, output_desc != nullptr, "output_desc is NULL");
  const mluOpStatus_t shapes = check_descriptors(input_desc, rois_desc, offset_desc,
                                                 pooled_height, pooled_width, output_desc);
  if (shapes != MLUOP_STATUS_SUCCESS) return shapes;
  MLUOP_CHECK(kApi, (offset_desc == nullptr) == (offset == nullptr),
              "offset_desc is {} but offset is {}: both or neither must be given",
              offset_desc == nullptr ? "NULL" : "set", offset == nullptr ? "NULL" : "set");

  // Zero elements (1.1): an empty feature map (H or W 0) runs and gives zeros;
  // any other empty tensor is an error.
  const auto &in = *input_desc, &out = *output_desc;
  MLUOP_CHECK(kApi, in.dim(0) != 0, "input batches is 0 (zero-element input)");
  MLUOP_CHECK(kApi, mluop::element_count(*rois_desc) != 0, "rois has no elements: {}",
              mluop::shape_string(*rois_desc));
  MLUOP_CHECK(kApi, mluop::element_count(out) != 0, "output has no elements: {}",
              mluop::shape_string(out));

  // The kernel's strided copies take byte strides as int (one image row, one offset plane).
  const size_t dtype_bytes = mluop::dtype_size(in.dtype);
  const size_t row_bytes = static_cast<size_t>(in.dim(2)) * in.dim(3) * dtype_bytes;
  const size_t plane_bytes = static_cast<size_t>(pooled_height) * pooled_width * dtype_bytes;
  MLUOP_CHECK_STATUS(kApi, row_bytes <= INT_MAX && plane_bytes <= INT_MAX,
                     MLUOP_STATUS_NOT_SUPPORTED,
                     "an input row ({} bytes) or offset plane ({} bytes) exceeds 2^31 - 1 bytes",
                     row_bytes, plane_bytes);

  // An empty map's input (H or W 0) and an absent offset have no bytes: never read.
  const mluOpStatus_t pointers = mluop::check_device_tensors(
      kApi,
      {{"input", input, input_desc}, {"rois", rois, rois_desc}, {"offset", offset, offset_desc}},
      {{"output", output, output_desc}});
  if (pointers != MLUOP_STATUS_SUCCESS) return pointers;

  const double io = mluop::theory_io_bytes({&in, rois_desc, offset_desc, &out});
  const double ops = theory_ops(*rois_desc, rois, pooled_height, pooled_width, spatial_scale,
                                sampling_ratio, in.dim(3));
  mlusim::OpScope scope(handle->queue, "deform_roi_pool_forward", io, ops, in.dtype);
  if (in.dtype == MLUOP_DTYPE_HALF)
    return launch(handle,
                  make_args<_Float16>(in, input, *rois_desc, rois, offset, out, output,
                                      spatial_scale, sampling_ratio, gamma),
                  pipeline);
  return launch(handle,
                make_args<float>(in, input, *rois_desc, rois, offset, out, output, spatial_scale,
                                 sampling_ratio, gamma),
                pipeline);
}

}  // namespace mluop::deform_roi_pool_forward

mluOpStatus_t mluOpDeformRoiPoolForward(const mluOpHandle_t handle,
                                        const mluOpTensorDescriptor_t input_desc,
                                        const void *input,
                                        const mluOpTensorDescriptor_t rois_desc, const void *rois,
                                        const mluOpTensorDescriptor_t offset_desc,
                                        const void *offset, const int pooled_height,
                                        const int pooled_width, const float spatial_scale,
                                        const int sampling_ratio, const float gamma,
                                        const mluOpTensorDescriptor_t output_desc, void *output) {
  namespace op = mluop::deform_roi_pool_forward;
  return op::run(handle, input_desc, input, rois_desc, rois, offset_desc, offset, pooled_height,
                 pooled_width, spatial_scale, sampling_ratio, gamma, output_desc, output,
                 op::Pipeline::kPingPong);
}
