// The plain OpenMP CPU version of border_align_backward the benchmark sets
// beside the simulation: one loop iteration per (box, border), float
// accumulation, atomic adds where boxes overlap. No simulator involved.
#pragma once

#include <cstdint>
#include <vector>

#include "ops/border_align_backward/border_align_backward_reference.h"

namespace mluop::border_align_backward::omp {

inline void border_align_backward(const reference::Shape &s, const float *grad_output,
                                  const float *boxes, const int32_t *argmax_idx,
                                  float *grad_input) {
  const int K = s.K(), C = s.C, P = s.pool_size;
  const int64_t borders = int64_t{s.N} * K * 4, size = borders * C;
#pragma omp parallel for
  for (int64_t i = 0; i < size; ++i) grad_input[i] = 0.0f;
#pragma omp parallel for schedule(static)
  for (int64_t item = 0; item < borders; ++item) {
    const int border = static_cast<int>(item % 4);
    const int64_t n = item / 4 / K;
    const float *box = boxes + item / 4 * 4;
    const float w = box[2] - box[0], h = box[3] - box[1];
    const float xs = border < 2 ? box[0] : box[2], ys = border < 2 ? box[1] : box[3];
    const float dx = border == 0 ? w / P : border == 2 ? -w / P : 0.0f;
    const float dy = border == 1 ? h / P : border == 3 ? -h / P : 0.0f;
    float *out = grad_input + n * s.H * s.W * 4 * C + border * C;
    for (int c = 0; c < C; ++c) {
      const int idx = argmax_idx[item * C + c];
      if (idx < 0 || idx > P) continue;
      float x = xs + dx * idx, y = ys + dy * idx;
      if (!(y >= -1.0f && y <= s.H && x >= -1.0f && x <= s.W)) continue;
      y = y < 0 ? 0 : y;
      x = x < 0 ? 0 : x;
      int y0 = static_cast<int>(y), x0 = static_cast<int>(x), y1 = y0 + 1, x1 = x0 + 1;
      if (y0 >= s.H - 1) y = y0 = y1 = s.H - 1;
      if (x0 >= s.W - 1) x = x0 = x1 = s.W - 1;
      const float ly = y - y0, lx = x - x0, hy = 1 - ly, hx = 1 - lx;
      const float g = grad_output[item * C + c];
      const int64_t stride = int64_t{4} * C;
      const int64_t p00 = (int64_t{y0} * s.W + x0) * stride + c,
                    p01 = (int64_t{y0} * s.W + x1) * stride + c;
      const int64_t p10 = (int64_t{y1} * s.W + x0) * stride + c,
                    p11 = (int64_t{y1} * s.W + x1) * stride + c;
#pragma omp atomic
      out[p00] += g * hy * hx;
#pragma omp atomic
      out[p01] += g * hy * lx;
#pragma omp atomic
      out[p10] += g * ly * hx;
#pragma omp atomic
      out[p11] += g * ly * lx;
    }
  }
}

}  // namespace mluop::border_align_backward::omp
