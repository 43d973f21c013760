// Nms's kernel as the host launches it, and the rotated-box overlap its 3-D
// mode computes. One task runs the whole selection: it is sequential (each
// kept box decides which of the rest survive), and every box's arrays stay in
// NRAM for it.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "cnrt.h"

namespace cnnlsim::nms {

constexpr int kAlign = 64;  // elements: the arrays are padded to whole granules

struct Plan {
  int64_t boxes;     // N
  int64_t padded;    // N rounded up to kAlign
  int box_dim;       // 4 (axis-aligned, with confidence) or 7 (rotated, bird's-eye view)
  int input_layout;  // 0: [N, box_dim], 1: [box_dim, N]
  bool half;         // boxes, confidence and box outputs are half (else float)
  int box_mode, output_mode, algo, method_mode;
  float iou_threshold, soft_nms_sigma, confidence_threshold, offset;
  int64_t keep_limit;       // boxes to keep at most (max_output_size and the output's room)
  int64_t plane;            // output mode 2: elements between its five planes
  bool pad;                 // zero the output entries past the kept ones, up to keep_limit
  int64_t output_elements;  // of the output tensor
  int nram_bytes;
};

struct Args {
  Plan plan;
  const void *boxes, *confidence;
  void *output;
  int32_t *output_size;
};

// Elements between the five planes of the output records in NRAM.
inline int64_t record_pitch(const Plan &p) { return (p.keep_limit + kAlign - 1) / kAlign * kAlign; }

// NRAM the kernel needs for a plan: twelve float arrays of the padded boxes
// (coordinates, areas, scores, scratch), a half stage of them, and five
// planes of output records with their half stage.
inline int64_t nram_needed(const Plan &p) {
  return p.padded * (12 * 4 + 2) + 5 * record_pitch(p) * (4 + 2);
}

cnrtRet_t launch(cnrtQueue_t queue, const Args &args);

// ---- The 3-D mode's overlap: two rotated rectangles on the ground plane ----

struct Point {
  float x, y;
};

// The corners of the box (center x, y, sizes dx, dy, heading), counter-clockwise.
inline void corners_of(const float box[5], Point out[4]) {
  const float c = std::cos(box[4]), s = std::sin(box[4]);
  const float hx = box[2] / 2, hy = box[3] / 2;
  const float dx[4] = {-hx, hx, hx, -hx}, dy[4] = {-hy, -hy, hy, hy};
  for (int i = 0; i < 4; ++i)
    out[i] = Point{box[0] + dx[i] * c - dy[i] * s, box[1] + dx[i] * s + dy[i] * c};
}

// The area both rectangles cover: `a`'s polygon clipped by each edge of `b`
// (Sutherland-Hodgman; both convex and counter-clockwise), then the shoelace.
inline float rotated_overlap(const float a[5], const float b[5]) {
  Point poly[16], next[16], clip[4];
  corners_of(a, poly);
  corners_of(b, clip);
  int n = 4;
  for (int e = 0; e < 4 && n > 0; ++e) {
    const Point p = clip[e], q = clip[(e + 1) % 4];
    auto side = [&](const Point &v) { return (q.x - p.x) * (v.y - p.y) - (q.y - p.y) * (v.x - p.x); };
    int m = 0;
    for (int i = 0; i < n; ++i) {
      const Point u = poly[i], v = poly[(i + 1) % n];
      const float su = side(u), sv = side(v);
      if (su >= 0) next[m++] = u;
      if ((su >= 0) != (sv >= 0)) {
        const float t = su / (su - sv);
        next[m++] = Point{u.x + t * (v.x - u.x), u.y + t * (v.y - u.y)};
      }
    }
    n = m;
    std::copy(next, next + m, poly);
  }
  float twice_area = 0;
  for (int i = 0; i < n; ++i)
    twice_area += poly[i].x * poly[(i + 1) % n].y - poly[(i + 1) % n].x * poly[i].y;
  return std::fabs(twice_area) / 2;
}

// Intersection over union of the two boxes' ground-plane rectangles.
inline float rotated_iou(const float a[5], const float b[5]) {
  const float overlap = rotated_overlap(a, b);
  return overlap / std::max(a[2] * a[3] + b[2] * b[3] - overlap, 1e-8f);
}

}  // namespace cnnlsim::nms
