// CPU reference of mmcv's masked_im2col (the loop of its CUDA kernel), for
// tests, benchmarks and the demo: plain loops, 64-bit index arithmetic.
#pragma once

#include <cstdint>
#include <vector>

namespace mluop::masked_im2col_forward::reference {

// feature [C, H, W]; returns data_col [C*kernel_h*kernel_w, mask_cnt] with
// data_col[(c*kernel_h + i)*kernel_w + j][m] =
//   feature[c][h_idx[m] - pad_h + i][w_idx[m] - pad_w + j], 0 outside the feature.
template <typename T>
std::vector<T> masked_im2col_forward(const std::vector<T> &feature, int channels, int height,
                                     int width, const std::vector<int32_t> &mask_h_idx,
                                     const std::vector<int32_t> &mask_w_idx, int kernel_h,
                                     int kernel_w, int pad_h, int pad_w) {
  const int64_t mask_cnt = static_cast<int64_t>(mask_h_idx.size());
  std::vector<T> data_col(static_cast<size_t>(channels) * kernel_h * kernel_w * mask_cnt);
  for (int64_t c = 0; c < channels; ++c) {
    for (int64_t m = 0; m < mask_cnt; ++m) {
      const int64_t h_offset = int64_t{mask_h_idx[m]} - pad_h;
      const int64_t w_offset = int64_t{mask_w_idx[m]} - pad_w;
      for (int64_t i = 0; i < kernel_h; ++i) {
        for (int64_t j = 0; j < kernel_w; ++j) {
          const int64_t h = h_offset + i, w = w_offset + j;
          const bool inside = h >= 0 && w >= 0 && h < height && w < width;
          data_col[((c * kernel_h + i) * kernel_w + j) * mask_cnt + m] =
              inside ? feature[(c * height + h) * width + w] : T(0);
        }
      }
    }
  }
  return data_col;
}

}  // namespace mluop::masked_im2col_forward::reference
