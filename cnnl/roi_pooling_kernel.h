// RoiPooling's kernels (max mode) as the host launches them, and the bin
// geometry both sides share. Feature maps are NHWC; a roi is (batch index,
// x1, y1, x2, y2) in image coordinates. Work items are the output bins
// (roi, ph, pw) times channel blocks of `cb` channels, `cp` apart in NRAM.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "cnrt.h"

namespace cnnlsim::roi_pooling {

constexpr int kPitchAlign = 64;

struct Plan {
  int64_t batch, height, width, channels;
  int64_t rois, pooled_height, pooled_width;
  int64_t cb, cp;      // channels per block and their NRAM pitch
  int64_t row_pixels;  // pixels of one bin row one NRAM load holds (forward)
  bool half;           // feature map, rois, output / grads are half (else float)
  float spatial_scale;
  int nram_bytes;
  cnrtDim3_t dim;  // a UNION1 launch

  int64_t bins() const { return rois * pooled_height * pooled_width; }
  int64_t channel_blocks() const { return (channels + cb - 1) / cb; }
};

struct ForwardArgs {
  Plan plan;
  const void *input, *rois;
  void *output;
  int32_t *argmax;
};

// grads_image is zeroed by the host first.
struct BackwardArgs {
  Plan plan;
  const void *grads, *rois;
  const int32_t *argmax;
  void *grads_image;
};

cnrtRet_t launch_forward(cnrtQueue_t queue, const ForwardArgs &args);
cnrtRet_t launch_backward(cnrtQueue_t queue, const BackwardArgs &args);

// The pixels [y1, y2) x [x1, x2) of bin (ph, pw): the roi's corners rounded
// to pixels after scaling, its size at least one pixel, split evenly into
// bins with floor / ceil, clipped to the map.
struct Bin {
  int64_t y1, y2, x1, x2;
  bool empty() const { return y2 <= y1 || x2 <= x1; }
};
inline Bin bin_of(const float roi[5], const Plan &p, int64_t ph, int64_t pw) {
  const int64_t roi_x1 = static_cast<int64_t>(std::round(roi[1] * p.spatial_scale));
  const int64_t roi_y1 = static_cast<int64_t>(std::round(roi[2] * p.spatial_scale));
  const int64_t roi_x2 = static_cast<int64_t>(std::round(roi[3] * p.spatial_scale));
  const int64_t roi_y2 = static_cast<int64_t>(std::round(roi[4] * p.spatial_scale));
  const float bin_w = static_cast<float>(std::max<int64_t>(roi_x2 - roi_x1 + 1, 1)) / p.pooled_width;
  const float bin_h = static_cast<float>(std::max<int64_t>(roi_y2 - roi_y1 + 1, 1)) / p.pooled_height;
  auto clip = [](int64_t v, int64_t hi) { return std::min(std::max<int64_t>(v, 0), hi); };
  return Bin{clip(static_cast<int64_t>(std::floor(ph * bin_h)) + roi_y1, p.height),
             clip(static_cast<int64_t>(std::ceil((ph + 1) * bin_h)) + roi_y1, p.height),
             clip(static_cast<int64_t>(std::floor(pw * bin_w)) + roi_x1, p.width),
             clip(static_cast<int64_t>(std::ceil((pw + 1) * bin_w)) + roi_x1, p.width)};
}

}  // namespace cnnlsim::roi_pooling
