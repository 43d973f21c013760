// border_align_backward on the simulated MLU, shaped as design doc section 3:
// the N*K*4 borders split evenly over the cores, pool_size + 1 points per
// border, the channels in chunks of deal_num, and for every point the four
// bilinear corners accumulated into grad_input with the vector atomic add.
#include "ops/border_align_backward/border_align_backward_kernel.h"

#include <algorithm>

#include "ops/common/kernel.h"

namespace {

using border_align_backward::kAlignBytes;
using border_align_backward::kBoxBytes;
using border_align_backward::kTableBytes;

enum Border { kTop = 0, kLeft = 1, kBottom = 2, kRight = 3 };

// Doc 3.3: `total` items over taskDim; the remainder goes one each to the first tasks.
__mlu_func__ void split_evenly(int64_t total, int64_t *start, int64_t *count) {
  const int64_t base = total / taskDim, rem = total % taskDim;
  *count = base + (taskId < rem ? 1 : 0);
  *start = taskId * base + std::min<int64_t>(taskId, rem);
}

// The mask LUT's entries: int32 masks for float, int16 for half (same width as T).
template <typename T>
using MaskBits = std::conditional_t<sizeof(T) == 4, int32_t, int16_t>;
template <typename T>
constexpr int kTableLen = kTableBytes / sizeof(MaskBits<T>);

// NRAM as carved here (docs/ops/border_align_backward.md has the diagram):
// | box 128 B | mask LUT 128 B | argmax int32 | grad_output T | scratch 4 B | masked T |
// with deal_num channels in each per-channel buffer.
template <typename T>
struct Nram {
  T *box;                  // x0, y0, x1, y1 of the current box
  MaskBits<T> *table;      // {0, all ones, 0, ...}: compare result -> bit mask
  int32_t *argmax;         // the chunk's argmax_idx
  T *grad_output;          // the chunk's grad_output
  int32_t *scratch;        // (argmax == i) as int32, then one corner's product (T)
  T *masked;               // grad_output of the channels that picked point i, else 0
};

template <typename T>
__mlu_func__ Nram<T> carve_nram(char *base, int deal) {
  Nram<T> nram;
  nram.box = reinterpret_cast<T *>(base);
  nram.table = reinterpret_cast<MaskBits<T> *>(base + kBoxBytes);
  char *channels = base + kBoxBytes + kTableBytes;
  nram.argmax = reinterpret_cast<int32_t *>(channels);
  nram.grad_output = reinterpret_cast<T *>(nram.argmax + deal);
  nram.scratch = reinterpret_cast<int32_t *>(nram.grad_output + deal);
  nram.masked = reinterpret_cast<T *>(nram.scratch + deal);
  return nram;
}

// mlu-ops' LUT ({0, 0xffffffff} / {0, 0xffff}): turns the 1/0 of a compare into all-ones/zero bits.
template <typename T>
__mlu_func__ void init_mask_table(MaskBits<T> *table) {
  __bang_write_value(table, kTableLen<T>, MaskBits<T>(0));
  table[1] = MaskBits<T>(-1);
}

// Where a border's points lie (doc 3.2, mmcv): top and left start at (x0, y0),
// bottom and right at (x1, y1); top walks +x, left +y, bottom -x, right -y, in
// pool_size steps of the box's width or height. Computed in float for both dtypes.
struct BorderLine {
  float x, y, x_stride, y_stride;
};

template <typename T>
__mlu_func__ BorderLine border_line(const T *box, int border, int pool_size) {
  const float x0 = box[0], y0 = box[1], x1 = box[2], y1 = box[3];
  const float width = x1 - x0, height = y1 - y0;
  BorderLine line{border < kBottom ? x0 : x1, border < kBottom ? y0 : y1, 0.0f, 0.0f};
  switch (border) {
    case kTop: line.x_stride = width / pool_size; break;
    case kLeft: line.y_stride = height / pool_size; break;
    case kBottom: line.x_stride = -width / pool_size; break;
    case kRight: line.y_stride = -height / pool_size; break;
  }
  return line;
}

// The four pixels around a sample point and their bilinear weights, as mmcv's
// bilinear_interpolate_gradient computes them (corner order: (y_low, x_low),
// (y_low, x_high), (y_high, x_low), (y_high, x_high)).
struct Corners {
  int64_t pixel[4];  // y * W + x
  float weight[4];
};

// False for an empty point: outside [-1, H] x [-1, W], or NaN. Everything else
// is clamped into the map, so no corner ever lies outside grad_input.
__mlu_func__ bool bilinear_corners(int H, int W, float y, float x, Corners *c) {
  if (!(y >= -1.0f && y <= H && x >= -1.0f && x <= W)) return false;
  y = std::max(y, 0.0f);
  x = std::max(x, 0.0f);
  int y_low = static_cast<int>(y), x_low = static_cast<int>(x), y_high, x_high;
  if (y_low >= H - 1) {
    y_high = y_low = H - 1;
    y = static_cast<float>(y_low);
  } else {
    y_high = y_low + 1;
  }
  if (x_low >= W - 1) {
    x_high = x_low = W - 1;
    x = static_cast<float>(x_low);
  } else {
    x_high = x_low + 1;
  }
  const float ly = y - y_low, lx = x - x_low, hy = 1.0f - ly, hx = 1.0f - lx;
  const int64_t row_low = int64_t{y_low} * W, row_high = int64_t{y_high} * W;
  c->pixel[0] = row_low + x_low;
  c->pixel[1] = row_low + x_high;
  c->pixel[2] = row_high + x_low;
  c->pixel[3] = row_high + x_high;
  c->weight[0] = hy * hx;
  c->weight[1] = hy * lx;
  c->weight[2] = ly * hx;
  c->weight[3] = ly * lx;
  return true;
}

// One border of one box, as the chunk loop sees it.
template <typename T>
struct BorderTask {
  BorderLine line;
  const T *grad_output;   // its C gradients
  const int32_t *argmax;  // its C point indices
  T *grad_input;          // channel border * C of pixel 0 of its image
};

struct Shape {
  int pool_size, H, W, C;
};

// Bits that keep the channels whose argmax is point i and wipe the others (eq + lut,
// as mlu-ops builds them): the band then zeroes unselected channels without the
// multiply that would turn their NaN/inf into NaN. argmax values outside
// [0, pool_size] never match a point, so those channels are skipped.
template <typename T>
__mlu_func__ const T *point_mask(const Nram<T> &nram, int32_t i, int vec_count) {
  __bang_eq_scalar(nram.scratch, nram.argmax, i, vec_count);
  if constexpr (sizeof(T) == 4) {
    __bang_lut(nram.scratch, nram.scratch, nram.table, vec_count, kTableLen<T>);
    return reinterpret_cast<const T *>(nram.scratch);
  } else {
    auto *mask = reinterpret_cast<int16_t *>(nram.masked);  // narrow to T's width first
    __bang_int322int16(mask, nram.scratch, vec_count, 0, 0);
    __bang_lut(mask, mask, nram.table, vec_count, kTableLen<T>);
    return reinterpret_cast<const T *>(mask);
  }
}

// computeGradInput (doc 3.2): weight * masked gradient into each corner pixel.
// The add is atomic because other cores' borders may hit the same pixels.
template <typename T>
__mlu_func__ void add_to_corners(const Nram<T> &nram, const Corners &corners, T *grad_input,
                                 int64_t pixel_stride, int vec_count, int count) {
  T *product = reinterpret_cast<T *>(nram.scratch);
  for (int k = 0; k < 4; ++k) {
    __bang_mul_scalar(product, nram.masked, static_cast<T>(corners.weight[k]), vec_count);
    __bang_atomic_reduce_add(grad_input + corners.pixel[k] * pixel_stride, product, count);
  }
}

// loadInput (doc 3.2): the chunk's argmax_idx and grad_output.
template <typename T>
__mlu_func__ void load_chunk(const Nram<T> &nram, const BorderTask<T> &task, int c_offset,
                             int count) {
  __memcpy(nram.argmax, task.argmax + c_offset, count * sizeof(int32_t), GDRAM2NRAM);
  __memcpy(nram.grad_output, task.grad_output + c_offset, count * sizeof(T), GDRAM2NRAM);
}

// computeImpl (doc 3.2): `count` channels from c_offset of one border, over its
// pool_size + 1 points. Empty points are skipped before anything is loaded; the
// inputs are loaded at the first point that is not empty and kept for the rest.
template <typename T>
__mlu_func__ void border_chunk(const Nram<T> &nram, const Shape &s, const BorderTask<T> &task,
                               int c_offset, int count) {
  const int vec_count = PAD_UP(count, static_cast<int>(kAlignBytes / sizeof(T)));
  bool loaded = false;
  for (int64_t i = 0; i <= s.pool_size; ++i) {  // 64-bit: pool_size may be INT_MAX
    const float x = task.line.x + task.line.x_stride * static_cast<float>(i);
    const float y = task.line.y + task.line.y_stride * static_cast<float>(i);
    Corners corners;
    if (!bilinear_corners(s.H, s.W, y, x, &corners)) continue;
    if (!loaded) load_chunk(nram, task, c_offset, count);
    loaded = true;
    const T *mask = point_mask(nram, static_cast<int32_t>(i), vec_count);
    __bang_band(nram.masked, nram.grad_output, mask, vec_count);
    add_to_corners(nram, corners, task.grad_input + c_offset, int64_t{4} * s.C, vec_count,
                   count);
  }
}

}  // namespace

template <typename T>
__mlu_global__ void MLUKernelBorderAlignBackward(const T *grad_output, const T *boxes,
                                                 const int32_t *argmax_idx, int32_t pool_size,
                                                 int32_t N, int32_t H, int32_t W, int32_t C,
                                                 int32_t K, T *grad_input) {
  if (__is_mpu()) return;  // the memory core has no NRAM
  __nram_buffer__(char, nram_buffer, MAX_NRAM_SIZE);
  const int deal = border_align_backward::deal_num(MAX_NRAM_SIZE, sizeof(T));
  const Nram<T> nram = carve_nram<T>(nram_buffer, deal);
  init_mask_table<T>(nram.table);
  const Shape shape{pool_size, H, W, C};

  int64_t start, count;
  split_evenly(int64_t{N} * K * 4, &start, &count);
  for (int64_t num_loop = start; num_loop < start + count; ++num_loop) {
    const int64_t box = num_loop / 4;  // n * K + k
    const int border = static_cast<int>(num_loop % 4);
    const int64_t n = box / K;
    __memcpy(nram.box, boxes + box * 4, 4 * sizeof(T), GDRAM2NRAM);
    const BorderTask<T> task{border_line(nram.box, border, pool_size),
                             grad_output + num_loop * C, argmax_idx + num_loop * C,
                             grad_input + (n * H * W * 4 + border) * C};
    for (int c = 0; c < C / deal; ++c) border_chunk(nram, shape, task, c * deal, deal);
    const int c_tail = C % deal;
    if (c_tail != 0) border_chunk(nram, shape, task, C - c_tail, c_tail);
  }
}

template void MLUKernelBorderAlignBackward<float>(const float *, const float *, const int32_t *,
                                                  int32_t, int32_t, int32_t, int32_t, int32_t,
                                                  int32_t, float *);
template void MLUKernelBorderAlignBackward<half>(const half *, const half *, const int32_t *,
                                                 int32_t, int32_t, int32_t, int32_t, int32_t,
                                                 int32_t, half *);

// grad_input is accumulated with atomic adds, so it starts at zero (mlu-ops fills
// it first). Each task zeroes an NRAM buffer and copies it over its share.
__mlu_global__ void MLUKernelBorderAlignBackwardZero(void *dst, size_t bytes) {
  if (__is_mpu()) return;  // the memory core has no NRAM
  __nram_buffer__(char, zeros, MAX_NRAM_SIZE);
  int64_t start, count;
  split_evenly(static_cast<int64_t>(bytes), &start, &count);
  if (count == 0) return;
  const int64_t chunk = std::min<int64_t>(count, PAD_DOWN(MAX_NRAM_SIZE, kAlignBytes));
  __bang_write_value(zeros, static_cast<int>(PAD_UP(chunk, kAlignBytes)), int8_t{0});
  for (int64_t done = 0; done < count; done += chunk)
    __memcpy(static_cast<char *>(dst) + start + done, zeros,
             static_cast<int>(std::min(chunk, count - done)), NRAM2GDRAM);
}
