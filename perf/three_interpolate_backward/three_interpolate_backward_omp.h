// The plain OpenMP CPU version of three_interpolate_backward the benchmark sets
// beside the simulation: one (batch, channel) row per iteration, scattered into
// a float accumulator of M points. No simulator involved.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "ops/three_interpolate_backward/three_interpolate_backward_kernel.h"

namespace mluop::three_interpolate_backward::omp {

template <typename T>
void three_interpolate_backward(const std::vector<T> &grad_output,
                                const std::vector<int32_t> &indices,
                                const std::vector<T> &weights, std::vector<T> &grad_features,
                                const Shape &k) {
#pragma omp parallel
  {
    std::vector<float> acc(k.m);
#pragma omp for schedule(static)
    for (int row = 0; row < k.b * k.c; ++row) {
      const int batch = row / k.c;
      const T *in = grad_output.data() + size_t(row) * k.n;
      const int32_t *idx = indices.data() + size_t(batch) * k.n * 3;
      const T *w = weights.data() + size_t(batch) * k.n * 3;
      std::fill(acc.begin(), acc.end(), 0.0f);
      for (int p = 0; p < k.n; ++p) {
        const float g = static_cast<float>(in[p]);
        for (int j = 0; j < 3; ++j) {
          const int32_t i = idx[p * 3 + j];
          if (i >= 0 && i < k.m) acc[i] += g * static_cast<float>(w[p * 3 + j]);
        }
      }
      T *out = grad_features.data() + size_t(row) * k.m;
      for (int i = 0; i < k.m; ++i) out[i] = static_cast<T>(acc[i]);
    }
  }
}

}  // namespace mluop::three_interpolate_backward::omp
