// psamask's cases for tests, benchmarks and the demo: random problems and the
// network cases (the mlu-ops repository's PSF/PSB case_0 and PSANet's mask
// layers as mmseg configures them), each with its input data and the CPU
// reference's answer.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ops/common/cases.h"
#include "ops/psamask/psamask_reference.h"

namespace mluop::psamask::cases {

using reference::Dims;

// x / dx [N,H,W,h_mask*w_mask] and y / dy [N,H,W,H*W].
inline std::vector<int> mask_shape(const Dims &d) {
  return {d.num, d.h_feature, d.w_feature, d.h_mask * d.w_mask};
}
inline std::vector<int> feature_shape(const Dims &d) {
  return {d.num, d.h_feature, d.w_feature, d.h_feature * d.w_feature};
}

// One call: forward (x -> y) or backward (dy -> dx), COLLECT (0) or DISTRIBUTE (1).
struct Problem {
  bool backward = false;
  int psa_type = 0;
  Dims dims{};
  std::vector<float> input;  // x forward, dy backward

  std::vector<int> input_shape() const { return backward ? feature_shape(dims) : mask_shape(dims); }
  std::vector<int> output_shape() const { return backward ? mask_shape(dims) : feature_shape(dims); }
  size_t output_elements() const {
    return backward ? dims.mask_elements() : dims.feature_elements();
  }
  std::vector<float> expected() const {
    return backward ? reference::psamask_backward(psa_type, input, dims)
                    : reference::psamask_forward(psa_type, input, dims);
  }
  std::string name() const {
    return std::string(backward ? "backward " : "forward ") +
           (psa_type == 0 ? "COLLECT " : "DISTRIBUTE ") + "[" + std::to_string(dims.num) + "," +
           std::to_string(dims.h_feature) + "," + std::to_string(dims.w_feature) + "] mask " +
           std::to_string(dims.h_mask) + "x" + std::to_string(dims.w_mask);
  }
};

// The input uniform in [lo, hi).
inline Problem random_problem(bool backward, int psa_type, const Dims &d, uint32_t seed,
                              float lo = -1, float hi = 1) {
  Problem p{backward, psa_type, d, {}};
  p.input = Random(seed).floats(backward ? d.feature_elements() : d.mask_elements(), lo, hi);
  return p;
}

// The mlu-ops repository's own cases: PSF case_0 (forward), PSB case_0 (backward).
inline constexpr Dims kPsfCase0{123, 3, 12, 29, 22};
inline constexpr Dims kPsbCase0{16, 128, 32, 32, 32};

// PSANet's mask layer on ADE20K (mmseg: 512 x 512 crops, a 64 x 64 feature map
// halved to 32 x 32, a 66 x 66 mask), batch 4.
inline constexpr Dims kAde20k{4, 32, 32, 66, 66};

constexpr Dims with_batch(Dims d, int num) {
  d.num = num;
  return d;
}

struct NetworkCase {
  const char *name;
  bool backward;
  Dims dims;
  int iterations;  // the benchmark's timed calls: fewer for the large ones
};

//   PSF case_0: the mlu-ops repository's forward case, [123, 3, 12, 638], 29 x 22 mask.
//   PSB case_0: its backward case dy [16, 128, 32, 4096], 32 x 32 mask, at N = 2.
//   PSANet (mmseg): Cityscapes 769 x 769 crops give a 97 x 97 feature map,
//   halved by shrink_factor 2 to 49 x 49 with a 97 x 97 mask; ADE20K 512 x 512
//   gives 32 x 32 with a 66 x 66 mask. A 64 x 64 map with a 15 x 15 mask is the
//   sparse extreme (large output, small windows).
inline constexpr NetworkCase kNetworkCases[] = {
    {"PSF_case0_[123,3,12,638]_29x22", false, kPsfCase0, 20},
    {"PSB_case0_N2_[2,128,32,1024]_32x32", true, with_batch(kPsbCase0, 2), 3},
    {"PSANet_cityscapes_fwd_[2,49,49,9409]_97x97", false, {2, 49, 49, 97, 97}, 3},
    {"PSANet_cityscapes_bwd_[2,49,49,9409]_97x97", true, {2, 49, 49, 97, 97}, 3},
    {"PSANet_ade20k_fwd_[4,32,32,4356]_66x66", false, kAde20k, 5},
    {"PSANet_ade20k_bwd_[4,32,32,4356]_66x66", true, kAde20k, 5},
    {"sparse_fwd_[2,64,64,225]_15x15", false, {2, 64, 64, 15, 15}, 3},
};

// The demo's case: PSANet's mask layer on one ADE20K image.
inline constexpr Dims kAde20kOneImage = with_batch(kAde20k, 1);

}  // namespace mluop::psamask::cases
