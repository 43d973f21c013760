// The plain OpenMP CPU version of three_interpolate_backward the benchmark sets
// beside the simulation: one (batch, channel) row per iteration, scattered into
// a float accumulator of M points (half rows converted as they are read). No
// simulator involved.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "ops/three_interpolate_backward/three_interpolate_backward_kernel.h"
#include "perf/common/float_rows.h"

namespace mluop::three_interpolate_backward::omp {

template <typename T>
void three_interpolate_backward(const std::vector<T> &grad_output,
                                const std::vector<int32_t> &indices,
                                const std::vector<T> &weights, std::vector<T> &grad_features,
                                const Shape &k) {
#pragma omp parallel
  {
    std::vector<float> acc(k.m), row_room(k.n), weight_room(size_t(k.n) * 3);
    const float *w = nullptr;
    int weights_of = -1;  // the batch whose weights w holds
#pragma omp for schedule(static)
    for (int row = 0; row < k.b * k.c; ++row) {
      const int batch = row / k.c;
      const float *in = mlusim::perf::as_float(grad_output.data() + size_t(row) * k.n,
                                               row_room.data(), k.n);
      const int32_t *idx = indices.data() + size_t(batch) * k.n * 3;
      if (batch != weights_of) {  // a thread's rows are consecutive: once per batch
        w = mlusim::perf::as_float(weights.data() + size_t(batch) * k.n * 3, weight_room.data(),
                                   weight_room.size());
        weights_of = batch;
      }
      std::fill(acc.begin(), acc.end(), 0.0f);
      for (int p = 0; p < k.n; ++p) {
        for (int j = 0; j < 3; ++j) {
          const int32_t i = idx[p * 3 + j];
          if (i >= 0 && i < k.m) acc[i] += in[p] * w[p * 3 + j];
        }
      }
      mlusim::perf::store_as(acc.data(), grad_features.data() + size_t(row) * k.m, k.m);
    }
  }
}

}  // namespace mluop::three_interpolate_backward::omp
