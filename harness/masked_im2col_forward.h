// A masked_im2col_forward case on the device for tests, benchmarks and the
// demo: descriptors, device tensors and the workspace the query asks for,
// callable repeatedly through mlu_op.h. The workspace starts as stale 0xFF
// bytes (NaN in half and float), so the operator must zero what it relies on;
// data_col sits between guard bands.
#pragma once

#include <vector>

#include "harness/harness.h"
#include "ops/masked_im2col_forward/masked_im2col_forward_cases.h"
#include "ops/masked_im2col_forward/masked_im2col_forward_kernel.h"

namespace mluop::masked_im2col_forward::harness {

template <typename T>
class DeviceProblem {
 public:
  // Queries the workspace size on `handle` (the status is workspace_query()).
  DeviceProblem(mluOpHandle_t handle, const cases::Problem &p)
      : kernel_h_(p.kernel_h),
        kernel_w_(p.kernel_w),
        pad_h_(p.pad_h),
        pad_w_(p.pad_w),
        feature_desc_(MLUOP_LAYOUT_NCHW, dtype(), {1, p.channels, p.height, p.width}),
        mask_desc_(MLUOP_LAYOUT_ARRAY, MLUOP_DTYPE_INT32, {p.mask_cnt()}),
        data_col_desc_(MLUOP_LAYOUT_ARRAY, dtype(), {p.rows(), p.mask_cnt()}),
        feature_(p.feature_as<T>()),
        h_idx_(p.h_idx),
        w_idx_(p.w_idx),
        data_col_(size_t(p.rows()) * p.mask_cnt()),
        workspace_query_(mluOpGetMaskedIm2colForwardWorkspaceSize(
            handle, feature_desc_, mask_desc_, mask_desc_, p.kernel_h, p.kernel_w, data_col_desc_,
            &workspace_size_)),
        workspace_(workspace_size_) {
    mlusim::harness::check_cnrt(cnrtMemset(workspace_.get(), 0xFF, workspace_size_),
                                "cnrtMemset");
    const Params shape{p.height, p.width, p.channels, p.kernel_h, p.kernel_w,
                       p.pad_h,  p.pad_w, p.mask_cnt()};
    call_ = Call{.dtype = dtype(),
                 .shape = shape,
                 .feature = feature_.get(),
                 .mask_h_idx = h_idx_.get(),
                 .mask_w_idx = w_idx_.get(),
                 .workspace = workspace_.get(),
                 .data_col = data_col_.get()};
  }

  // The public call on this case.
  mluOpStatus_t run(mluOpHandle_t handle) {
    return mluOpMaskedIm2colForward(handle, feature_desc_, feature_.get(), mask_desc_,
                                    h_idx_.get(), mask_desc_, w_idx_.get(), kernel_h_, kernel_w_,
                                    pad_h_, pad_w_, workspace_.get(), workspace_size_,
                                    data_col_desc_, data_col_.get());
  }
  // The same call's four steps one by one (run_steps), for the benchmark.
  const Call &call() const { return call_; }

  mluOpStatus_t workspace_query() const { return workspace_query_; }
  size_t workspace_size() const { return workspace_size_; }
  std::vector<T> data_col() const { return data_col_.download(); }
  bool data_col_guards_intact() const { return data_col_.guards_intact(); }
  std::vector<T> feature() const { return feature_.download(); }

 private:
  static constexpr mluOpDataType_t dtype() { return mlusim::harness::dtype_of<T>(); }

  int kernel_h_, kernel_w_, pad_h_, pad_w_;
  mlusim::harness::TensorDesc feature_desc_, mask_desc_, data_col_desc_;
  mlusim::harness::DeviceBuffer<T> feature_;
  mlusim::harness::DeviceBuffer<int32_t> h_idx_, w_idx_;
  mlusim::harness::GuardedBuffer<T> data_col_;
  size_t workspace_size_ = 0;
  mluOpStatus_t workspace_query_;
  mlusim::harness::DeviceBuffer<char> workspace_;
  Call call_{};
};

}  // namespace mluop::masked_im2col_forward::harness
