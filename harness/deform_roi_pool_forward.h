// A deform_roi_pool_forward case on the device for tests, benchmarks and the
// demo: its descriptors and device tensors, callable repeatedly with either
// pipeline (the public entry point's, ping-pong, or the serial variant).
#pragma once

#include <memory>
#include <vector>

#include "harness/harness.h"
#include "ops/deform_roi_pool_forward/deform_roi_pool_forward_cases.h"
#include "ops/deform_roi_pool_forward/deform_roi_pool_forward_kernel.h"

namespace mluop::deform_roi_pool_forward::harness {

// T: float or _Float16, as the problem's dtype says.
template <typename T>
class DeviceProblem {
 public:
  explicit DeviceProblem(const cases::Problem &p)
      : with_offset_(p.with_offset),
        pooled_height_(p.pooled_height),
        pooled_width_(p.pooled_width),
        sampling_ratio_(p.sampling_ratio),
        spatial_scale_(p.spatial_scale),
        gamma_(p.gamma),
        input_desc_(MLUOP_LAYOUT_NHWC, p.dtype, {p.batches, p.height, p.width, p.channels}),
        rois_desc_(MLUOP_LAYOUT_ARRAY, p.dtype, {p.num_rois, 5}),
        offset_desc_(MLUOP_LAYOUT_ARRAY, p.dtype, {p.num_rois, 2, p.pooled_height, p.pooled_width}),
        output_desc_(MLUOP_LAYOUT_NHWC, p.dtype,
                     {p.num_rois, p.pooled_height, p.pooled_width, p.channels}),
        input_(convert(p.input)),
        rois_(convert(p.rois)),
        offset_(convert(p.offset)),
        output_(p.output_count()) {}

  mluOpStatus_t run(mluOpHandle_t handle, Pipeline pipeline = Pipeline::kPingPong) {
    return deform_roi_pool_forward::run(
        handle, input_desc_, input_.get(), rois_desc_, rois_.get(),
        with_offset_ ? static_cast<mluOpTensorDescriptor_t>(offset_desc_) : nullptr,
        with_offset_ ? offset_.get() : nullptr, pooled_height_, pooled_width_, spatial_scale_,
        sampling_ratio_, gamma_, output_desc_, output_.get(), pipeline);
  }
  std::vector<double> output() const { return mlusim::harness::to_double(output_.download()); }

 private:
  static std::vector<T> convert(const std::vector<float> &v) { return {v.begin(), v.end()}; }

  bool with_offset_;
  int pooled_height_, pooled_width_, sampling_ratio_;
  float spatial_scale_, gamma_;
  mlusim::harness::TensorDesc input_desc_, rois_desc_, offset_desc_, output_desc_;
  mlusim::harness::DeviceBuffer<T> input_, rois_, offset_, output_;
};

// One call on a handle of its own: the status, and on success the output and the op report.
struct Run {
  mluOpStatus_t status;
  std::vector<double> output;
  mlusimReport_t report;
};

inline Run run(const cases::Problem &p, Pipeline pipeline = Pipeline::kPingPong) {
  mlusim::harness::Handle handle;
  auto once = [&](auto device) {
    Run r{device->run(handle, pipeline), {}, {}};
    if (r.status == MLUOP_STATUS_SUCCESS) {
      r.output = device->output();
      r.report = handle.last_op_report();
    }
    return r;
  };
  if (p.dtype == MLUOP_DTYPE_HALF) return once(std::make_unique<DeviceProblem<_Float16>>(p));
  return once(std::make_unique<DeviceProblem<float>>(p));
}

}  // namespace mluop::deform_roi_pool_forward::harness
