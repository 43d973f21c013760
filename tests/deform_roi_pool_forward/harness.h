// deform_roi_pool_forward problems for tests, benchmarks and the demo: host
// data (float, rounded through half for half problems), realistic roi boxes,
// the problem's tensors on the device, and the CPU reference on the same data.
#pragma once

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include <spdlog/fmt/fmt.h>

#include "ops/deform_roi_pool_forward/deform_roi_pool_forward.h"
#include "ops/deform_roi_pool_forward/deform_roi_pool_forward_reference.h"
#include "harness/harness.h"

namespace drp_testing {

using mluop::DeformRoiPoolPipeline;
using mlusim::harness::DeviceBuffer;
using mlusim::harness::Handle;
using mlusim::harness::Random;
using mlusim::harness::TensorDesc;

struct Problem {
  mluOpDataType_t dtype = MLUOP_DTYPE_FLOAT;
  int batches = 1, height = 1, width = 1, channels = 1;
  int num_rois = 1, pooled_height = 7, pooled_width = 7;
  float spatial_scale = 1.0f;
  int sampling_ratio = 0;
  float gamma = 0.1f;
  bool with_offset = true;
  std::vector<float> input, rois, offset;  // exactly the values the device sees

  size_t input_count() const { return size_t(batches) * height * width * channels; }
  size_t output_count() const { return size_t(num_rois) * pooled_height * pooled_width * channels; }
  size_t offset_count() const { return size_t(num_rois) * 2 * pooled_height * pooled_width; }
  std::string name() const {
    return fmt::format("in[{},{},{},{}] rois {} {}x{} scale {} sr {} gamma {}{}", batches, height,
                       width, channels, num_rois, pooled_height, pooled_width, spatial_scale,
                       sampling_ratio, gamma, with_offset ? " offset" : "");
  }
};

inline void round_for_dtype(Problem &p) {
  if (p.dtype != MLUOP_DTYPE_HALF) return;
  for (auto *v : {&p.input, &p.rois, &p.offset})
    for (float &x : *v) x = mlusim::harness::round_to_half(x);
}

// Boxes in image coordinates (the map scaled by 1 / spatial_scale): square
// root of the area uniform in [min_side, max_side), aspect ratio in [1/2, 2],
// centres anywhere in the image widened by `margin` on each side (a margin lets
// boxes stick out of the map or lie wholly outside it). `clip` cuts boxes to
// the image, as a detector does with its proposals.
inline std::vector<float> random_rois(Random &rng, const Problem &p, float min_side,
                                      float max_side, float margin, bool clip = false) {
  const float img_h = p.height / p.spatial_scale, img_w = p.width / p.spatial_scale;
  std::vector<float> rois;
  for (int r = 0; r < p.num_rois; ++r) {
    const float side = rng.uniform(min_side, max_side);
    const float aspect = std::exp2(rng.uniform(-1.0f, 1.0f));
    const float h = side * std::sqrt(aspect), w = side / std::sqrt(aspect);
    const float cy = rng.uniform(-margin, img_h + margin), cx = rng.uniform(-margin, img_w + margin);
    auto x = [&](float v) { return clip ? std::clamp(v, 0.0f, img_w) : v; };
    auto y = [&](float v) { return clip ? std::clamp(v, 0.0f, img_h) : v; };
    rois.insert(rois.end(), {static_cast<float>(rng.integer(0, p.batches - 1)), x(cx - w / 2),
                             y(cy - h / 2), x(cx + w / 2), y(cy + h / 2)});
  }
  return rois;
}

// Input uniform in [lo, hi), offsets uniform in [-0.5, 0.5) (DeformRoIPool's
// normalised offsets: gamma * roi size * offset moves a bin by a fraction of the roi).
inline void fill_random(Problem &p, Random &rng, float lo, float hi, float min_side,
                        float max_side, float margin) {
  p.input = rng.floats(p.input_count(), lo, hi);
  p.rois = random_rois(rng, p, min_side, max_side, margin);
  p.offset = p.with_offset ? rng.floats(p.offset_count(), -0.5f, 0.5f) : std::vector<float>{};
  round_for_dtype(p);
}

inline std::vector<double> reference(const Problem &p) {
  const mluop::reference::DeformRoiPoolShape shape{p.batches,  p.height,        p.width,
                                                   p.channels, p.num_rois,      p.pooled_height,
                                                   p.pooled_width};
  return mluop::reference::deform_roi_pool_forward(shape, p.input, p.rois,
                                                   p.with_offset ? &p.offset : nullptr,
                                                   p.spatial_scale, p.sampling_ratio, p.gamma);
}

// A problem's descriptors and device tensors, ready to be called repeatedly.
template <typename T>
class OnDevice {
 public:
  explicit OnDevice(const Problem &p)
      : p_(p),
        input_desc_(MLUOP_LAYOUT_NHWC, p.dtype, {p.batches, p.height, p.width, p.channels}),
        rois_desc_(MLUOP_LAYOUT_ARRAY, p.dtype, {p.num_rois, 5}),
        offset_desc_(MLUOP_LAYOUT_ARRAY, p.dtype, {p.num_rois, 2, p.pooled_height, p.pooled_width}),
        output_desc_(MLUOP_LAYOUT_NHWC, p.dtype,
                     {p.num_rois, p.pooled_height, p.pooled_width, p.channels}),
        input_(convert(p.input)),
        rois_(convert(p.rois)),
        offset_(convert(p.offset)),
        output_(p.output_count()) {}

  mluOpStatus_t call(const Handle &handle, DeformRoiPoolPipeline pipeline) {
    return mluop::deform_roi_pool_forward(
        handle, input_desc_, input_.get(), rois_desc_, rois_.get(),
        p_.with_offset ? static_cast<mluOpTensorDescriptor_t>(offset_desc_) : nullptr,
        p_.with_offset ? offset_.get() : nullptr, p_.pooled_height, p_.pooled_width,
        p_.spatial_scale, p_.sampling_ratio, p_.gamma, output_desc_, output_.get(), pipeline);
  }
  std::vector<double> output() const {
    auto v = output_.download();
    return std::vector<double>(v.begin(), v.end());
  }

 private:
  static std::vector<T> convert(const std::vector<float> &v) { return {v.begin(), v.end()}; }

  const Problem &p_;
  TensorDesc input_desc_, rois_desc_, offset_desc_, output_desc_;
  DeviceBuffer<T> input_, rois_, offset_, output_;
};

struct Run {
  mluOpStatus_t status;
  std::vector<double> output;
  mlusimReport_t report;
};

inline Run run(const Problem &p, DeformRoiPoolPipeline pipeline = DeformRoiPoolPipeline::kPingPong) {
  Handle handle;
  auto once = [&](auto device) {
    Run r{device->call(handle, pipeline), {}, {}};
    if (r.status == MLUOP_STATUS_SUCCESS) {
      r.output = device->output();
      r.report = handle.last_op_report();
    }
    return r;
  };
  if (p.dtype == MLUOP_DTYPE_HALF) return once(std::make_unique<OnDevice<_Float16>>(p));
  return once(std::make_unique<OnDevice<float>>(p));
}

// The accuracy bound of the issue: diff1 and diff2 within 1e-5 (float) or 3e-3 (half).
inline double threshold(mluOpDataType_t dtype) { return dtype == MLUOP_DTYPE_HALF ? 3e-3 : 1e-5; }

}  // namespace drp_testing
