// RoiAlign's kernels as the host launches them, and the geometry both sides
// share. Feature maps are NHWC; a box is (batch index, x1, y1, x2, y2). The
// work items are the output bins (roi, ph, pw) times channel blocks of `cb`
// channels, kept in NRAM `cp` apart (cb rounded up to 64).
#pragma once

#include <cmath>
#include <cstdint>

#include "cnrt.h"

namespace cnnlsim::roi_align {

constexpr int kPitchAlign = 64;

struct Shape {
  int64_t batch, height, width, channels;  // the feature map
  int64_t rois, pooled_height, pooled_width;
  int64_t cb, cp;  // channels per block and their NRAM pitch
  bool half;       // feature map, boxes and outputs are half (else float)

  int64_t bins() const { return rois * pooled_height * pooled_width; }
  int64_t channel_blocks() const { return (channels + cb - 1) / cb; }
};

struct Params {
  int sampling_ratio;
  float spatial_scale;
  bool aligned;
  int pool_mode;  // 0 max, 1 average
};

// What both kernels are launched with.
struct Plan {
  Shape s;
  Params p;
  int nram_bytes;
  cnrtDim3_t dim;  // a UNION1 launch
};

// Forward: output and, in max mode, argmax_x / argmax_y: [rois, PH, PW, C].
struct ForwardArgs {
  Plan plan;
  const void *input, *boxes;
  void *output, *argmax_x, *argmax_y;
};

// Backward: grads [rois, PH, PW, C] spread into grads_image [batch, H, W, C],
// which the host has zeroed; argmax_x / argmax_y in max mode.
struct BackwardArgs {
  Plan plan;
  const void *grads, *boxes, *argmax_x, *argmax_y;
  void *grads_image;
};

cnrtRet_t launch_forward(cnrtQueue_t queue, const ForwardArgs &args);
cnrtRet_t launch_backward(cnrtQueue_t queue, const BackwardArgs &args);

// One roi's bins on the feature map, as mmcv's roi_align computes them.
struct RoiGeometry {
  float start_w, start_h, bin_w, bin_h;
  int grid_h, grid_w;  // samples per bin along each axis
};
inline RoiGeometry roi_geometry(const float box[5], const Params &p, int64_t pooled_height,
                                int64_t pooled_width) {
  const float offset = p.aligned ? 0.5f : 0.0f;
  RoiGeometry g;
  g.start_w = box[1] * p.spatial_scale - offset;
  g.start_h = box[2] * p.spatial_scale - offset;
  float roi_w = box[3] * p.spatial_scale - offset - g.start_w;
  float roi_h = box[4] * p.spatial_scale - offset - g.start_h;
  if (!p.aligned) {  // legacy boxes are at least one pixel
    roi_w = std::max(roi_w, 1.0f);
    roi_h = std::max(roi_h, 1.0f);
  }
  g.bin_w = roi_w / static_cast<float>(pooled_width);
  g.bin_h = roi_h / static_cast<float>(pooled_height);
  g.grid_h = p.sampling_ratio > 0 ? p.sampling_ratio : static_cast<int>(std::ceil(g.bin_h));
  g.grid_w = p.sampling_ratio > 0 ? p.sampling_ratio : static_cast<int>(std::ceil(g.bin_w));
  return g;
}

// The sample (iy, ix) of bin (ph, pw).
inline float sample_y(const RoiGeometry &g, int64_t ph, int iy) {
  return g.start_h + ph * g.bin_h + (iy + 0.5) * g.bin_h / g.grid_h;
}
inline float sample_x(const RoiGeometry &g, int64_t pw, int ix) {
  return g.start_w + pw * g.bin_w + (ix + 0.5) * g.bin_w / g.grid_w;
}

// The four pixels around (y, x) and their weights; empty outside the map
// (more than one pixel beyond its edge). Coordinates below 0 clamp to 0, the
// last row and column take the whole weight at the far edge.
struct Bilinear {
  bool empty;
  int64_t y_low, y_high, x_low, x_high;
  float w[4];  // (y_low, x_low), (y_low, x_high), (y_high, x_low), (y_high, x_high)
};
inline Bilinear bilinear(int64_t height, int64_t width, float y, float x) {
  Bilinear b{};
  if (y < -1.0f || y > height || x < -1.0f || x > width) {
    b.empty = true;
    return b;
  }
  y = std::max(y, 0.0f);
  x = std::max(x, 0.0f);
  b.y_low = static_cast<int64_t>(y);
  b.x_low = static_cast<int64_t>(x);
  if (b.y_low >= height - 1) {
    b.y_high = b.y_low = height - 1;
    y = static_cast<float>(b.y_low);
  } else {
    b.y_high = b.y_low + 1;
  }
  if (b.x_low >= width - 1) {
    b.x_high = b.x_low = width - 1;
    x = static_cast<float>(b.x_low);
  } else {
    b.x_high = b.x_low + 1;
  }
  const float ly = y - b.y_low, lx = x - b.x_low, hy = 1.0f - ly, hx = 1.0f - lx;
  b.w[0] = hy * hx;
  b.w[1] = hy * lx;
  b.w[2] = ly * hx;
  b.w[3] = ly * lx;
  return b;
}

}  // namespace cnnlsim::roi_align
