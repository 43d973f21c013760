// three_interpolate_backward's cases for tests, benchmarks and the demo:
// random problems and the design doc's network cases 1-10 (section 3.6), as
// host data in the device's element type T (float or _Float16; half data is
// drawn in float and rounded, so the reference sees the device's values).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "mlu_op.h"
#include "ops/common/cases.h"
#include "ops/three_interpolate_backward/three_interpolate_backward_kernel.h"
#include "ops/three_interpolate_backward/three_interpolate_backward_reference.h"

namespace mluop::three_interpolate_backward::cases {

// grad_output [b, c, n], indices / weights [b, n, 3], grad_features [b, c, m].
template <typename T>
struct Problem {
  Shape shape;
  std::vector<T> grad_output, weights;
  std::vector<int32_t> indices;

  // grad_features[batch], [c, m].
  std::vector<double> expected_batch(int batch) const {
    return reference::three_interpolate_backward_batch(grad_output, indices, weights, batch,
                                                       shape.c, shape.n, shape.m);
  }
  std::vector<double> expected() const {
    return reference::three_interpolate_backward(grad_output, indices, weights, shape.b, shape.c,
                                                 shape.n, shape.m);
  }
};

inline std::string name(const Shape &s) {
  return "B=" + std::to_string(s.b) + " C=" + std::to_string(s.c) + " N=" + std::to_string(s.n) +
         " M=" + std::to_string(s.m);
}

// grad_output in [-1, 1), weights in [0, 1), indices in [index_lo, index_hi].
template <typename T>
Problem<T> random_problem(const Shape &s, uint32_t seed, int index_lo, int index_hi) {
  Random rng(seed);
  auto values = [&rng](size_t count, float lo, float hi) {
    const std::vector<float> v = rng.floats(count, lo, hi);
    return std::vector<T>(v.begin(), v.end());
  };
  Problem<T> p{s, {}, {}, {}};
  p.grad_output = values(size_t(s.b) * s.c * s.n, -1.0f, 1.0f);
  p.weights = values(size_t(s.b) * s.n * kNeighbours, 0.0f, 1.0f);
  p.indices = rng.ints(size_t(s.b) * s.n * kNeighbours, index_lo, index_hi);
  return p;
}

// Indices in [0, M - 1], as the doc requires.
template <typename T>
Problem<T> random_problem(const Shape &s, uint32_t seed) {
  return random_problem<T>(s, seed, 0, s.m - 1);
}

struct NetworkCase {
  const char *name;
  Shape shape;
};

// The design doc's network cases: grad_output [b, c, n], grad_features [b, c, m].
inline constexpr NetworkCase kNetworkCases[] = {
    {"case1", {16, 512, 64, 16}},     {"case2", {16, 256, 256, 64}},
    {"case3", {16, 256, 1024, 256}},  {"case4", {16, 128, 4096, 1024}},
    {"case5", {16, 16, 64, 512}},     {"case6", {16, 64, 256, 256}},
    {"case7", {16, 1024, 4096, 128}}, {"case8", {16, 1, 128, 1024}},
    {"case9", {16, 128, 512, 256}},   {"case10", {16, 512, 2048, 128}},
};

// mlu-ops v1.5.2's in-tree gtest cases (zoo/three_interpolate_backward):
// case_1 half [16, 128, 32] -> M 16, case_2 float [13, 128, 64] -> M 17, with
// indices over every one of the M features as theirs are. The values are ours.
struct MluOpsCase {
  const char *name;
  Shape shape;
  bool half;
};
inline constexpr MluOpsCase kMluOpsCases[] = {{"mluops_case_1", {16, 128, 32, 16}, true},
                                              {"mluops_case_2", {13, 128, 64, 17}, false}};

// The demo's case, network case 9: the gradient of a PointNet++ feature
// propagation layer (batch 16, 128 channels, 256 points interpolated up to 512).
inline constexpr const NetworkCase &kPointNetFeaturePropagation = kNetworkCases[8];

// The thresholds for diff1 and diff2: float 1e-5, half the doc's 3e-3.
inline double threshold(mluOpDataType_t dtype) { return dtype == MLUOP_DTYPE_HALF ? 3e-3 : 1e-5; }

}  // namespace mluop::three_interpolate_backward::cases
