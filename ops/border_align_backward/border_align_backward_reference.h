// CPU reference of border_align_backward: mmcv's CUDA kernel as plain loops,
// one (box, border, channel) at a time, accumulated in double. For tests,
// benchmarks and the demo only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace mluop::border_align_backward::reference {

struct Shape {
  int N, H, W, C, pool_size;  // K = H * W boxes per image
  int K() const { return H * W; }
};

// grad_output [N,K,4,C], boxes [N,K,4] (x0,y0,x1,y1), argmax_idx [N,K,4,C]
// -> grad_input [N,H,W,4C], channel border * C + c (border 0 top, 1 left,
// 2 bottom, 3 right). Half inputs arrive already rounded to half.
// The contract this API adds to mmcv: an argmax outside [0, pool_size] and a
// point outside [-1,H] x [-1,W] contribute nothing.
inline std::vector<double> border_align_backward(const Shape &s,
                                                 const std::vector<float> &grad_output,
                                                 const std::vector<float> &boxes,
                                                 const std::vector<int32_t> &argmax_idx) {
  const int K = s.K(), C = s.C, P = s.pool_size;
  std::vector<double> grad_input(static_cast<size_t>(s.N) * K * 4 * C, 0.0);
  for (int n = 0; n < s.N; ++n) {
    for (int k = 0; k < K; ++k) {
      const float *box = &boxes[(static_cast<size_t>(n) * K + k) * 4];
      for (int border = 0; border < 4; ++border) {
        // The sample point in float, as mmcv's float kernel computes it, so that
        // floor() and the map-edge tests see the same value as any float kernel.
        const float width = box[2] - box[0], height = box[3] - box[1];
        const float x_start = border < 2 ? box[0] : box[2];
        const float y_start = border < 2 ? box[1] : box[3];
        const float x_stride = border == 0 ? width / P : border == 2 ? -width / P : 0.0f;
        const float y_stride = border == 1 ? height / P : border == 3 ? -height / P : 0.0f;
        for (int c = 0; c < C; ++c) {
          const size_t at = ((static_cast<size_t>(n) * K + k) * 4 + border) * C + c;
          const int idx = argmax_idx[at];
          if (idx < 0 || idx > P) continue;
          const float xf = x_start + x_stride * static_cast<float>(idx);
          const float yf = y_start + y_stride * static_cast<float>(idx);
          if (!(yf >= -1.0f && yf <= s.H && xf >= -1.0f && xf <= s.W)) continue;
          double y = yf < 0 ? 0.0 : yf, x = xf < 0 ? 0.0 : xf;
          int y0 = static_cast<int>(y), x0 = static_cast<int>(x), y1 = y0 + 1, x1 = x0 + 1;
          if (y0 >= s.H - 1) y = y0 = y1 = s.H - 1;
          if (x0 >= s.W - 1) x = x0 = x1 = s.W - 1;
          const double ly = y - y0, lx = x - x0, hy = 1 - ly, hx = 1 - lx;
          const double g = grad_output[at];
          auto add = [&](int yy, int xx, double w) {
            grad_input[((static_cast<size_t>(n) * s.H + yy) * s.W + xx) * 4 * C + border * C + c] +=
                g * w;
          };
          add(y0, x0, hy * hx);
          add(y0, x1, hy * lx);
          add(y1, x0, ly * hx);
          add(y1, x1, ly * lx);
        }
      }
    }
  }
  return grad_input;
}

}  // namespace mluop::border_align_backward::reference
