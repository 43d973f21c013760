// Rearrangements of an NRAM matrix or feature map, element by element:
//  __bang_rotate90/180/270(dst, src, height, width): src is height x width
//    (row-major), turned clockwise by the angle; dst is width x height for 90
//    and 270. Clockwise as mlu-ops' active_rotated_filter needs it: its
//    indices move the top-left tap of a 3x3 filter to the top right.
//  __bang_mirror(dst, src, height, width): each row reversed (mlu-ops' FFT
//    mirrors the Hermitian half of a spectrum with it).
//  __bang_pad(dst, src, channel, height, width, pad_top, pad_bottom, pad_left,
//    pad_right): src is HWC; dst is (top + height + bottom) x (left + width +
//    right) x channel with zeros around src.
// Any dtype of 1, 2 or 4 bytes (they move elements, never compute with them);
// no in-place form; operands lie in the declared NRAM with no alignment rule
// for the rotations and the mirror (mlu-ops turns 3x3 filters at 36-byte
// offsets) and shaped ones for the pad. Vector pipe, the moved bytes.
#pragma once

#include <algorithm>
#include <string>

#include "mlusim/bang/detail/shaped.h"
#include "mlusim/bang/vector.h"

namespace mlusim::detail {

template <typename T>
constexpr bool is_element_size = sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4;

// Checks and charges a rearrangement of `elements` elements from src to dst;
// `aligned` asks for shaped operands, otherwise any place in declared NRAM.
template <typename T>
void rearrangement(const char *op, T *dst, const T *src, size_t src_elements,
                   size_t dst_elements, bool aligned) {
  static_assert(is_element_size<T>, "the rotations, mirror and pad take 1, 2 or 4-byte dtypes");
  CoreContext &c = this_core();
  const size_t src_bytes = src_elements * sizeof(T), dst_bytes = dst_elements * sizeof(T);
  if (aligned) {
    require_shaped(c, op, "src", Space::kNram, src, src_bytes, true);
    require_shaped(c, op, "dst", Space::kNram, dst, dst_bytes, false);
  } else {
    require_onchip(c, op, "src", Space::kNram, src, src_bytes);
    require_onchip(c, op, "dst", Space::kNram, dst, dst_bytes);
    check_read(c, op, src, src_bytes);
    check_write(c, op, dst, dst_bytes);
  }
  require_apart(op, dst, src, std::max(src_bytes, dst_bytes));
  charge_vector<T>(c, op, access_of(dst, dst_bytes, src, src_bytes, nullptr, 0),
                   std::max(src_bytes, dst_bytes), dst_elements);
}

// dst[to(i, j)] = src[i][j] over a height x width src.
template <typename T, typename To>
void turn(const char *op, T *dst, const T *src, int height, int width, To to) {
  const size_t h = checked_count(op, height), w = checked_count(op, width);
  rearrangement(op, dst, src, h * w, h * w, false);
  on_aligned(
      [&](T *d, const T *s) {
        for (size_t i = 0; i < h; ++i)
          for (size_t j = 0; j < w; ++j) d[to(i, j, h, w)] = s[i * w + j];
      },
      Operand{dst, h * w * sizeof(T)}, Operand{src, h * w * sizeof(T)});
}

}  // namespace mlusim::detail

template <typename T>
void __bang_rotate90(T *dst, const T *src, int height, int width) {
  mlusim::detail::turn("__bang_rotate90", dst, src, height, width,
                       [](size_t i, size_t j, size_t h, size_t) { return j * h + (h - 1 - i); });
}
template <typename T>
void __bang_rotate180(T *dst, const T *src, int height, int width) {
  mlusim::detail::turn("__bang_rotate180", dst, src, height, width,
                       [](size_t i, size_t j, size_t h, size_t w) {
                         return (h - 1 - i) * w + (w - 1 - j);
                       });
}
template <typename T>
void __bang_rotate270(T *dst, const T *src, int height, int width) {
  mlusim::detail::turn("__bang_rotate270", dst, src, height, width,
                       [](size_t i, size_t j, size_t h, size_t w) { return (w - 1 - j) * h + i; });
}
template <typename T>
void __bang_mirror(T *dst, const T *src, int height, int width) {
  mlusim::detail::turn("__bang_mirror", dst, src, height, width,
                       [](size_t i, size_t j, size_t, size_t w) { return i * w + (w - 1 - j); });
}

template <typename T>
void __bang_pad(T *dst, const T *src, int channel, int height, int width, int pad_top,
                int pad_bottom, int pad_left, int pad_right) {
  const char *op = "__bang_pad";
  using mlusim::detail::checked_count;
  const size_t c = checked_count(op, channel), h = checked_count(op, height),
               w = checked_count(op, width), top = checked_count(op, pad_top),
               bottom = checked_count(op, pad_bottom), left = checked_count(op, pad_left),
               right = checked_count(op, pad_right);
  const size_t out_w = left + w + right, out_h = top + h + bottom;
  mlusim::detail::rearrangement(op, dst, src, h * w * c, out_h * out_w * c, true);
  mlusim::detail::on_aligned(
      [&](T *d, const T *s) {
        std::fill(d, d + out_h * out_w * c, T(0));
        for (size_t y = 0; y < h; ++y)
          std::copy(s + y * w * c, s + (y + 1) * w * c, d + ((top + y) * out_w + left) * c);
      },
      mlusim::detail::Operand{dst, out_h * out_w * c * sizeof(T)},
      mlusim::detail::Operand{src, h * w * c * sizeof(T)});
}
