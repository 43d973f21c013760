// The design doc's network cases (3.7), NHWC, with realistic roi boxes: an
// 800x1216 image, FPN levels at strides 4..32, each roi on the level that
// mmdet's RoI extractor (finest_scale 56) gives its size.
#pragma once

#include "tests/deform_roi_pool_forward/harness.h"

namespace drp_testing {

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

}  // namespace drp_testing
