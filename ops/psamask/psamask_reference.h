// CPU reference of psamask for tests, benchmarks and the demo: the design
// doc's pseudo-code (section 3.1) as plain loops. The doc's rendering lost its
// '*', '+' and '-' signs; they are restored as mmcv indexes (NHWC here):
//   COLLECT:    y[n, h, w, (hidx + h - hh) * W + (widx + w - hw)] = x[n, h, w, hidx * w_mask + widx]
//   DISTRIBUTE: y[n, hidx + h - hh, widx + w - hw, h * W + w]     = x[n, h, w, hidx * w_mask + widx]
// and the backward moves dy to dx over the same pairs. Everything else is 0.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

namespace mluop::psamask::reference {

struct Dims {
  int num, h_feature, w_feature, h_mask, w_mask;
  size_t mask_elements() const { return size_t(num) * h_feature * w_feature * h_mask * w_mask; }
  size_t feature_elements() const {
    return size_t(num) * h_feature * w_feature * h_feature * w_feature;
  }
};

// Calls pair(mask_index, out_index) for every pair of the doc's loops.
template <typename Pair>
void for_each_pair(int psa_type, const Dims &d, Pair pair) {
  const size_t c_o = size_t(d.h_feature) * d.w_feature;
  const size_t h_o_offset = d.w_feature * c_o, w_o_offset = c_o;
  const size_t c_i = size_t(d.h_mask) * d.w_mask;
  const size_t h_i_offset = d.w_feature * c_i, w_i_offset = c_i;
  const size_t n_o_offset = d.h_feature * d.w_feature * c_o;
  const size_t n_i_offset = d.h_feature * d.w_feature * c_i;
  const int half_h_mask = (d.h_mask - 1) / 2, half_w_mask = (d.w_mask - 1) / 2;
  for (int n = 0; n < d.num; ++n) {
    for (int h = 0; h < d.h_feature; ++h) {
      for (int w = 0; w < d.w_feature; ++w) {
        const int h_start = std::max(0, half_h_mask - h);
        const int w_start = std::max(0, half_w_mask - w);
        const int h_end = std::min(d.h_mask, d.h_feature + half_h_mask - h);
        const int w_end = std::min(d.w_mask, d.w_feature + half_w_mask - w);
        for (int hidx = h_start; hidx < h_end; ++hidx) {
          for (int widx = w_start; widx < w_end; ++widx) {
            const size_t mask_index =
                n * n_i_offset + h * h_i_offset + w * w_i_offset + (hidx * d.w_mask + widx);
            const size_t fh = hidx + h - half_h_mask, fw = widx + w - half_w_mask;
            const size_t out_index =
                psa_type == 0
                    ? n * n_o_offset + h * h_o_offset + w * w_o_offset + (fh * d.w_feature + fw)
                    : n * n_o_offset + fh * h_o_offset + fw * w_o_offset + h * d.w_feature + w;
            pair(mask_index, out_index);
          }
        }
      }
    }
  }
}

inline std::vector<float> psamask_forward(int psa_type, const std::vector<float> &x, const Dims &d) {
  std::vector<float> y(d.feature_elements(), 0.0f);
  for_each_pair(psa_type, d, [&](size_t in, size_t out) { y[out] = x[in]; });
  return y;
}

inline std::vector<float> psamask_backward(int psa_type, const std::vector<float> &dy, const Dims &d) {
  std::vector<float> dx(d.mask_elements(), 0.0f);
  for_each_pair(psa_type, d, [&](size_t in, size_t out) { dx[in] = dy[out]; });
  return dx;
}

}  // namespace mluop::psamask::reference
