// Pooling over an NRAM feature map in HWC layout (channels innermost):
// src is [height][width][channel], dst is [out_h][out_w][channel] with
// out = (in - kernel) / stride + 1 (no padding). Strides come width first
// (stride_x, stride_y) as in Cambricon's declarations; the 7-argument forms
// stride by the kernel size. dst may be src (mlu-ops sums in place).
#pragma once

#include <algorithm>
#include <bit>
#include <cstring>
#include <vector>

#include "mlusim/bang/detail/shaped.h"
#include "mlusim/bang/vector.h"

namespace mlusim::detail {

// Folds each window with `combine` in float (the first element starts it);
// `average` divides by the window size.
template <typename T, typename Combine>
void pool(const char *op, T *dst, const T *src, int channel, int height, int width,
          int kernel_height, int kernel_width, int stride_x, int stride_y, bool average,
          Combine combine) {
  const size_t ch = positive(op, "channel", channel), h = positive(op, "height", height),
               w = positive(op, "width", width), kh = positive(op, "kernel_height", kernel_height),
               kw = positive(op, "kernel_width", kernel_width),
               sx = positive(op, "stride_x", stride_x), sy = positive(op, "stride_y", stride_y);
  const size_t oh = window_count(op, "height", h, kh, sy), ow = window_count(op, "width", w, kw, sx);
  CoreContext &c = this_core();
  require_shaped(c, op, "src", Space::kNram, src, h * w * ch * sizeof(T), true);
  require_shaped(c, op, "dst", Space::kNram, dst, oh * ow * ch * sizeof(T), false);
  const size_t work = oh * ow * kh * kw * ch;
  charge_vector<T>(c, op, dst, src, work * sizeof(T), work);

  const HeapHeld held(c);
  std::vector<float> out(oh * ow * ch);  // dst may be src: finish reading first
  const float scale = average ? 1.0f / static_cast<float>(kh * kw) : 1.0f;
  on_aligned(
      [&](T *d, const T *s) {
        for (size_t y = 0; y < oh; ++y, stop_if_asked(c, op))
          for (size_t x = 0; x < ow; ++x) {
            float *acc = &out[(y * ow + x) * ch];
            for (size_t ky = 0; ky < kh; ++ky)
              for (size_t kx = 0; kx < kw; ++kx) {
                const T *in = s + ((y * sy + ky) * w + (x * sx + kx)) * ch;
                const bool first = ky == 0 && kx == 0;
                for (size_t k = 0; k < ch; ++k) {
                  const float v = static_cast<float>(in[k]);
                  acc[k] = first ? v : combine(acc[k], v);
                }
              }
          }
        for (size_t i = 0; i < out.size(); ++i) d[i] = static_cast<T>(out[i] * scale);
      },
      Operand{dst, oh * ow * ch * sizeof(T)}, Operand{src, h * w * ch * sizeof(T)});
}

}  // namespace mlusim::detail

#define MLUSIM_POOL(name, average, combine)                                                     \
  template <typename T>                                                                         \
  void __bang_##name(T *dst, const T *src, int channel, int height, int width,                 \
                     int kernel_height, int kernel_width, int stride_x, int stride_y) {         \
    static_assert(mlusim::detail::is_float_or_half<T>,                                          \
                  "__bang_" #name ": mlusim has it for float and half only");                   \
    mlusim::detail::pool("__bang_" #name, dst, src, channel, height, width, kernel_height,     \
                         kernel_width, stride_x, stride_y, average,                             \
                         [](float a, float b) { return combine; });                             \
  }                                                                                             \
  template <typename T>                                                                         \
  void __bang_##name(T *dst, const T *src, int channel, int height, int width,                 \
                     int kernel_height, int kernel_width) {                                     \
    __bang_##name(dst, src, channel, height, width, kernel_height, kernel_width, kernel_width, \
                  kernel_height);                                                               \
  }
// The max- and min-pools compare as __bang_maximum and __bang_minimum do: a
// NaN never beats a number (a window of NaNs alone gives NaN), +0 is above -0.
MLUSIM_POOL(maxpool, false, (mlusim::detail::pick_extreme<true, false>(a, b)))
MLUSIM_POOL(minpool, false, (mlusim::detail::pick_extreme<false, false>(a, b)))
MLUSIM_POOL(sumpool, false, a + b)
MLUSIM_POOL(avgpool, true, a + b)
#undef MLUSIM_POOL

// The max-pool of __bang_maxpool (strides given) in dst, and, from byte
// value_index_stride of dst on, where each maximum lies inside its window
// (ky * kernel_width + kx, the first on ties, by __bang_maxpool's comparison)
// as uint32_t, in the same [out_h][out_w][channel] order: mlu-ops'
// box_iou_rotated reads them so.
// dst's two parts must not overlap; src may not be dst.
template <typename T>
void __bang_maxpool_value_index(T *dst, const T *src, int channel, int height, int width,
                                int kernel_height, int kernel_width, int stride_x, int stride_y,
                                int value_index_stride) {
  static_assert(mlusim::detail::is_float_or_half<T>,
                "__bang_maxpool_value_index: mlusim has it for float and half only");
  using namespace mlusim::detail;
  const char *op = "__bang_maxpool_value_index";
  const size_t ch = positive(op, "channel", channel), h = positive(op, "height", height),
               w = positive(op, "width", width), kh = positive(op, "kernel_height", kernel_height),
               kw = positive(op, "kernel_width", kernel_width),
               sx = positive(op, "stride_x", stride_x), sy = positive(op, "stride_y", stride_y);
  const size_t oh = window_count(op, "height", h, kh, sy);
  const size_t ow = window_count(op, "width", w, kw, sx);
  const size_t outputs = oh * ow * ch, value_bytes = outputs * sizeof(T);
  const size_t index_offset = checked_count(op, value_index_stride);
  if (index_offset < value_bytes)
    fault(mlusim::this_core(), std::string(op) + ": value_index_stride " +
                                   std::to_string(index_offset) + " is inside the " +
                                   std::to_string(value_bytes) + " bytes of pooled values");
  // The indices need not be 4-byte aligned (half values, odd channel counts).
  std::byte *indices = reinterpret_cast<std::byte *>(dst) + index_offset;
  mlusim::CoreContext &c = mlusim::this_core();
  require_shaped(c, op, "src", mlusim::Space::kNram, src, h * w * ch * sizeof(T), true);
  require_shaped(c, op, "dst", mlusim::Space::kNram, dst, value_bytes, false);
  mlusim::require_onchip(c, op, "dst indices", mlusim::Space::kNram, indices, outputs * 4);
  mlusim::check_write(c, op, indices, outputs * 4);
  require_apart(op, dst, src, std::max(h * w * ch * sizeof(T), index_offset + outputs * 4));
  const size_t work = outputs * kh * kw;
  charge_vector<T>(c, op, mlusim::access_of(dst, index_offset + outputs * 4, src,
                                            h * w * ch * sizeof(T), nullptr, 0),
                   work * sizeof(T), work);
  on_aligned(
      [&](T *d, const T *s) {
        for (size_t y = 0; y < oh; ++y)
          for (size_t x = 0; x < ow; ++x)
            for (size_t k = 0; k < ch; ++k) {
              size_t best = 0;
              float best_value = static_cast<float>(s[((y * sy) * w + x * sx) * ch + k]);
              for (size_t at = 1; at < kh * kw; ++at) {
                const float v =
                    static_cast<float>(s[((y * sy + at / kw) * w + (x * sx + at % kw)) * ch + k]);
                // __bang_maxpool's rule; a value equal to the best keeps the first.
                const float larger = pick_extreme<true, false>(best_value, v);
                if (std::bit_cast<uint32_t>(larger) != std::bit_cast<uint32_t>(best_value))
                  best = at, best_value = larger;
              }
              d[(y * ow + x) * ch + k] = static_cast<T>(best_value);
              const auto at = static_cast<uint32_t>(best);
              std::memcpy(indices + ((y * ow + x) * ch + k) * sizeof(at), &at, sizeof(at));
            }
      },
      Operand{dst, value_bytes}, Operand{src, h * w * ch * sizeof(T)});
}
