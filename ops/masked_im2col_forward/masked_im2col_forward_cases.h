// masked_im2col_forward's cases for tests, benchmarks and the demo: what
// random problems are drawn from (features, distinct mask positions) and the
// design doc's network cases (RetinaNet's MaskedConv2d, 3.6) with a larger
// map, as host data with the CPU reference's answer.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "ops/common/cases.h"
#include "ops/masked_im2col_forward/masked_im2col_forward_reference.h"

namespace mluop::masked_im2col_forward::cases {

// feature [1, C, H, W], mask_h_idx / mask_w_idx [mask_cnt] ->
// data_col [C*kernel_h*kernel_w, mask_cnt].
struct Problem {
  int channels, height, width;
  int kernel_h, kernel_w, pad_h, pad_w;
  std::vector<int32_t> h_idx, w_idx;
  std::vector<float> feature;  // [C, H, W]; a half problem holds it converted to half

  int mask_cnt() const { return static_cast<int>(h_idx.size()); }
  int rows() const { return channels * kernel_h * kernel_w; }
  std::string name() const {
    return "[1," + std::to_string(channels) + "," + std::to_string(height) + "," +
           std::to_string(width) + "] " + std::to_string(h_idx.size()) + " masks, kernel " +
           std::to_string(kernel_h) + "x" + std::to_string(kernel_w) + ", pad (" +
           std::to_string(pad_h) + "," + std::to_string(pad_w) + ")";
  }
  // The feature as a T tensor holds it, and the reference's data_col from it.
  template <typename T>
  std::vector<T> feature_as() const {
    return std::vector<T>(feature.begin(), feature.end());
  }
  template <typename T>
  std::vector<T> expected() const {
    return reference::masked_im2col_forward(feature_as<T>(), channels, height, width, h_idx, w_idx,
                                            kernel_h, kernel_w, pad_h, pad_w);
  }
};

// The feature uniform in [lo, hi).
inline std::vector<float> random_feature(const Problem &p, Random &rng, float lo = -10,
                                         float hi = 10) {
  return rng.floats(static_cast<size_t>(p.channels) * p.height * p.width, lo, hi);
}

// `count` distinct positions of the H x W map, as a network's mask yields them.
inline void distinct_positions(int count, Random &rng, Problem &p) {
  std::vector<int> cells(static_cast<size_t>(p.height) * p.width);
  for (size_t i = 0; i < cells.size(); ++i) cells[i] = static_cast<int>(i);
  for (int i = 0; i < count; ++i) {
    std::swap(cells[i], cells[rng.integer(i, static_cast<int>(cells.size()) - 1)]);
    p.h_idx.push_back(cells[i] / p.width);
    p.w_idx.push_back(cells[i] % p.width);
  }
}

struct NetworkCase {
  int channels, height, width, mask_cnt, kernel, pad;
};

// The design doc's RetinaNet MaskedConv2d cases: feature [1,256,20,20], 200
// masks, kernel 3 pad 1 and kernel 1 pad 1; and a larger map, [1,256,100,152]
// with 4000 masks.
inline constexpr NetworkCase kDocKernel3{256, 20, 20, 200, 3, 1};
inline constexpr NetworkCase kDocKernel1{256, 20, 20, 200, 1, 1};
inline constexpr NetworkCase kLargeMap{256, 100, 152, 4000, 3, 1};

// Distinct mask positions, then the feature uniform in [-1, 1).
inline Problem network_problem(const NetworkCase &c, uint32_t seed) {
  Problem p{c.channels, c.height, c.width, c.kernel, c.kernel, c.pad, c.pad, {}, {}, {}};
  Random rng(seed);
  distinct_positions(c.mask_cnt, rng, p);
  p.feature = random_feature(p, rng, -1, 1);
  return p;
}

// mlu-ops v1.5.2's in-tree gtest cases (zoo/masked_im2col_forward): feature
// [1, 8, 8, 8], its ten mask positions (some off the map), kernel 4 x 4 (case_0
// float, case_2 half) or 14 x 14 (case_1), pad 1. The feature is ours, uniform
// in [1, 10) as the cases' random data.
struct MluOpsCase {
  int kernel;
  bool half;
};
inline constexpr MluOpsCase kMluOpsCases[] = {{4, false}, {14, false}, {4, true}};

inline Problem mluops_problem(const MluOpsCase &c, uint32_t seed) {
  Problem p{8, 8, 8, c.kernel, c.kernel, 1, 1,
            {-4, -1, -1, -1, 3, 3, 2, 7, 7, 7}, {-4, -1, 1, 7, -1, 3, 7, -1, 4, 7}, {}};
  Random rng(seed);
  p.feature = random_feature(p, rng, 1, 10);
  return p;
}

inline std::string name(const NetworkCase &c) {
  return "[1," + std::to_string(c.channels) + "," + std::to_string(c.height) + "," +
         std::to_string(c.width) + "] " + std::to_string(c.mask_cnt) + "m k" +
         std::to_string(c.kernel) + " p" + std::to_string(c.pad);
}

}  // namespace mluop::masked_im2col_forward::cases
