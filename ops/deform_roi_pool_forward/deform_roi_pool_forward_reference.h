// CPU reference of deform_roi_pool_forward for tests, benchmarks and the demo:
// mmcv's DeformRoIPool forward written out as plain loops. Coordinates follow
// mmcv's float arithmetic (its kernel runs in T = float); values are
// interpolated and summed in double.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

namespace mluop::deform_roi_pool_forward::reference {

struct Shape {
  int batches, height, width, channels;
  int num_rois, pooled_height, pooled_width;
};

// input [B,H,W,C] NHWC, rois [R,5] (batch, x1, y1, x2, y2), offset
// [R,2,ph,pw] or nullptr -> output [R,ph,pw,C]. A roi whose batch index does
// not truncate into [0, B), or an empty map (H or W 0), gives zeros.
inline std::vector<double> deform_roi_pool_forward(const Shape &s,
                                                   const std::vector<float> &input,
                                                   const std::vector<float> &rois,
                                                   const std::vector<float> *offset,
                                                   float spatial_scale, int sampling_ratio,
                                                   float gamma) {
  const int B = s.batches, H = s.height, W = s.width, C = s.channels;
  const int PH = s.pooled_height, PW = s.pooled_width;
  std::vector<double> output(static_cast<size_t>(s.num_rois) * PH * PW * C, 0.0);
  std::vector<double> sum(static_cast<size_t>(C));
  for (int n = 0; n < s.num_rois; ++n) {
    const float *roi = &rois[static_cast<size_t>(n) * 5];
    const float start_w0 = roi[1] * spatial_scale - 0.5f;
    const float start_h0 = roi[2] * spatial_scale - 0.5f;
    const float end_w = roi[3] * spatial_scale - 0.5f;
    const float end_h = roi[4] * spatial_scale - 0.5f;
    const float roi_width = end_w - start_w0, roi_height = end_h - start_h0;
    const float bin_size_h = roi_height / static_cast<float>(PH);
    const float bin_size_w = roi_width / static_cast<float>(PW);
    // Adaptive grid: ceil(roi / pooled); NaN, Inf or non-positive: no samples.
    auto grid = [&](float extent, int pooled) {
      if (sampling_ratio > 0) return sampling_ratio;
      const float g = std::ceil(extent / static_cast<float>(pooled));
      return (std::isfinite(g) && g > 0) ? static_cast<int>(g) : 0;
    };
    const int grid_h = grid(roi_height, PH), grid_w = grid(roi_width, PW);
    const double count = std::max(static_cast<double>(grid_h) * grid_w, 1.0);
    const bool readable = roi[0] > -1.0f && roi[0] < static_cast<float>(B) && H > 0 && W > 0;
    if (!readable) continue;
    const float *image = &input[static_cast<size_t>(static_cast<int>(roi[0])) * H * W * C];

    for (int ph = 0; ph < PH; ++ph) {
      for (int pw = 0; pw < PW; ++pw) {
        float start_w = start_w0, start_h = start_h0;
        if (offset != nullptr) {
          const size_t at = static_cast<size_t>(n) * 2 * PH * PW + static_cast<size_t>(ph) * PW + pw;
          start_w += gamma * roi_width * (*offset)[at];
          start_h += gamma * roi_height * (*offset)[at + static_cast<size_t>(PH) * PW];
        }
        std::fill(sum.begin(), sum.end(), 0.0);
        for (int iy = 0; iy < grid_h; ++iy) {
          float y = start_h + ph * bin_size_h +
                    static_cast<float>(iy + .5f) * bin_size_h / static_cast<float>(grid_h);
          for (int ix = 0; ix < grid_w; ++ix) {
            float x = start_w + pw * bin_size_w +
                      static_cast<float>(ix + .5f) * bin_size_w / static_cast<float>(grid_w);
            // mmcv's bilinear_interpolate: 0 outside [-1, H] x [-1, W], then
            // clamp to the border.
            float yy = y, xx = x;
            if (!(yy >= -1.0f && yy <= H && xx >= -1.0f && xx <= W)) continue;
            if (yy <= 0) yy = 0;
            if (xx <= 0) xx = 0;
            int y0 = static_cast<int>(yy), x0 = static_cast<int>(xx), y1, x1;
            if (y0 >= H - 1) {
              y1 = y0 = H - 1;
              yy = static_cast<float>(y0);
            } else {
              y1 = y0 + 1;
            }
            if (x0 >= W - 1) {
              x1 = x0 = W - 1;
              xx = static_cast<float>(x0);
            } else {
              x1 = x0 + 1;
            }
            const float ly = yy - y0, lx = xx - x0, hy = 1.0f - ly, hx = 1.0f - lx;
            const double w[4] = {hy * hx, hy * lx, ly * hx, ly * lx};
            const float *p[4] = {&image[(static_cast<size_t>(y0) * W + x0) * C],
                                 &image[(static_cast<size_t>(y0) * W + x1) * C],
                                 &image[(static_cast<size_t>(y1) * W + x0) * C],
                                 &image[(static_cast<size_t>(y1) * W + x1) * C]};
            for (int c = 0; c < C; ++c)
              sum[c] += w[0] * p[0][c] + w[1] * p[1][c] + w[2] * p[2][c] + w[3] * p[3][c];
          }
        }
        double *out = &output[((static_cast<size_t>(n) * PH + ph) * PW + pw) * C];
        for (int c = 0; c < C; ++c) out[c] = sum[c] / count;
      }
    }
  }
  return output;
}

}  // namespace mluop::deform_roi_pool_forward::reference
