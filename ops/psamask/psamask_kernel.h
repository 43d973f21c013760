// psamask's kernels and what the host and the kernels share: the shape, the
// task split of the design doc's section 3.3 and the NRAM sizing ("findlimit")
// of section 3.2.3. Both sides call the same functions, so the host's policy
// (how many clusters, whether one point fits NRAM) is the kernel's.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "cnrt.h"

namespace mluop::psamask {

enum Type { kCollect = 0, kDistribute = 1 };

// Every (n, h, w) point has mask_c = h_mask * w_mask channels in x / dx (the
// "mask" tensor) and feature_c = h * w channels in y / dy (the "feature" tensor).
struct Shape {
  int n, h, w;
  int h_mask, w_mask;
  int half_h_mask, half_w_mask;  // (mask - 1) / 2: the window's centre cell
  int mask_c, feature_c;
  int type;                      // psa_type: kCollect or kDistribute
};

inline Shape make_shape(int n, int h, int w, int h_mask, int w_mask, int type) {
  return Shape{n,        h,           w, h_mask, w_mask, (h_mask - 1) / 2, (w_mask - 1) / 2,
               h_mask * w_mask, h * w, type};
}

// ---- Section 3.3: the split of [N, H, W] over clusters, then cores ----------

struct Range {
  int start = 0, size = 0;
  int end() const { return start + size; }
};

// A block of points [n) x [h) x [w): what a task owns, or a segment of it.
struct Box {
  Range n, h, w;
  Range &axis(int a) { return a == 0 ? n : a == 1 ? h : w; }
  const Range &axis(int a) const { return a == 0 ? n : a == 1 ? h : w; }
  int64_t points() const { return int64_t{n.size} * h.size * w.size; }
};

inline Box whole(const Shape &s) { return Box{{0, s.n}, {0, s.h}, {0, s.w}}; }

// N if every part gets some, else H, else W; when none is that long, the
// longest (the first of equals): use as many parts as possible.
inline int split_axis(const Box &b, int parts) {
  for (int a = 0; a < 3; ++a)
    if (b.axis(a).size >= parts) return a;
  int longest = 0;
  for (int a = 1; a < 3; ++a)
    if (b.axis(a).size > b.axis(longest).size) longest = a;
  return longest;
}

// Part `index` of `parts` along the split axis; the remainder goes to the first parts.
inline Box part_of(Box b, int parts, int index) {
  Range &r = b.axis(split_axis(b, parts));
  const int base = r.size / parts, extra = r.size % parts;
  r.start += index * base + std::min(index, extra);
  r.size = base + (index < extra ? 1 : 0);
  return b;
}

// The points task (cluster, core) owns: the cluster's share of the tensor, then
// the core's share of the cluster's. Empty when there are more parts than points.
inline Box task_box(const Shape &s, int cluster, int clusters, int core, int cores) {
  return part_of(part_of(whole(s), clusters, cluster), cores, core);
}

// Clusters with work: the launch's dim.y.
inline int clusters_needed(const Shape &s, int clusters) {
  const Box b = whole(s);
  return std::min(clusters, b.axis(split_axis(b, clusters)).size);
}

// ---- Section 3.2: the NRAM partition and findlimit ------------------------

constexpr int64_t pad_up(int64_t x, int64_t align) { return (x + align - 1) / align * align; }

// NRAM for a segment of `points` points, in elements of T. The doc's partition:
// a mask region (x forward, dx backward) and a feature region (y forward, dy
// backward), which DISTRIBUTE doubles: the points in collect layout plus its
// transpose (3.2.2). Counts are padded as the intrinsics need: the zero fill
// writes multiples of 128 bytes, the transpose takes dims of multiples of 64
// bytes (so DISTRIBUTE rows are padded to the next 64 bytes of feature_c).
struct NramPlan {
  int64_t mask;     // elements of the mask region
  int64_t feature;  // elements of each feature region
  int regions;      // feature regions: 1 (COLLECT) or 2 (DISTRIBUTE)
  int row;          // feature elements per point in the collect layout
  int rows;         // DISTRIBUTE: points padded for the transpose
  int64_t total() const { return mask + feature * regions; }
};

template <typename T>
NramPlan plan_nram(const Shape &s, int64_t points) {
  constexpr int64_t zero_align = 128 / sizeof(T), transpose_align = 64 / sizeof(T);
  NramPlan p{};
  p.mask = pad_up(points * s.mask_c, zero_align);
  if (s.type == kCollect) {
    p.row = s.feature_c;
    p.rows = static_cast<int>(points);
    p.feature = pad_up(points * p.row, zero_align);
    p.regions = 1;
  } else {
    p.row = static_cast<int>(pad_up(s.feature_c, transpose_align));
    p.rows = static_cast<int>(pad_up(points, transpose_align));
    p.feature = int64_t{p.rows} * p.row;
    p.regions = 2;
  }
  return p;
}

template <typename T>
bool fits(const Shape &s, int64_t points, int64_t nram_elements) {
  return plan_nram<T>(s, points).total() <= nram_elements;
}

// Largest k in [0, k_max] with fits(k); fits is monotone and fits(0) holds.
template <typename Fits>
int largest_fitting(int k_max, Fits fits) {
  int lo = 0, hi = k_max;
  while (lo < hi) {
    const int mid = lo + (hi - lo + 1) / 2;
    if (fits(mid)) lo = mid; else hi = mid - 1;
  }
  return lo;
}

// The segment a task moves through NRAM at once (3.2.3): as many whole [h, w]
// planes of its box as fit; if not one, as many rows of it; if not one, as
// many points of a row. w == 0 means not even one point fits (the host
// rejects that before launching).
struct Limits {
  int n, h, w;
};

template <typename T>
Limits find_limit(const Shape &s, const Box &b, int64_t nram_elements) {
  const int64_t plane = int64_t{b.h.size} * b.w.size;
  const int n = largest_fitting(b.n.size, [&](int k) { return fits<T>(s, k * plane, nram_elements); });
  if (n > 0) return {n, b.h.size, b.w.size};
  const int h = largest_fitting(b.h.size, [&](int k) { return fits<T>(s, int64_t{k} * b.w.size, nram_elements); });
  if (h > 0) return {1, h, b.w.size};
  return {1, 1, largest_fitting(b.w.size, [&](int k) { return fits<T>(s, k, nram_elements); })};
}

// ---- The kernels (Union1, dim = (cores per cluster, clusters_needed, 1)) ---

// y from x; positions no mask window reaches are 0 (MLUKernelPsamaskForward).
cnrtRet_t launch_forward(cnrtDim3_t dim, cnrtQueue_t queue, const float *x, float *y, Shape shape);
// dx from dy: the same (mask cell, feature cell) pairs the other way; 0
// elsewhere (MLUKernelPsamaskBackward).
cnrtRet_t launch_backward(cnrtDim3_t dim, cnrtQueue_t queue, const float *dy, float *dx,
                          Shape shape);

}  // namespace mluop::psamask
