// CPU reference of three_interpolate_backward (mmcv's three_interpolate
// backward): plain loops in double. Used by tests, benchmarks and the demo only.
#pragma once

#include <cstdint>
#include <vector>

namespace mluop::three_interpolate_backward::reference {

// Batch `batch` of grad_features, [c, m], from grad_output [b, c, n] and
// indices / weights [b, n, 3]: grad_features[batch, ch, i] is the sum of
// grad_output[batch, ch, p] * weights[batch, p, k] over every (p, k) with
// indices[batch, p, k] == i. Indices outside [0, m) add nothing.
template <typename T>
std::vector<double> three_interpolate_backward_batch(const std::vector<T> &grad_output,
                                                     const std::vector<int32_t> &indices,
                                                     const std::vector<T> &weights, int batch,
                                                     int c, int n, int m) {
  std::vector<double> grad_features(size_t(c) * m, 0.0);
  const size_t neighbours = size_t(batch) * n * 3;
  for (int ch = 0; ch < c; ++ch) {
    const T *in = grad_output.data() + (size_t(batch) * c + ch) * n;
    double *out = grad_features.data() + size_t(ch) * m;
    for (int p = 0; p < n; ++p)
      for (int k = 0; k < 3; ++k) {
        const size_t at = neighbours + size_t(p) * 3 + k;
        const int32_t i = indices[at];
        if (i >= 0 && i < m)
          out[i] += static_cast<double>(in[p]) * static_cast<double>(weights[at]);
      }
  }
  return grad_features;
}

// All of grad_features, [b, c, m].
template <typename T>
std::vector<double> three_interpolate_backward(const std::vector<T> &grad_output,
                                               const std::vector<int32_t> &indices,
                                               const std::vector<T> &weights, int b, int c, int n,
                                               int m) {
  std::vector<double> grad_features;
  grad_features.reserve(size_t(b) * c * m);
  for (int batch = 0; batch < b; ++batch) {
    const std::vector<double> one =
        three_interpolate_backward_batch(grad_output, indices, weights, batch, c, n, m);
    grad_features.insert(grad_features.end(), one.begin(), one.end());
  }
  return grad_features;
}

}  // namespace mluop::three_interpolate_backward::reference
