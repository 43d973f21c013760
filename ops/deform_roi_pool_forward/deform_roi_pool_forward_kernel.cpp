// deform_roi_pool_forward on the simulated MLU, as the design doc's section 3
// describes it: each task takes output points (roi, ph, pw) round-robin and
// produces the whole channel vector of one point at a time (channels split in
// passes when NRAM is too small, 3.1). Inside a bin it walks the sampling grid
// with a ping-pong pipeline (3.4): while ping holds the 4 corner vectors of
// sample s and is weighed into nram_out, pong receives those of the next
// sample with async copies; a __sync ends each step and the buffers swap.
//
// NRAM (T elements; n_align = channels of the pass padded to 128 bytes):
//   | header 128 B | nram_out | ping: v1 v2 v3 v4 | pong: v1 v2 v3 v4 |
//                    n_align    4 x n_align         4 x n_align
//   v1 (y_low, x_low)  v2 (y_low, x_high)  v3 (y_high, x_low)  v4 (y_high, x_high)
#include <algorithm>
#include <cstdint>
#include <utility>

#include "ops/deform_roi_pool_forward/deform_roi_pool_forward_kernel.h"
#include "ops/common/kernel.h"

namespace mluop::drp {
namespace {

// One output point: where its roi's bin starts after the offset, mmcv's
// arithmetic in float (for half too, so that coordinates keep their precision).
struct Bin {
  int ph, pw;
  float roi_start_h, roi_start_w;  // roi corner, shifted by the offset
  float bin_h, bin_w;
  int grid_h, grid_w;
  int64_t samples;  // grid_h * grid_w; 0 when there is nothing to read (see load_bin)
  int batch;
};

// A sample on the map, reduced to its 4 corners and bilinear weights.
struct Sample {
  int64_t index = -1;  // iy * grid_w + ix; -1: no further sample on the map
  int y_low, y_high, x_low, x_high;
  float w1, w2, w3, w4;
};

// Reads the roi (and its offset pair) of one output point into the NRAM header
// and derives the bin as mmcv does: corners scaled and shifted by -0.5, the
// offset scaled by gamma and the roi size. A batch index outside [0, batches)
// or an empty map leaves the bin without samples: it is 0 and reads nothing.
template <typename T>
__mlu_func__ Bin load_bin(const Args<T> &a, int bin_index, T *header) {
  Bin b;
  b.pw = bin_index % a.pooled_width;
  b.ph = bin_index / a.pooled_width % a.pooled_height;
  const int roi = bin_index / a.pooled_width / a.pooled_height;
  __memcpy(header, a.rois + static_cast<int64_t>(roi) * kRoiValues, kRoiValues * sizeof(T),
           GDRAM2NRAM);
  const float batch = static_cast<float>(header[0]);
  b.roi_start_w = static_cast<float>(header[1]) * a.spatial_scale - 0.5f;
  b.roi_start_h = static_cast<float>(header[2]) * a.spatial_scale - 0.5f;
  const float roi_w = (static_cast<float>(header[3]) * a.spatial_scale - 0.5f) - b.roi_start_w;
  const float roi_h = (static_cast<float>(header[4]) * a.spatial_scale - 0.5f) - b.roi_start_h;
  b.bin_h = roi_h / static_cast<float>(a.pooled_height);
  b.bin_w = roi_w / static_cast<float>(a.pooled_width);
  b.grid_h = sampling_grid(roi_h, a.pooled_height, a.sampling_ratio);
  b.grid_w = sampling_grid(roi_w, a.pooled_width, a.sampling_ratio);
  if (a.offset != nullptr) {
    // offset[roi][0][ph][pw] and offset[roi][1][ph][pw]: one copy of 2 segments.
    const int plane = a.pooled_height * a.pooled_width;
    T *pair = header + kOffsetSlot;
    __memcpy(pair, a.offset + static_cast<int64_t>(roi) * 2 * plane + b.ph * a.pooled_width + b.pw,
             sizeof(T), GDRAM2NRAM, sizeof(T), plane * sizeof(T), 1);
    b.roi_start_w += a.gamma * roi_w * static_cast<float>(pair[0]);
    b.roi_start_h += a.gamma * roi_h * static_cast<float>(pair[1]);
  }
  // mmcv truncates the batch index; (-1, batches) is what truncates into range.
  const bool readable = batch > -1.0f && batch < static_cast<float>(a.batches) &&
                        a.height > 0 && a.width > 0;
  b.batch = readable ? static_cast<int>(batch) : 0;
  b.samples = readable ? static_cast<int64_t>(b.grid_h) * b.grid_w : 0;
  return b;
}

// mmcv's border rule on one axis for a coordinate already known to be in
// [-1, size]: below 0 reads index 0; from the last index on, low == high and
// the fraction is 0, so the high neighbour has weight 0.
__mlu_func__ float clamp_axis(float v, int size, int *low, int *high) {
  if (v <= 0) v = 0;
  *low = static_cast<int>(v);
  if (*low >= size - 1) {
    *low = *high = size - 1;
    v = static_cast<float>(*low);
  } else {
    *high = *low + 1;
  }
  return v - static_cast<float>(*low);
}

// The first sample at or after `index` that lies on the map. mmcv gives 0 for
// a sample outside [-1, H] x [-1, W] (NaN included here), so such samples are
// skipped without a load; the prefetch always targets the next useful one.
template <typename T>
__mlu_func__ Sample next_sample(const Args<T> &a, const Bin &b, int64_t index) {
  Sample s;
  while (index < b.samples) {
    const int iy = static_cast<int>(index / b.grid_w), ix = static_cast<int>(index % b.grid_w);
    const float y = b.roi_start_h + b.ph * b.bin_h +
                    static_cast<float>(iy + .5f) * b.bin_h / static_cast<float>(b.grid_h);
    if (!(y >= -1.0f && y <= static_cast<float>(a.height))) {
      index = static_cast<int64_t>(iy + 1) * b.grid_w;  // the whole row is off the map
      continue;
    }
    const float x = b.roi_start_w + b.pw * b.bin_w +
                    static_cast<float>(ix + .5f) * b.bin_w / static_cast<float>(b.grid_w);
    if (!(x >= -1.0f && x <= static_cast<float>(a.width))) {
      ++index;
      continue;
    }
    const float ly = clamp_axis(y, a.height, &s.y_low, &s.y_high);
    const float lx = clamp_axis(x, a.width, &s.x_low, &s.x_high);
    const float hy = 1.0f - ly, hx = 1.0f - lx;
    s.w1 = hy * hx, s.w2 = hy * lx, s.w3 = ly * hx, s.w4 = ly * lx;
    s.index = index;
    return s;
  }
  return s;
}

template <bool kAsync>
__mlu_func__ void load(void *dst, const void *src, int size, int dst_stride, int src_stride,
                       int segnum) {
  if constexpr (kAsync)
    __memcpy_async(dst, src, size, GDRAM2NRAM, dst_stride, src_stride, segnum);
  else
    __memcpy(dst, src, size, GDRAM2NRAM, dst_stride, src_stride, segnum);
}

// Loads channels [c0, c0 + n) of the corners of sample s into the 4 slices of
// buf. A corner the border rule folded onto its neighbour (x_high == x_low or
// y_high == y_low) has weight 0 and is not loaded.
template <typename T, bool kAsync>
__mlu_func__ void load_corners(T *buf, const T *image, const Args<T> &a, const Sample &s,
                               int n, int n_align) {
  const int cols = s.x_high - s.x_low + 1, rows = s.y_high - s.y_low + 1;
  const T *v1 = image + (static_cast<int64_t>(s.y_low) * a.width + s.x_low) * a.channels;
  const int row_bytes = a.width * a.channels * static_cast<int>(sizeof(T));
  if (n == a.channels && n == n_align) {
    // Whole, aligned pixel vectors: the pixels of a corner row are one run that
    // lands on consecutive slices, and both rows are one strided copy.
    load<kAsync>(buf, v1, cols * n * sizeof(T), 2 * n_align * sizeof(T), row_bytes, rows - 1);
    return;
  }
  for (int r = 0; r < rows; ++r)  // one copy per corner row, one segment per pixel
    load<kAsync>(buf + 2 * r * n_align, v1 + static_cast<int64_t>(r) * a.width * a.channels,
                 n * sizeof(T), n_align * sizeof(T), a.channels * sizeof(T), cols - 1);
}

// nram_out += w1*v1 + w2*v2 + w3*v3 + w4*v4 over the loaded corners.
template <typename T>
__mlu_func__ void accumulate_sample(T *out, T *buf, const Sample &s, int n_align) {
  const bool two_cols = s.x_high != s.x_low, two_rows = s.y_high != s.y_low;
  T *v1 = buf, *v2 = buf + n_align, *v3 = buf + 2 * n_align, *v4 = buf + 3 * n_align;
  __bang_mul_scalar(v1, v1, static_cast<T>(s.w1), n_align);
  if (two_cols) __bang_mul_scalar(v2, v2, static_cast<T>(s.w2), n_align);
  if (two_rows) {
    __bang_mul_scalar(v3, v3, static_cast<T>(s.w3), n_align);
    if (two_cols) __bang_mul_scalar(v4, v4, static_cast<T>(s.w4), n_align);
    __bang_add(v1, v1, v3, (two_cols ? 2 : 1) * n_align);  // v1 += v3 and v2 += v4 at once
  }
  if (two_cols) __bang_add(v1, v1, v2, n_align);
  __bang_add(out, out, v1, n_align);
}

// One pass over channels [c0, c0 + n) of one bin: the ping-pong pipeline of
// 3.4 over the bin's samples, then the mean and one store.
template <typename T, bool kPingPong>
__mlu_func__ void pool_pass(const Args<T> &a, const Bin &b, int bin_index, int c0, int n,
                            T *nram) {
  const int n_align = CEIL_ALIGN(n, NFU_ALIGN_SIZE / static_cast<int>(sizeof(T)));
  T *nram_out = nram;
  T *ping = nram_out + n_align;
  T *pong = ping + 4 * n_align;
  __bang_write_value(nram_out, n_align, static_cast<T>(0));
  if (n != n_align) {
    // Loads fill n lanes of a slice; the vector ops also read the padding.
    __bang_write_value(ping, 8 * n_align, static_cast<T>(0));
    __sync();  // the fill lands before any async copy targets these slices
  }
  const T *image =
      a.input + static_cast<int64_t>(b.batch) * a.height * a.width * a.channels + c0;
  Sample cur = next_sample(a, b, 0);
  if (cur.index >= 0) load_corners<T, false>(ping, image, a, cur, n, n_align);
  while (cur.index >= 0) {
    const Sample next = next_sample(a, b, cur.index + 1);
    if (next.index >= 0) load_corners<T, kPingPong>(pong, image, a, next, n, n_align);  // L(s+1)
    // The serial variant waits for its load: a synchronous copy into another
    // buffer would otherwise overlap the compute on its own (separate pipes).
    if constexpr (!kPingPong) __sync_io();
    accumulate_sample(nram_out, ping, cur, n_align);                                    // C(s)
    __sync();  // the prefetch has landed and ping is consumed: swap
    std::swap(ping, pong);
    cur = next;
  }
  const float inv_count = 1.0f / static_cast<float>(std::max<int64_t>(
                                     static_cast<int64_t>(b.grid_h) * b.grid_w, 1));
  __bang_mul_scalar(nram_out, nram_out, static_cast<T>(inv_count), n_align);
  __memcpy(a.output + static_cast<int64_t>(bin_index) * a.channels + c0, nram_out, n * sizeof(T),
           NRAM2GDRAM);
}

}  // namespace

template <typename T, bool kPingPong>
__mlu_global__ void MLUKernelDeformRoiPoolForward(Args<T> a) {
  if (__is_mpu()) return;  // the memory core has no NRAM
  __nram_buffer__(char, nram_buffer, MAX_NRAM_SIZE);
  T *header = reinterpret_cast<T *>(nram_buffer);
  T *nram = reinterpret_cast<T *>(nram_buffer + kHeaderBytes);
  const int bins = a.num_rois * a.pooled_height * a.pooled_width;
  for (int bin_index = taskId; bin_index < bins; bin_index += taskDim) {
    const Bin b = load_bin(a, bin_index, header);
    for (int c0 = 0; c0 < a.channels; c0 += a.chunk_channels)
      pool_pass<T, kPingPong>(a, b, bin_index, c0, std::min(a.chunk_channels, a.channels - c0),
                              nram);
  }
}

template void MLUKernelDeformRoiPoolForward<float, true>(Args<float>);
template void MLUKernelDeformRoiPoolForward<float, false>(Args<float>);
template void MLUKernelDeformRoiPoolForward<half, true>(Args<half>);
template void MLUKernelDeformRoiPoolForward<half, false>(Args<half>);

}  // namespace mluop::drp
