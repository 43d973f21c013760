// deform_roi_pool_forward's cases for tests, benchmarks and the demo: random
// problems with realistic roi boxes and the design doc's network cases (3.7),
// as host data (float, rounded through half for half problems) with the CPU
// reference's answer.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "mlu_op.h"
#include "ops/common/cases.h"
#include "ops/deform_roi_pool_forward/deform_roi_pool_forward_reference.h"

namespace mluop::deform_roi_pool_forward::cases {

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
    std::ostringstream os;
    os << "in[" << batches << "," << height << "," << width << "," << channels << "] rois "
       << num_rois << " " << pooled_height << "x" << pooled_width << " scale " << spatial_scale
       << " sr " << sampling_ratio << " gamma " << gamma << (with_offset ? " offset" : "");
    return os.str();
  }
  std::vector<double> expected() const {
    const reference::Shape shape{batches,  height,        width,       channels,
                                 num_rois, pooled_height, pooled_width};
    return reference::deform_roi_pool_forward(shape, input, rois, with_offset ? &offset : nullptr,
                                              spatial_scale, sampling_ratio, gamma);
  }
};

// Half problems hold what a half tensor stores.
inline void round_for_dtype(Problem &p) {
  if (p.dtype != MLUOP_DTYPE_HALF) return;
  for (auto *v : {&p.input, &p.rois, &p.offset})
    for (float &x : *v) x = round_to_half(x);
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

// A random problem's shapes, parameters and roi box sizes (see random_rois).
struct RandomShape {
  int batches, height, width, channels, num_rois, pooled_height, pooled_width;
  float spatial_scale;
  int sampling_ratio;
  float gamma;
  bool with_offset;
  float min_side, max_side, margin;
};

// Input uniform in [-1, 1), offsets uniform in [-0.5, 0.5) (DeformRoIPool's
// normalised offsets: gamma * roi size * offset moves a bin by a fraction of the roi).
inline Problem random_problem(mluOpDataType_t dtype, const RandomShape &s, uint32_t seed) {
  Problem p;
  p.dtype = dtype;
  p.batches = s.batches, p.height = s.height, p.width = s.width, p.channels = s.channels;
  p.num_rois = s.num_rois, p.pooled_height = s.pooled_height, p.pooled_width = s.pooled_width;
  p.spatial_scale = s.spatial_scale, p.sampling_ratio = s.sampling_ratio, p.gamma = s.gamma;
  p.with_offset = s.with_offset;
  Random rng(seed);
  p.input = rng.floats(p.input_count(), -1.0f, 1.0f);
  p.rois = random_rois(rng, p, s.min_side, s.max_side, s.margin);
  p.offset = p.with_offset ? rng.floats(p.offset_count(), -0.5f, 0.5f) : std::vector<float>{};
  round_for_dtype(p);
  return p;
}

// The design doc's network cases, NHWC, with realistic roi boxes: an 800x1216
// image, FPN levels at strides 4..32, each roi on the level that mmdet's RoI
// extractor (finest_scale 56) gives its size.
struct NetworkCase {
  const char *name;
  int batches, height, width, channels, num_rois;
  float spatial_scale;
  float min_side, max_side;  // sqrt(box area) in image pixels: the level's range
};

inline constexpr NetworkCase kNetworkCases[] = {
    {"[2,200,304,256] 998 rois 1/4", 2, 200, 304, 256, 998, 0.25f, 16, 112},
    {"[2,100,152,256] 13 rois 1/8", 2, 100, 152, 256, 13, 0.125f, 112, 224},
    {"[2,50,76,256] 11 rois 1/16", 2, 50, 76, 256, 11, 0.0625f, 224, 448},
    {"[2,25,38,256] 2 rois 1/32", 2, 25, 38, 256, 2, 0.03125f, 448, 900},
};

// DeformRoIPoolPack as mmdet uses it: 7x7, adaptive sampling, gamma 0.1, with
// offsets (uniform in [-0.5, 0.5), from its fc layer). Boxes are clipped to the image.
inline Problem network_problem(const NetworkCase &c, mluOpDataType_t dtype, uint32_t seed = 2022) {
  Problem p;
  p.dtype = dtype;
  p.batches = c.batches, p.height = c.height, p.width = c.width, p.channels = c.channels;
  p.num_rois = c.num_rois, p.pooled_height = 7, p.pooled_width = 7;
  p.spatial_scale = c.spatial_scale, p.sampling_ratio = 0, p.gamma = 0.1f, p.with_offset = true;
  Random rng(seed);
  p.input = rng.floats(p.input_count(), -1.0f, 1.0f);
  p.rois = random_rois(rng, p, c.min_side, c.max_side, 0, true);
  p.offset = rng.floats(p.offset_count(), -0.5f, 0.5f);
  round_for_dtype(p);
  return p;
}

// mlu-ops v1.5.2's in-tree gtest case (zoo/deform_roi_pool_forward/case0):
// input [2, 256, 200, 304] NHWC float uniform in [0, 10), its one roi
// (0, 0, 0, 2, 2), offsets uniform in [-1, 1), 7 x 7, sampling_ratio 2,
// spatial_scale 1, gamma 1. The input and offset values are ours.
inline Problem mluops_problem(uint32_t seed) {
  Problem p;
  p.batches = 2, p.height = 256, p.width = 200, p.channels = 304;
  p.num_rois = 1, p.pooled_height = 7, p.pooled_width = 7;
  p.spatial_scale = 1, p.sampling_ratio = 2, p.gamma = 1, p.with_offset = true;
  Random rng(seed);
  p.input = rng.floats(p.input_count(), 0.0f, 10.0f);
  p.rois = {0, 0, 0, 2, 2};
  p.offset = rng.floats(p.offset_count(), -1.0f, 1.0f);
  return p;
}

// The accuracy bar: diff1 and diff2 within 1e-5 (float) or 3e-3 (half).
inline double threshold(mluOpDataType_t dtype) { return dtype == MLUOP_DTYPE_HALF ? 3e-3 : 1e-5; }

}  // namespace mluop::deform_roi_pool_forward::cases
