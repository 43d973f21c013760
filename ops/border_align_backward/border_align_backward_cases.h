// border_align_backward's cases for tests, benchmarks and the demo: random
// problems and the design doc's network cases (3.7), as host data (float,
// already rounded to half for half runs) with the CPU reference's answer.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "mlu_op.h"
#include "ops/border_align_backward/border_align_backward_reference.h"
#include "ops/common/cases.h"

namespace mluop::border_align_backward::cases {

using reference::Shape;

struct Problem {
  Shape shape;
  std::vector<float> grad_output;   // [N,K,4,C]
  std::vector<float> boxes;         // [N,K,4]
  std::vector<int32_t> argmax_idx;  // [N,K,4,C]

  std::vector<double> expected() const {
    return reference::border_align_backward(shape, grad_output, boxes, argmax_idx);
  }
};

inline size_t grad_output_count(const Shape &s) {
  return static_cast<size_t>(s.N) * s.K() * 4 * s.C;
}

// Boxes whose corners are sorted uniform pairs over [lo, hi] times the map's
// width / height (lo < 0 or hi > 1 reaches outside the map); argmax uniform in
// [0, pool_size]; grad_output uniform in [-1, 1).
inline Problem random_problem(const Shape &s, uint32_t seed, float lo = 0.0f, float hi = 1.0f) {
  Random rng(seed);
  Problem p{s, rng.floats(grad_output_count(s), -1.0f, 1.0f), {}, {}};
  p.boxes.reserve(static_cast<size_t>(s.N) * s.K() * 4);
  for (int b = 0; b < s.N * s.K(); ++b) {
    float x0 = rng.uniform(lo, hi) * s.W, x1 = rng.uniform(lo, hi) * s.W;
    float y0 = rng.uniform(lo, hi) * s.H, y1 = rng.uniform(lo, hi) * s.H;
    if (x1 < x0) std::swap(x0, x1);
    if (y1 < y0) std::swap(y0, y1);
    p.boxes.insert(p.boxes.end(), {x0, y0, x1, y1});
  }
  const std::vector<int> idx = rng.ints(grad_output_count(s), 0, s.pool_size);
  p.argmax_idx.assign(idx.begin(), idx.end());
  return p;
}

// The values a half tensor holds, so the reference sees what the device sees.
inline Problem rounded_to_half(Problem p) {
  for (float &v : p.grad_output) v = round_to_half(v);
  for (float &v : p.boxes) v = round_to_half(v);
  return p;
}

// The values a T tensor holds: half runs round the float data first.
template <typename T>
Problem device_values(Problem p) {
  return sizeof(T) == 4 ? p : rounded_to_half(std::move(p));
}

// The design doc's network cases: grad_output [2, K, 4, C], pool_size 10, one
// box per pixel (K = H * W), so the doc's K = 70 and 950 are the 7 x 10 and
// 25 x 38 maps.
inline constexpr Shape kNetworkCases[] = {{2, 7, 10, 256, 10}, {2, 25, 38, 256, 10},
                                          {2, 7, 10, 128, 10}};

// mlu-ops v1.5.2's in-tree gtest case (zoo/border_align_backward): grad_output
// [1, 70, 4, 129] float (a 10 x 7 map), pool_size 10, with what its random data
// draws: boxes' coordinates in [0, 1] pixels, argmax 0 or 1, grad_output in
// [0, 1000). The values are ours.
inline constexpr Shape kMluOpsCase{1, 10, 7, 129, 10};

inline Problem mluops_problem(uint32_t seed) {
  const Shape &s = kMluOpsCase;
  Random rng(seed);
  Problem p{s, rng.floats(grad_output_count(s), 0.0f, 1000.0f), {}, {}};
  for (int b = 0; b < s.N * s.K(); ++b) {
    float x0 = rng.uniform(0, 1), x1 = rng.uniform(0, 1), y0 = rng.uniform(0, 1),
          y1 = rng.uniform(0, 1);
    p.boxes.insert(p.boxes.end(), {std::min(x0, x1), std::min(y0, y1), std::max(x0, x1),
                                   std::max(y0, y1)});
  }
  const std::vector<int> idx = rng.ints(grad_output_count(s), 0, 1);
  p.argmax_idx.assign(idx.begin(), idx.end());
  return p;
}

inline std::string name(const Shape &s) {
  return "[" + std::to_string(s.N) + "," + std::to_string(s.K()) + ",4," + std::to_string(s.C) +
         "] pool " + std::to_string(s.pool_size);
}

// The accuracy bar: diff1 and diff2 at most 1e-5 (float) / 1e-3 (half).
inline double threshold(mluOpDataType_t dtype) { return dtype == MLUOP_DTYPE_HALF ? 1e-3 : 1e-5; }

}  // namespace mluop::border_align_backward::cases
