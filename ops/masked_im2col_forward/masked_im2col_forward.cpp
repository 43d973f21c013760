// mluOpGetMaskedIm2colForwardWorkspaceSize and mluOpMaskedIm2colForward:
// parameter checks (design doc 1.1, 1.4, 3.7; mlu-ops' order), the workspace
// layout, and the four device steps of the doc's section 3.1.
#include <algorithm>
#include <climits>

#include "ops/common/fill_kernel.h"
#include "ops/common/host.h"
#include "ops/common/permute_kernel.h"
#include "ops/masked_im2col_forward/masked_im2col_forward_kernel.h"

namespace mluop::masked_im2col_forward {
namespace {

template <typename T>
cnrtRet_t launch_copy_windows(mluOpHandle_t handle, const Call &call, const void *feature_hwc,
                              void *data_col_hwc) {
  // Union1; as many clusters as the masks keep busy (doc 3.3, mlu-ops' policy).
  const int cpc = cores_per_cluster();
  const int clusters = std::min(cluster_count(), (call.shape.mask_cnt + cpc - 1) / cpc);
  const cnrtDim3_t dim{static_cast<unsigned>(cpc), static_cast<unsigned>(clusters), 1};
  mlusim::log::op().debug("masked_im2col_forward step 3: dim ({}, {}, 1), {} masks", dim.x, dim.y,
                          call.shape.mask_cnt);
  return launch_kernel<T>(dim, handle->queue, static_cast<const T *>(feature_hwc),
                          call.mask_h_idx, call.mask_w_idx, static_cast<T *>(data_col_hwc),
                          call.shape);
}

// The checks both entry points make, in mlu-ops' order; the zero-element rules
// of doc 1.1 last (mask_cnt == 0 is left to the caller: it is a success).
mluOpStatus_t check_shapes(const char *api, mluOpHandle_t handle,
                           const mluOpTensorDescriptor_t feature_desc,
                           const mluOpTensorDescriptor_t mask_h_idx_desc,
                           const mluOpTensorDescriptor_t mask_w_idx_desc, int kernel_h,
                           int kernel_w, const mluOpTensorDescriptor_t data_col_desc) {
  MLUOP_CHECK(api, handle != nullptr, "handle is NULL");
  MLUOP_CHECK(api, feature_desc != nullptr, "feature_desc is NULL");
  MLUOP_CHECK(api, mask_h_idx_desc != nullptr, "mask_h_idx_desc is NULL");
  MLUOP_CHECK(api, mask_w_idx_desc != nullptr, "mask_w_idx_desc is NULL");
  MLUOP_CHECK(api, data_col_desc != nullptr, "data_col_desc is NULL");
  const mluOpTensorStruct &feature = *feature_desc, &mask_h = *mask_h_idx_desc,
                          &mask_w = *mask_w_idx_desc, &data_col = *data_col_desc;
  MLUOP_CHECK(api, feature.layout == MLUOP_LAYOUT_NCHW, "feature layout is {}, must be NCHW",
              layout_name(feature.layout));
  MLUOP_CHECK(api, feature.rank() == 4, "feature is {}, must have 4 dims", shape_string(feature));
  MLUOP_CHECK(api, feature.dtype == MLUOP_DTYPE_HALF || feature.dtype == MLUOP_DTYPE_FLOAT,
              "feature dtype is {}, must be half or float", dtype_name(feature.dtype));
  MLUOP_CHECK(api, data_col.dtype == feature.dtype, "data_col dtype is {}, feature's is {}",
              dtype_name(data_col.dtype), dtype_name(feature.dtype));
  MLUOP_CHECK(api, mask_h.dtype == MLUOP_DTYPE_INT32, "mask_h_idx dtype is {}, must be int32",
              dtype_name(mask_h.dtype));
  MLUOP_CHECK(api, mask_w.dtype == MLUOP_DTYPE_INT32, "mask_w_idx dtype is {}, must be int32",
              dtype_name(mask_w.dtype));
  MLUOP_CHECK(api, feature.dim(0) == 1, "feature is {}, batch must be 1", shape_string(feature));
  MLUOP_CHECK(api, mask_h.rank() == 1, "mask_h_idx is {}, must have 1 dim", shape_string(mask_h));
  MLUOP_CHECK(api, mask_w.rank() == 1, "mask_w_idx is {}, must have 1 dim", shape_string(mask_w));
  MLUOP_CHECK(api, mask_h.dim(0) == mask_w.dim(0), "mask_h_idx has {} masks, mask_w_idx {}",
              mask_h.dim(0), mask_w.dim(0));
  MLUOP_CHECK(api, kernel_h > 0, "kernel_h = {} must be positive", kernel_h);
  MLUOP_CHECK(api, kernel_w > 0, "kernel_w = {} must be positive", kernel_w);
  MLUOP_CHECK(api, data_col.rank() == 2, "data_col is {}, must have 2 dims",
              shape_string(data_col));
  const int64_t window = int64_t{kernel_h} * kernel_w;
  MLUOP_CHECK(api, data_col.dim(0) % window == 0 && data_col.dim(0) / window == feature.dim(1),
              "data_col is {}, dim 0 must be C {} * kernel_h {} * kernel_w {}",
              shape_string(data_col), feature.dim(1), kernel_h, kernel_w);
  MLUOP_CHECK(api, data_col.dim(1) == mask_h.dim(0), "data_col is {}, dim 1 must be mask_cnt {}",
              shape_string(data_col), mask_h.dim(0));
  for (const mluOpTensorStruct *t : {&feature, &mask_h, &data_col})
    MLUOP_CHECK_STATUS(api, !mluop::is_large_tensor(*t),
                       MLUOP_STATUS_NOT_SUPPORTED, "{} has 2^31 elements or more",
                       shape_string(*t));
  // The kernels' __memcpy sizes and strides are 32-bit byte counts.
  for (const mluOpTensorStruct *t : {&feature, &data_col})
    MLUOP_CHECK_STATUS(api, byte_count(*t) <= static_cast<size_t>(INT_MAX),
                       MLUOP_STATUS_NOT_SUPPORTED,
                       "{} has {} bytes, more than __memcpy's 32-bit strides reach",
                       shape_string(*t), byte_count(*t));
  MLUOP_CHECK(api, element_count(feature) > 0, "feature {} has zero elements",
              shape_string(feature));
  MLUOP_CHECK(api, data_col.dim(0) > 0, "data_col {} has zero rows", shape_string(data_col));
  return MLUOP_STATUS_SUCCESS;
}

// The shapes of a call whose descriptors check_shapes accepted.
Params shape_of(const mluOpTensorStruct &feature, const mluOpTensorStruct &mask_h_idx, int kernel_h,
                int kernel_w, int pad_h, int pad_w) {
  return Params{.height = feature.dim(2),
                .width = feature.dim(3),
                .channels = feature.dim(1),
                .kernel_h = kernel_h,
                .kernel_w = kernel_w,
                .pad_h = pad_h,
                .pad_w = pad_w,
                .mask_cnt = mask_h_idx.dim(0)};
}

mluOpStatus_t get_workspace_size(mluOpHandle_t handle, const mluOpTensorDescriptor_t feature_desc,
                                 const mluOpTensorDescriptor_t mask_h_idx_desc,
                                 const mluOpTensorDescriptor_t mask_w_idx_desc, int kernel_h,
                                 int kernel_w, const mluOpTensorDescriptor_t data_col_desc,
                                 size_t *size) {
  const char *api = "mluOpGetMaskedIm2colForwardWorkspaceSize";
  mluOpStatus_t status = check_shapes(api, handle, feature_desc, mask_h_idx_desc, mask_w_idx_desc,
                                      kernel_h, kernel_w, data_col_desc);
  if (status != MLUOP_STATUS_SUCCESS) return status;
  MLUOP_CHECK(api, size != nullptr, "workspace_size is NULL");
  // Pads do not change the size (the query has none).
  const Params shape = shape_of(*feature_desc, *mask_h_idx_desc, kernel_h, kernel_w, 0, 0);
  // No masks: the forward call launches nothing and needs no workspace.
  *size = shape.mask_cnt == 0 ? 0 : workspace_size(feature_desc->dtype, shape);
  return MLUOP_STATUS_SUCCESS;
}

mluOpStatus_t run(mluOpHandle_t handle, const mluOpTensorDescriptor_t feature_desc,
                  const void *feature, const mluOpTensorDescriptor_t mask_h_idx_desc,
                  const void *mask_h_idx, const mluOpTensorDescriptor_t mask_w_idx_desc,
                  const void *mask_w_idx, int kernel_h, int kernel_w, int pad_h, int pad_w,
                  void *workspace, size_t given_workspace_size,
                  const mluOpTensorDescriptor_t data_col_desc, void *data_col) {
  const char *api = "mluOpMaskedIm2colForward";
  mluOpStatus_t status = check_shapes(api, handle, feature_desc, mask_h_idx_desc, mask_w_idx_desc,
                                      kernel_h, kernel_w, data_col_desc);
  if (status != MLUOP_STATUS_SUCCESS) return status;
  const mluOpTensorStruct &feature_t = *feature_desc;
  const Call call{.dtype = feature_t.dtype,
                  .shape = shape_of(feature_t, *mask_h_idx_desc, kernel_h, kernel_w, pad_h, pad_w),
                  .feature = feature,
                  .mask_h_idx = static_cast<const int32_t *>(mask_h_idx),
                  .mask_w_idx = static_cast<const int32_t *>(mask_w_idx),
                  .workspace = workspace,
                  .data_col = data_col};
  if (call.shape.mask_cnt == 0) {
    mlusim::log::op().debug("{}: mask_cnt is 0, nothing to do", api);
    return MLUOP_STATUS_SUCCESS;
  }

  const size_t needed = workspace_size(call.dtype, call.shape);
  MLUOP_CHECK(api, given_workspace_size >= needed,
              "workspace_size = {} is less than the {} bytes the query asks for",
              given_workspace_size, needed);
  // The workspace is written (steps 1 and 2): an output as data_col is.
  status = check_device_tensors(api,
                                {{"feature", feature, feature_desc},
                                 {"mask_h_idx", mask_h_idx, mask_h_idx_desc},
                                 {"mask_w_idx", mask_w_idx, mask_w_idx_desc}},
                                {{"workspace", workspace, needed},
                                 {"data_col", data_col, data_col_desc}});
  if (status != MLUOP_STATUS_SUCCESS) return status;
  mlusim::log::op().debug("{}: feature {}, {} masks, kernel {}x{}, pad ({}, {}), data_col {}", api,
                          shape_string(feature_t), call.shape.mask_cnt, kernel_h, kernel_w, pad_h,
                          pad_w, shape_string(*data_col_desc));

  // mlu-ops' theory IO: every input and output once (feature, both index
  // arrays, data_col); no theory ops (a pure IO operator).
  const double theory_io =
      theory_io_bytes({&feature_t, mask_h_idx_desc, mask_w_idx_desc, data_col_desc});
  mlusim::OpScope scope(handle->queue, "masked_im2col_forward", theory_io, 0, feature_t.dtype);
  return run_steps(handle, api, call);
}

}  // namespace

size_t workspace_size(mluOpDataType_t dtype, const Params &s) {
  const size_t feature_elems = size_t(s.channels) * s.height * s.width;
  const size_t staging_elems = size_t(s.mask_cnt) * s.kernel_h * s.kernel_w * s.channels;
  return (feature_elems + staging_elems) * dtype_size(dtype);
}

mluOpStatus_t run_steps(mluOpHandle_t handle, const char *api, const Call &call,
                        const std::function<void(int step)> &after_step) {
  const Params &s = call.shape;
  const size_t elem_bytes = dtype_size(call.dtype);
  const int window = s.kernel_h * s.kernel_w;
  void *feature_hwc = call.workspace;
  void *data_col_hwc =
      static_cast<char *>(call.workspace) + size_t(s.channels) * s.height * s.width * elem_bytes;
  auto done = [&](int step, mluOpStatus_t status) {
    if (status == MLUOP_STATUS_SUCCESS && after_step) after_step(step);
    return status;
  };

  // Step 1: feature [1, C, H, W] -> [1, H, W, C].
  mluOpStatus_t status =
      done(1, launch_permute(handle, api, call.feature, feature_hwc,
                             {1, s.channels, s.height, s.width}, {0, 2, 3, 1}, elem_bytes));
  if (status != MLUOP_STATUS_SUCCESS) return status;

  // Step 2: the staging area to zero (what no window copy covers stays zero).
  status = done(2, launch_fill(handle, api, call.dtype, 0.0, data_col_hwc,
                               size_t(s.mask_cnt) * window * s.channels));
  if (status != MLUOP_STATUS_SUCCESS) return status;

  // Step 3: each mask's valid window into its [kh*kw, C] block.
  MLUOP_KERNEL_CHECK(api, call.dtype == MLUOP_DTYPE_HALF
                              ? launch_copy_windows<_Float16>(handle, call, feature_hwc, data_col_hwc)
                              : launch_copy_windows<float>(handle, call, feature_hwc, data_col_hwc));
  done(3, MLUOP_STATUS_SUCCESS);

  // Step 4: [mask_cnt, kh*kw, C] -> [C, kh*kw, mask_cnt]: row (c*kh + i)*kw + j
  // of data_col holds window position (i, j) of channel c, as in mmcv.
  return done(4, launch_permute(handle, api, data_col_hwc, call.data_col,
                                {s.mask_cnt, window, s.channels}, {2, 1, 0}, elem_bytes));
}

}  // namespace mluop::masked_im2col_forward

mluOpStatus_t mluOpGetMaskedIm2colForwardWorkspaceSize(
    mluOpHandle_t handle, const mluOpTensorDescriptor_t feature_desc,
    const mluOpTensorDescriptor_t mask_h_idx_desc, const mluOpTensorDescriptor_t mask_w_idx_desc,
    const int kernel_h, const int kernel_w, const mluOpTensorDescriptor_t data_col_desc,
    size_t *workspace_size) {
  return mluop::masked_im2col_forward::get_workspace_size(handle, feature_desc, mask_h_idx_desc,
                                                          mask_w_idx_desc, kernel_h, kernel_w,
                                                          data_col_desc, workspace_size);
}

mluOpStatus_t mluOpMaskedIm2colForward(
    mluOpHandle_t handle, const mluOpTensorDescriptor_t feature_desc, const void *feature,
    const mluOpTensorDescriptor_t mask_h_idx_desc, const void *mask_h_idx,
    const mluOpTensorDescriptor_t mask_w_idx_desc, const void *mask_w_idx, const int kernel_h,
    const int kernel_w, const int pad_h, const int pad_w, void *workspace,
    const size_t workspace_size, const mluOpTensorDescriptor_t data_col_desc, void *data_col) {
  return mluop::masked_im2col_forward::run(handle, feature_desc, feature, mask_h_idx_desc,
                                           mask_h_idx, mask_w_idx_desc, mask_w_idx, kernel_h,
                                           kernel_w, pad_h, pad_w, workspace, workspace_size,
                                           data_col_desc, data_col);
}
