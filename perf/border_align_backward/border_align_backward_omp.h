// The plain OpenMP CPU version of border_align_backward the benchmark sets
// beside the simulation: the threads share out the (image, border) pairs,
// each adding its boxes' gradients in float with no atomics. No simulator
// involved.
#pragma once

#include <cstdint>
#include <vector>

#include "ops/border_align_backward/border_align_backward_reference.h"

namespace mluop::border_align_backward::omp {

inline void border_align_backward(const reference::Shape &s, const float *grad_output,
                                  const float *boxes, const int32_t *argmax_idx,
                                  float *grad_input) {
  const int K = s.K(), C = s.C, P = s.pool_size;
  const int64_t size = int64_t{s.N} * s.H * s.W * 4 * C;
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < size; ++i) grad_input[i] = 0.0f;
  // A (image, border) pair owns its slice of grad_input: boxes of one image
  // overlap, but only the same border of the same image adds to the same
  // bytes, so each thread adds its boxes in order with no atomics.
#pragma omp parallel for collapse(2) schedule(static)
  for (int n = 0; n < s.N; ++n) {
    for (int border = 0; border < 4; ++border) {
      float *out = grad_input + int64_t{n} * s.H * s.W * 4 * C + border * C;
      const int64_t stride = int64_t{4} * C;
      for (int k = 0; k < K; ++k) {
        const int64_t item = (int64_t{n} * K + k) * 4 + border;
        const float *box = boxes + item / 4 * 4;
        const float w = box[2] - box[0], h = box[3] - box[1];
        const float xs = border < 2 ? box[0] : box[2], ys = border < 2 ? box[1] : box[3];
        const float dx = border == 0 ? w / P : border == 2 ? -w / P : 0.0f;
        const float dy = border == 1 ? h / P : border == 3 ? -h / P : 0.0f;
        const int32_t *idx = argmax_idx + item * C;
        const float *grad = grad_output + item * C;
        for (int c = 0; c < C; ++c) {
          if (idx[c] < 0 || idx[c] > P) continue;
          float x = xs + dx * idx[c], y = ys + dy * idx[c];
          if (!(y >= -1.0f && y <= s.H && x >= -1.0f && x <= s.W)) continue;
          y = y < 0 ? 0 : y;
          x = x < 0 ? 0 : x;
          int y0 = static_cast<int>(y), x0 = static_cast<int>(x), y1 = y0 + 1, x1 = x0 + 1;
          if (y0 >= s.H - 1) y = y0 = y1 = s.H - 1;
          if (x0 >= s.W - 1) x = x0 = x1 = s.W - 1;
          const float ly = y - y0, lx = x - x0, hy = 1 - ly, hx = 1 - lx;
          const float g = grad[c];
          out[(int64_t{y0} * s.W + x0) * stride + c] += g * hy * hx;
          out[(int64_t{y0} * s.W + x1) * stride + c] += g * hy * lx;
          out[(int64_t{y1} * s.W + x0) * stride + c] += g * ly * hx;
          out[(int64_t{y1} * s.W + x1) * stride + c] += g * ly * lx;
        }
      }
    }
  }
}

}  // namespace mluop::border_align_backward::omp
