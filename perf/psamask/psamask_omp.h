// The plain CPU version of psamask the benchmark compares the simulator's host
// cost with: zero the output, then the doc's loops, parallel over (n, h);
// DISTRIBUTE's in blocks of points, so that its transpose runs along cache lines.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "ops/psamask/psamask_reference.h"

namespace mluop::psamask::omp {

using reference::Dims;

// Calls move(mask_index, feature_index) for every pair of point (n, h, w)'s window.
template <typename Move>
inline void point_window(int psa_type, const Dims &d, int n, int h, int w, Move move) {
  const int64_t co = int64_t{d.h_feature} * d.w_feature, ci = int64_t{d.h_mask} * d.w_mask;
  const int64_t point = (int64_t{n} * d.h_feature + h) * d.w_feature + w;
  const int hh = (d.h_mask - 1) / 2, hw = (d.w_mask - 1) / 2;
  const int hstart = std::max(0, hh - h), hend = std::min(d.h_mask, d.h_feature + hh - h);
  const int wstart = std::max(0, hw - w), wend = std::min(d.w_mask, d.w_feature + hw - w);
  for (int i = hstart; i < hend; ++i) {
    for (int j = wstart; j < wend; ++j) {
      const int64_t target = int64_t{i + h - hh} * d.w_feature + (j + w - hw);  // feature point
      const int64_t feature =
          psa_type == 0 ? point * co + target
                        : (int64_t{n} * co + target) * co + int64_t{h} * d.w_feature + w;
      move(point * ci + int64_t{i} * d.w_mask + j, feature);
    }
  }
}

// DISTRIBUTE's output index is (n, target, point): walked point by point, as
// point_window does, consecutive moves land co floats apart. This walks a
// block of kBlock points of one row target by target instead, so each target
// row takes kBlock adjacent floats and the block's kBlock source rows stay in
// cache (a cache-blocked transpose).
template <typename Move>
inline void distribute_windows(const Dims &d, Move move) {
  constexpr int kBlock = 16;
  const int64_t co = int64_t{d.h_feature} * d.w_feature, ci = int64_t{d.h_mask} * d.w_mask;
  const int hh = (d.h_mask - 1) / 2, hw = (d.w_mask - 1) / 2;
#pragma omp parallel for collapse(2) schedule(static)
  for (int n = 0; n < d.num; ++n)
    for (int h = 0; h < d.h_feature; ++h) {
      const int row_begin = std::max(0, h - hh), row_end = std::min(d.h_feature, h - hh + d.h_mask);
      for (int w0 = 0; w0 < d.w_feature; w0 += kBlock) {
        const int w1 = std::min(w0 + kBlock, d.w_feature);
        const int col_begin = std::max(0, w0 - hw);
        const int col_end = std::min(d.w_feature, w1 - hw + d.w_mask - 1);
        for (int row = row_begin; row < row_end; ++row)
          for (int col = col_begin; col < col_end; ++col) {
            const int64_t target = int64_t{row} * d.w_feature + col;
            // The points whose window column j = col - w + hw lies in [0, w_mask).
            const int w_begin = std::max(w0, col + hw - d.w_mask + 1);
            const int w_end = std::min(w1, col + hw + 1);
            for (int w = w_begin; w < w_end; ++w) {
              const int64_t point = (int64_t{n} * d.h_feature + h) * d.w_feature + w;
              move(point * ci + int64_t{row - h + hh} * d.w_mask + (col - w + hw),
                   (int64_t{n} * co + target) * co + int64_t{h} * d.w_feature + w);
            }
          }
      }
    }
}

template <typename Move>
inline void all_windows(int psa_type, const Dims &d, Move move) {
  if (psa_type == 1) return distribute_windows(d, move);
#pragma omp parallel for collapse(2) schedule(static)
  for (int n = 0; n < d.num; ++n)
    for (int h = 0; h < d.h_feature; ++h)
      for (int w = 0; w < d.w_feature; ++w) point_window(psa_type, d, n, h, w, move);
}

inline void zero(float *out, int64_t count) {
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < count; ++i) out[i] = 0.0f;
}

inline void forward(int psa_type, const float *x, float *y, const Dims &d) {
  const int64_t co = int64_t{d.h_feature} * d.w_feature;
  zero(y, int64_t{d.num} * co * co);
  all_windows(psa_type, d, [&](int64_t m, int64_t f) { y[f] = x[m]; });
}

inline void backward(int psa_type, const float *dy, float *dx, const Dims &d) {
  zero(dx, int64_t{d.num} * d.h_feature * d.w_feature * d.h_mask * d.w_mask);
  all_windows(psa_type, d, [&](int64_t m, int64_t f) { dx[m] = dy[f]; });
}

}  // namespace mluop::psamask::omp
