// CPU reference of three_interpolate_backward (mmcv's three_interpolate
// backward): plain loops in double. Used by tests, benchmarks and the demo only.
#pragma once

#include <cstdint>
#include <vector>

namespace three_interpolate_backward {

// grad_output [b, c, n], indices / weights [b, n, 3] -> grad_features [b, c, m]:
// grad_features[b, c, i] = sum of grad_output[b, c, p] * weights[b, p, k] over
// every (p, k) with indices[b, p, k] == i. Indices outside [0, m) add nothing.
template <typename T>
std::vector<double> reference(const std::vector<T> &grad_output,
                              const std::vector<int32_t> &indices, const std::vector<T> &weights,
                              int b, int c, int n, int m) {
  std::vector<double> grad_features(size_t(b) * c * m, 0.0);
  for (int batch = 0; batch < b; ++batch)
    for (int p = 0; p < n; ++p)
      for (int k = 0; k < 3; ++k) {
        const size_t at = (size_t(batch) * n + p) * 3 + k;
        const int32_t i = indices[at];
        if (i < 0 || i >= m) continue;
        const double w = static_cast<double>(weights[at]);
        for (int ch = 0; ch < c; ++ch)
          grad_features[(size_t(batch) * c + ch) * m + i] +=
              static_cast<double>(grad_output[(size_t(batch) * c + ch) * n + p]) * w;
      }
  return grad_features;
}

}  // namespace three_interpolate_backward
