// deform_roi_pool_forward as a plain OpenMP CPU program: one output point per
// loop iteration, float accumulation (half rows converted as they are read),
// no simulator. The host-time yardstick of the benchmark.
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

#include "perf/common/float_rows.h"

namespace mluop::deform_roi_pool_forward::omp {

template <typename T>
void deform_roi_pool_forward(const T *input, const T *rois, const T *offset, T *output,
                             int batches, int height, int width, int channels, int num_rois,
                             int pooled_height, int pooled_width, float spatial_scale,
                             int sampling_ratio, float gamma) {
  const int bins = num_rois * pooled_height * pooled_width;
#pragma omp parallel
  {
    std::vector<float> sum(static_cast<size_t>(channels)), room(4 * sum.size());
#pragma omp for schedule(dynamic, 16)
    for (int bin = 0; bin < bins; ++bin) {
      const int pw = bin % pooled_width, ph = bin / pooled_width % pooled_height;
      const int n = bin / pooled_width / pooled_height;
      const T *roi = rois + static_cast<size_t>(n) * 5;
      const float batch = static_cast<float>(roi[0]);
      float start_w = static_cast<float>(roi[1]) * spatial_scale - 0.5f;
      float start_h = static_cast<float>(roi[2]) * spatial_scale - 0.5f;
      const float roi_w = static_cast<float>(roi[3]) * spatial_scale - 0.5f - start_w;
      const float roi_h = static_cast<float>(roi[4]) * spatial_scale - 0.5f - start_h;
      const float bin_h = roi_h / pooled_height, bin_w = roi_w / pooled_width;
      const float gh = sampling_ratio > 0 ? sampling_ratio : std::ceil(roi_h / pooled_height);
      const float gw = sampling_ratio > 0 ? sampling_ratio : std::ceil(roi_w / pooled_width);
      const int grid_h = gh > 0 ? static_cast<int>(gh) : 0, grid_w = gw > 0 ? static_cast<int>(gw) : 0;
      if (offset != nullptr) {
        const T *o = offset + static_cast<size_t>(n) * 2 * pooled_height * pooled_width +
                     ph * pooled_width + pw;
        start_w += gamma * roi_w * static_cast<float>(o[0]);
        start_h += gamma * roi_h * static_cast<float>(o[pooled_height * pooled_width]);
      }
      std::fill(sum.begin(), sum.end(), 0.0f);
      const bool readable = batch > -1 && batch < batches;
      const T *image = input + static_cast<size_t>(readable ? batch : 0) * height * width * channels;
      // Pixel (y, x)'s channels as float (half ones converted into corner k's room).
      auto corner = [&](int y, int x, int k) {
        return mlusim::perf::as_float(image + (static_cast<size_t>(y) * width + x) * channels,
                                      room.data() + size_t(k) * channels, channels);
      };
      for (int iy = 0; readable && iy < grid_h; ++iy) {
        float y = start_h + ph * bin_h + (iy + .5f) * bin_h / grid_h;
        if (y < -1 || y > height) continue;
        y = std::max(y, 0.0f);
        int y0 = static_cast<int>(y), y1 = y0 + 1;
        if (y0 >= height - 1) y0 = y1 = height - 1, y = static_cast<float>(y0);
        for (int ix = 0; ix < grid_w; ++ix) {
          float x = start_w + pw * bin_w + (ix + .5f) * bin_w / grid_w;
          if (x < -1 || x > width) continue;
          x = std::max(x, 0.0f);
          int x0 = static_cast<int>(x), x1 = x0 + 1;
          if (x0 >= width - 1) x0 = x1 = width - 1, x = static_cast<float>(x0);
          const float ly = y - y0, lx = x - x0, hy = 1 - ly, hx = 1 - lx;
          const float w1 = hy * hx, w2 = hy * lx, w3 = ly * hx, w4 = ly * lx;
          const float *v1 = corner(y0, x0, 0), *v2 = corner(y0, x1, 1), *v3 = corner(y1, x0, 2),
                      *v4 = corner(y1, x1, 3);
          for (int c = 0; c < channels; ++c)
            sum[c] += w1 * v1[c] + w2 * v2[c] + w3 * v3[c] + w4 * v4[c];
        }
      }
      const float inv = 1.0f / std::max(grid_h * grid_w, 1);
      for (float &s : sum) s *= inv;
      mlusim::perf::store_as(sum.data(), output + static_cast<size_t>(bin) * channels, channels);
    }
  }
}

}  // namespace mluop::deform_roi_pool_forward::omp
