// What the CNNL stand-in's kernels (.mlu) share beyond BANG C.
#pragma once

#include <bang.h>

#include "cnnl/index_tuples.h"
#include "cnnl/plan.h"

// The status of a kernel<<<...>>>(...) launch: stale errors cleared first,
// then the launch's own from cnrtGetLastError.
#define CNNL_LAUNCH_STATUS(...) ((void)cnrtGetLastError(), (__VA_ARGS__), cnrtGetLastError())

namespace cnnlsim {

// f(U{}) with U the unsigned integer of `width` bytes (1, 2, 4 or 8; the host
// allows no other): kernels that only move or set elements treat every dtype
// as its bit pattern.
template <typename F>
cnrtRet_t with_width(int width, F f) {
  switch (width) {
    case 1: return f(uint8_t{});
    case 2: return f(uint16_t{});
    case 4: return f(uint32_t{});
    default: return f(uint64_t{});
  }
}

}  // namespace cnnlsim

namespace cnnlsim {

// Carves one NRAM buffer into consecutive pieces.
struct NramCarve {
  char *next;
  template <typename T>
  T *take(int64_t count) {
    T *p = reinterpret_cast<T *>(next);
    next += count * static_cast<int64_t>(sizeof(T));
    return p;
  }
};

// Sorts order[0, n) = 0, 1, ..., n - 1 so that before(order[i], order[j])
// never holds for i < j, keeping items neither is before the other in index
// order (bottom-up merge sort through `spare`; scalar code on NRAM arrays).
template <typename Before>
__mlu_func__ void stable_sort_indices(int32_t *order, int32_t *spare, int64_t n, Before before) {
  for (int64_t i = 0; i < n; ++i) order[i] = static_cast<int32_t>(i);
  for (int64_t width = 1; width < n; width *= 2) {
    for (int64_t lo = 0; lo < n; lo += 2 * width) {
      const int64_t mid = std::min(lo + width, n), hi = std::min(lo + 2 * width, n);
      int64_t a = lo, b = mid, k = lo;
      while (a < mid && b < hi) spare[k++] = before(order[b], order[a]) ? order[b++] : order[a++];
      while (a < mid) spare[k++] = order[a++];
      while (b < hi) spare[k++] = order[b++];
    }
    for (int64_t i = 0; i < n; ++i) order[i] = spare[i];
  }
}

// The first element of the slice an index tuple names (index_tuples.h), or
// -1 when an index is out of its dim's range. Device code, so that its
// scalar accesses are charged.
__mlu_func__ int64_t slice_offset(const int32_t *tuple, const IndexTuples &at) {
  int64_t offset = 0;
  for (int k = 0; k < at.index_dims; ++k) {
    if (tuple[k] < 0 || tuple[k] >= at.dims[k]) return -1;
    offset += tuple[k] * at.strides[k];
  }
  return offset;
}

// `n` elements of a float or half tensor in GDRAM, from `offset`, into NRAM
// as floats. Half passes through `stage`; the conversion covers `span`
// elements (n rounded up to whole vector granules, as the stage holds).
__mlu_func__ void load_as_float(float *dst, half *stage, const void *src, int64_t offset,
                                int64_t n, bool is_half, int64_t span) {
  if (is_half) {
    __memcpy(stage, static_cast<const half *>(src) + offset, static_cast<int>(n * 2), GDRAM2NRAM);
    __bang_half2float(dst, stage, static_cast<int>(span));
  } else {
    __memcpy(dst, static_cast<const float *>(src) + offset, static_cast<int>(n * 4), GDRAM2NRAM);
  }
}

// The reverse: `n` floats from NRAM to a float or half tensor at `offset`.
__mlu_func__ void store_from_float(void *dst, int64_t offset, float *src, half *stage, int64_t n,
                                   bool is_half, int64_t span) {
  if (is_half) {
    __bang_float2half_rn(stage, src, static_cast<int>(span));
    __memcpy(static_cast<half *>(dst) + offset, stage, static_cast<int>(n * 2), NRAM2GDRAM);
  } else {
    __memcpy(static_cast<float *>(dst) + offset, src, static_cast<int>(n * 4), NRAM2GDRAM);
  }
}

// One row (batch index, x1, y1, x2, y2) of a float or half [rois, 5] tensor
// of boxes; batch is -1 when the index is outside [0, batch_count). scratch
// holds 64 floats, stage 64 halves.
struct RoiBox {
  float box[5];
  int64_t batch;
};
__mlu_func__ RoiBox load_roi_box(float *scratch, half *stage, const void *boxes, int64_t roi,
                                 bool is_half, int64_t batch_count) {
  RoiBox r;
  load_as_float(scratch, stage, boxes, roi * 5, 5, is_half, 64);
  for (int i = 0; i < 5; ++i) r.box[i] = scratch[i];
  r.batch = static_cast<int64_t>(r.box[0]);
  if (r.batch < 0 || r.batch >= batch_count) r.batch = -1;
  return r;
}

}  // namespace cnnlsim
