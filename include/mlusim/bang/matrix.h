// The matrix unit: __bang_matmul and __bang_conv. The left operand / input
// feature map is in NRAM, the weights in WRAM, the result in NRAM.
//
// Layouts:
//   matmul: dst[m][n] = sum_k src[m][k] * weights[n][k]  (weights stored one
//           output column per row, as a 1x1 conv filter [n][1][1][k]; what
//           __bang_reshape_filter leaves, which mlusim copies unchanged).
//   conv:   src [height][width][ci] (HWC), dst [out_h][out_w][co],
//           out = (in - kernel) / stride + 1, no padding; strides come width
//           first (stride_x, stride_y). The kernel [co][kh][kw][ci] is read
//           from WRAM's 64 lanes (LT): output channel co from lane co % 64,
//           each lane a 64th of WRAM (WRAM_LT_STRIDE), its co / 64-th row of
//           kh*kw*ci elements padded to 64 bytes (WRAM_ALIGN_SIZE). This is
//           the layout mlu-ops' kernels write for __bang_conv (kernel.h's
//           WRAM_LT_STRIDE, ms_deform_attn_forward's tileWeight2Wram);
//           docs/bang_c.md says what is a guess.
// Float forms take float or half operands (both sources the same dtype) and
// accumulate in float. Fixed-point forms take int16 / int8 operands and a
// fix_position: result = (exact integer sum) * 2^fix_position, where
// fix_position is the sum of the operands' positions (value = int * 2^pos).
// The 13-argument conv adds a per-output-channel bias (NRAM, dst dtype)
// after scaling.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "mlusim/bang/detail/issue.h"
#include "mlusim/bang/detail/shaped.h"
#include "mlusim/bang/vector.h"

namespace mlusim::detail {

template <typename T>
constexpr bool is_fixed_point = std::is_same_v<T, int16_t> || std::is_same_v<T, int8_t>;

// The matrix unit's operand class, set by the wider source (docs/cost_model.md).
template <typename S, typename K>
constexpr MatrixRate matrix_rate() {
  constexpr bool fp = std::is_floating_point_v<S> || std::is_floating_point_v<K> ||
                      std::is_same_v<S, half> || std::is_same_v<K, half>;
  constexpr size_t wider = sizeof(S) > sizeof(K) ? sizeof(S) : sizeof(K);
  if constexpr (wider == 4) return kMatrixFloat;
  else if constexpr (fp) return kMatrixHalf;
  else return wider == 2 ? kMatrixInt16 : kMatrixInt8;
}

// A source operand as the accumulator reads it: float for float and half
// (half widened once, up front), the integer itself for fixed point.
template <typename S>
auto widened(const S *p, size_t n) {
  if constexpr (std::is_same_v<S, half>) {
    std::vector<float> out(n);
    half_to_float(out.data(), p, n);
    return out;
  } else {
    return std::vector<S>(p, p + n);
  }
}

// The accumulator: exact for fixed point (an int64 sum fits a double's
// mantissa for any operand an on-chip buffer holds), float otherwise.
template <typename S>
using Accumulator = std::conditional_t<is_fixed_point<S>, int64_t, float>;

// Eight partial sums: independent chains the host can overlap or vectorise
// (a plain float loop waits on every add). The device's summation order is
// not documented; this is one valid order.
template <typename S, typename K>
Accumulator<S> dot(const S *a, const K *b, size_t n) {
  using Acc = Accumulator<S>;
  constexpr size_t kLanes = 8;
  Acc lane[kLanes] = {};
  size_t i = 0;
  for (; i + kLanes <= n; i += kLanes)
    for (size_t j = 0; j < kLanes; ++j)
      lane[j] += static_cast<Acc>(a[i + j]) * static_cast<Acc>(b[i + j]);
  for (; i < n; ++i) lane[0] += static_cast<Acc>(a[i]) * static_cast<Acc>(b[i]);
  return ((lane[0] + lane[1]) + (lane[2] + lane[3])) + ((lane[4] + lane[5]) + (lane[6] + lane[7]));
}

template <typename D, typename S, typename K>
constexpr void check_matrix_dtypes() {
  static_assert(is_float_or_half<D>, "__bang_matmul/__bang_conv: mlusim writes float or half");
  static_assert((is_float_or_half<S> && std::is_same_v<S, K>) ||
                    (is_fixed_point<S> && is_fixed_point<K>),
                "__bang_matmul/__bang_conv: sources are both float, both half, or int16/int8 "
                "(fixed point, with a fix_position)");
}

struct ConvShape {
  size_t ci, h, w, kh, kw, sx, sy, co, oh, ow;
};

// Where each output channel's weights start in WRAM, in bytes from the
// kernel operand: packed rows (matmul) or WRAM's 64 lanes (conv, above).
struct KernelRows {
  size_t lane_stride = 0;  // 0: rows packed one after another
  size_t row_bytes = 0;

  static constexpr size_t kLanes = 64, kRowAlign = 64;

  size_t offset(size_t o) const {
    return lane_stride == 0 ? o * row_bytes
                            : (o % kLanes) * lane_stride + (o / kLanes) * row_bytes;
  }
  // The bytes from the operand's start to the end of its last row.
  size_t span(size_t co, size_t window_bytes) const {
    size_t end = 0;
    for (size_t o = co > kLanes ? co - kLanes : 0; o < co; ++o)
      end = std::max(end, offset(o) + window_bytes);
    return end;
  }
};

inline KernelRows packed_rows(size_t window_bytes) { return KernelRows{0, window_bytes}; }
inline KernelRows lane_rows(const CoreContext &c, size_t window_bytes) {
  const size_t padded = (window_bytes + KernelRows::kRowAlign - 1) / KernelRows::kRowAlign *
                        KernelRows::kRowAlign;
  return KernelRows{c.wram_capacity / KernelRows::kLanes, padded};
}

// The kernel's rows gathered into [co][window] order.
template <typename K>
std::vector<K> gather_rows(const K *kernel, const KernelRows &rows, size_t co, size_t window) {
  std::vector<K> out(co * window);
  const auto *base = reinterpret_cast<const std::byte *>(kernel);
  for (size_t o = 0; o < co; ++o)
    std::memcpy(&out[o * window], base + rows.offset(o), window * sizeof(K));
  return out;
}

inline ConvShape conv_shape(const char *op, int ci, int h, int w, int kh, int kw, int sx, int sy,
                            int co) {
  ConvShape s{positive(op, "channel_input", ci), positive(op, "height", h),
              positive(op, "width", w), positive(op, "kernel_height", kh),
              positive(op, "kernel_width", kw), positive(op, "stride_x", sx),
              positive(op, "stride_y", sy), positive(op, "channel_output", co), 0, 0};
  s.oh = window_count(op, "height", s.h, s.kh, s.sy);
  s.ow = window_count(op, "width", s.w, s.kw, s.sx);
  return s;
}

// A matmul is a 1x1 conv over an m x 1 map of k channels into n channels.
inline ConvShape matmul_shape(const char *op, int m, int k, int n) {
  const size_t rows = positive(op, "m", m);
  return ConvShape{positive(op, "k", k), rows, 1, 1, 1, 1, 1, positive(op, "n", n), rows, 1};
}

// The multiply-adds the matrix unit spends on a conv: it reduces input
// channels in blocks of 64 bytes and produces output channels 64 at a time
// (mlu-ops' kernels lay WRAM out so: WRAM_ALIGN_SIZE 64 bytes of ci, LT_NUM 64
// of co), so a partial block costs a whole one.
inline double block_macs(const ConvShape &s, size_t operand_bytes) {
  constexpr size_t kCiBlockBytes = 64, kCoBlock = 64;
  const size_t ci_block = kCiBlockBytes / operand_bytes;
  const size_t ci = (s.ci + ci_block - 1) / ci_block * ci_block;
  const size_t co = (s.co + kCoBlock - 1) / kCoBlock * kCoBlock;
  return static_cast<double>(s.oh * s.ow * s.kh * s.kw) * static_cast<double>(ci * co);
}

template <typename D, typename S, typename K>
void conv(const char *op, D *dst, const S *src, const K *kernel, const D *bias, const ConvShape &s,
          int fix_position, bool lanes) {
  check_matrix_dtypes<D, S, K>();
  CoreContext &c = this_core();
  const size_t window = s.kh * s.kw * s.ci;
  const KernelRows rows =
      lanes ? lane_rows(c, window * sizeof(K)) : packed_rows(window * sizeof(K));
  const size_t kernel_bytes = rows.span(s.co, window * sizeof(K));
  require_shaped(c, op, "src", Space::kNram, src, s.h * s.w * s.ci * sizeof(S), true);
  require_shaped(c, op, "kernel", Space::kWram, kernel, kernel_bytes, true);
  if (bias != nullptr)
    require_shaped(c, op, "bias", Space::kNram, bias, s.co * sizeof(D), true);
  require_shaped(c, op, "dst", Space::kNram, dst, s.oh * s.ow * s.co * sizeof(D), false);
  const TensorOperand in_op{src, s.h * s.w * s.ci * sizeof(S), Space::kNram};
  const TensorOperand kernel_op{kernel, kernel_bytes, Space::kWram};
  const TensorOperand out_op{dst, s.oh * s.ow * s.co * sizeof(D), Space::kNram};
  const double macs = block_macs(s, sizeof(S) > sizeof(K) ? sizeof(S) : sizeof(K));
  if (bias != nullptr)
    issue_tensor(op, out_op, {in_op, kernel_op, {bias, s.co * sizeof(D), Space::kNram}}, macs,
                 matrix_rate<S, K>());
  else
    issue_tensor(op, out_op, {in_op, kernel_op}, macs, matrix_rate<S, K>());

  const HeapHeld held(c);
  on_aligned(
      [&](D *d, const S *in_map, const K *filter, const D *bias_on) {
        const auto in = widened(in_map, s.h * s.w * s.ci);
        std::vector<K> gathered;  // a conv's lanes in [co][window] order; a matmul's rows are
        const K *packed = filter;
        if (rows.lane_stride != 0) {
          gathered = gather_rows(filter, rows, s.co, window);
          packed = gathered.data();
        }
        const auto weights = widened(packed, s.co * window);
        std::vector<D> out(s.oh * s.ow * s.co);  // dst may overlap src: finish reading first
        for (size_t y = 0; y < s.oh; ++y, stop_if_asked(c, op))
          for (size_t x = 0; x < s.ow; ++x)
            for (size_t o = 0; o < s.co; ++o) {
              Accumulator<S> sum = 0;
              for (size_t ky = 0; ky < s.kh; ++ky)
                for (size_t kx = 0; kx < s.kw; ++kx)
                  sum += dot(&in[((y * s.sy + ky) * s.w + x * s.sx + kx) * s.ci],
                             &weights[((o * s.kh + ky) * s.kw + kx) * s.ci], s.ci);
              double value = std::ldexp(static_cast<double>(sum), fix_position);
              if (bias_on != nullptr) value += static_cast<double>(bias_on[o]);
              out[(y * s.ow + x) * s.co + o] = static_cast<D>(value);
            }
        std::copy(out.begin(), out.end(), d);
      },
      Operand{dst, out_op.bytes}, Operand{src, in_op.bytes}, Operand{kernel, kernel_op.bytes},
      Operand{bias, bias != nullptr ? s.co * sizeof(D) : 0});
}

}  // namespace mlusim::detail

// dst[m][n] = src[m][k] * weights (WRAM, [n][k]); float or half sources.
template <typename D, typename S, typename K>
void __bang_matmul(D *dst, const S *src, const K *weights, int m, int k, int n) {
  static_assert(mlusim::detail::is_float_or_half<S>,
                "__bang_matmul: int16/int8 sources take a fix_position (7 arguments)");
  const char *op = "__bang_matmul";
  const auto s = mlusim::detail::matmul_shape(op, m, k, n);
  mlusim::detail::conv(op, dst, src, weights, static_cast<const D *>(nullptr), s, 0, false);
}
// Fixed point: dst = (src * weights) * 2^fix_position.
template <typename D, typename S, typename K>
void __bang_matmul(D *dst, const S *src, const K *weights, int m, int k, int n, int fix_position) {
  static_assert(mlusim::detail::is_fixed_point<S>,
                "__bang_matmul: float and half sources take no fix_position (6 arguments)");
  const char *op = "__bang_matmul";
  const auto s = mlusim::detail::matmul_shape(op, m, k, n);
  mlusim::detail::conv(op, dst, src, weights, static_cast<const D *>(nullptr), s, fix_position,
                       false);
}

template <typename D, typename S, typename K>
void __bang_conv(D *dst, const S *src, const K *kernel, int channel_input, int height, int width,
                 int kernel_height, int kernel_width, int stride_x, int stride_y,
                 int channel_output) {
  static_assert(mlusim::detail::is_float_or_half<S>,
                "__bang_conv: int16/int8 sources take a fix_position (12 arguments)");
  const char *op = "__bang_conv";
  const auto s = mlusim::detail::conv_shape(op, channel_input, height, width, kernel_height,
                                            kernel_width, stride_x, stride_y, channel_output);
  mlusim::detail::conv(op, dst, src, kernel, static_cast<const D *>(nullptr), s, 0, true);
}
template <typename D, typename S, typename K>
void __bang_conv(D *dst, const S *src, const K *kernel, int channel_input, int height, int width,
                 int kernel_height, int kernel_width, int stride_x, int stride_y,
                 int channel_output, int fix_position) {
  static_assert(mlusim::detail::is_fixed_point<S>,
                "__bang_conv: float and half sources take no fix_position (11 arguments)");
  const char *op = "__bang_conv";
  const auto s = mlusim::detail::conv_shape(op, channel_input, height, width, kernel_height,
                                            kernel_width, stride_x, stride_y, channel_output);
  mlusim::detail::conv(op, dst, src, kernel, static_cast<const D *>(nullptr), s, fix_position,
                       true);
}
template <typename D, typename S, typename K>
void __bang_conv(D *dst, const S *src, const K *kernel, const D *bias, int channel_input,
                 int height, int width, int kernel_height, int kernel_width, int stride_x,
                 int stride_y, int channel_output, int fix_position) {
  static_assert(mlusim::detail::is_fixed_point<S>,
                "__bang_conv with bias: mlusim has the fixed-point form (int16/int8 sources)");
  const char *op = "__bang_conv";
  const auto s = mlusim::detail::conv_shape(op, channel_input, height, width, kernel_height,
                                            kernel_width, stride_x, stride_y, channel_output);
  mlusim::detail::conv(op, dst, src, kernel, bias, s, fix_position, true);
}

// Rearranges an NRAM filter [n][h][w][c] into the order the matrix unit reads
// from WRAM after a plain copy there. mlu-ops' fft copies its result into WRAM
// whole and hands it to __bang_matmul, which mlusim reads as packed rows, so
// this copies src to dst unchanged (no in-place form); shaped NRAM operands,
// vector pipe.
template <typename T>
void __bang_reshape_filter(T *dst, const T *src, int n, int h, int w, int c) {
  static_assert(mlusim::detail::is_float_or_half<T> || mlusim::detail::is_fixed_point<T>,
                "__bang_reshape_filter: float, half, int16 and int8 filters");
  const char *op = "__bang_reshape_filter";
  using mlusim::detail::positive;
  const size_t elements =
      positive(op, "n", n) * positive(op, "h", h) * positive(op, "w", w) * positive(op, "c", c);
  const size_t bytes = elements * sizeof(T);
  mlusim::CoreContext &core = mlusim::this_core();
  mlusim::detail::require_shaped(core, op, "src", mlusim::Space::kNram, src, bytes, true);
  mlusim::detail::require_shaped(core, op, "dst", mlusim::Space::kNram, dst, bytes, false);
  mlusim::detail::require_apart(op, dst, src, bytes);
  mlusim::detail::charge_vector<T>(core, op, dst, src, bytes, elements);
  std::memcpy(dst, src, bytes);
}
