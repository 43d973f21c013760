// psamask on the BANG-style device API, shaped as the design doc's section 3.
// Each task takes its share of the [N, H, W] points (3.3) and walks it in
// segments sized by findlimit (3.2.3). Per segment: load the input points into
// NRAM, zero-fill the output tile on chip (3.2.1), move every point's mask
// window with one strided on-chip copy (3.1), transpose for DISTRIBUTE
// (3.2.2), and store the whole tile. Forward and backward run the same steps
// in opposite directions between the mask region (x, dx) and the feature
// region (y, dy).
#include "ops/psamask/psamask_kernel.h"
#include "ops/common/kernel.h"

namespace psamask {
namespace {

// The point index of (n, h, w) in the [N, H, W] grid: times channels, a tensor offset.
size_t point_index(const Shape &s, int n, int h, int w) {
  return (size_t(n) * s.h + h) * s.w + w;
}

// One strided copy between a tensor and NRAM, in elements: `segments` runs of
// `len`, `gdram_stride` apart in the tensor and `nram_stride` apart on chip.
struct Run {
  size_t gdram;
  int64_t nram;
  int64_t len, gdram_stride, nram_stride;
  int segments;
};

// BANG's strided __memcpy copies segnum + 1 segments. A single run passes no
// stride: its tensor stride (an [H, W] plane) may exceed the 32-bit byte reach.
// Multi-run strides span at most a few NRAMs' worth (the split divides each
// axis by at most the core count), so they fit.
template <typename T>
int stride_bytes(const Run &r, int64_t stride) {
  return static_cast<int>((r.segments > 1 ? stride : r.len) * int64_t{sizeof(T)});
}
template <typename T>
void load(T *nram, const T *tensor, const Run &r) {
  __memcpy(nram + r.nram, tensor + r.gdram, static_cast<int>(r.len * sizeof(T)), GDRAM2NRAM,
           stride_bytes<T>(r, r.nram_stride), stride_bytes<T>(r, r.gdram_stride), r.segments - 1);
}
template <typename T>
void store(T *tensor, const T *nram, const Run &r) {
  __memcpy(tensor + r.gdram, nram + r.nram, static_cast<int>(r.len * sizeof(T)), NRAM2GDRAM,
           stride_bytes<T>(r, r.gdram_stride), stride_bytes<T>(r, r.nram_stride), r.segments - 1);
}

// A segment's points of one n are one contiguous run of the [H, W] plane when
// the segment holds whole rows or part of a single row; otherwise (W split
// across tasks) they are one run per row.
struct PlaneRuns {
  int len, count;
};
PlaneRuns plane_runs(const Shape &s, const Box &seg) {
  if (seg.w.size == s.w || seg.h.size == 1) return {seg.h.size * seg.w.size, 1};
  return {seg.w.size, seg.h.size};
}

// The collect layout: each point's c channels, as in the tensor, the points of
// the segment packed in (n, h, w) order. One copy moves every n when each n is
// one plane run, else one copy per n moves its rows.
template <typename Move>
void for_each_point_run(const Shape &s, const Box &seg, int c, Move move) {
  const PlaneRuns runs = plane_runs(s, seg);
  const int64_t points_per_n = int64_t{seg.h.size} * seg.w.size;
  const size_t first = point_index(s, seg.n.start, seg.h.start, seg.w.start) * c;
  if (runs.count == 1) {
    move(Run{first, 0, points_per_n * c, int64_t{s.h} * s.w * c, points_per_n * c, seg.n.size});
    return;
  }
  for (int n = 0; n < seg.n.size; ++n)
    move(Run{first + size_t(n) * s.h * s.w * c, n * points_per_n * c, int64_t{runs.len} * c,
             int64_t{s.w} * c, int64_t{runs.len} * c, runs.count});
}

// The DISTRIBUTE side of y / dy: point (n, h, w) owns channel h * W + w of every
// point of its n's plane. On chip that is the transposed tile: one row per
// plane point (feature channel), one column per segment point, `rows` columns
// wide. A plane run of segment points is a column block: H * W tensor runs,
// feature_c apart.
template <typename Move>
void for_each_distribute_run(const Shape &s, const Box &seg, int rows, Move move) {
  const PlaneRuns runs = plane_runs(s, seg);
  const int points_per_n = seg.h.size * seg.w.size;
  for (int n = 0; n < seg.n.size; ++n) {
    for (int r = 0; r < runs.count; ++r) {
      const size_t channel = point_index(s, 0, seg.h.start + r, seg.w.start);
      move(Run{size_t(seg.n.start + n) * s.h * s.w * s.feature_c + channel,
               int64_t{n} * points_per_n + int64_t{r} * seg.w.size, runs.len, s.feature_c, rows,
               s.feature_c});
    }
  }
}

// Section 3.1: point (h, w) sees mask cells [hstart, hend) x [wstart, wend);
// cell (i, j) is feature point (i + h - half_h_mask, j + w - half_w_mask). One
// strided on-chip copy per point moves that rectangle between the point's mask
// row and its feature row (`row` elements apart): mask -> feature forward,
// feature -> mask backward. The window always holds its centre cell, so it is
// never empty.
template <typename T>
void copy_windows(T *mask, T *feature, int row, const Shape &s, const Box &seg, bool backward) {
  int64_t q = 0;  // the point's index in the segment
  for (int n = 0; n < seg.n.size; ++n) {
    for (int h = seg.h.start; h < seg.h.end(); ++h) {
      for (int w = seg.w.start; w < seg.w.end(); ++w, ++q) {
        const int hstart = std::max(0, s.half_h_mask - h);
        const int hend = std::min(s.h_mask, s.h + s.half_h_mask - h);
        const int wstart = std::max(0, s.half_w_mask - w);
        const int wend = std::min(s.w_mask, s.w + s.half_w_mask - w);
        T *m = mask + q * s.mask_c + hstart * s.w_mask + wstart;
        T *f = feature + q * row + (hstart + h - s.half_h_mask) * s.w + (wstart + w - s.half_w_mask);
        const int len = (wend - wstart) * int{sizeof(T)}, rows = hend - hstart;
        const int m_stride = s.w_mask * int{sizeof(T)}, f_stride = s.w * int{sizeof(T)};
        if (backward)
          __memcpy(m, f, len, NRAM2NRAM, m_stride, f_stride, rows - 1);
        else
          __memcpy(f, m, len, NRAM2NRAM, f_stride, m_stride, rows - 1);
      }
    }
  }
}

// The doc's NRAM partition: mask region, feature region, and for DISTRIBUTE the
// second feature region holding the transposed tile.
template <typename T>
struct Tiles {
  T *mask, *feature, *transposed;
};
template <typename T>
Tiles<T> carve(char *nram, const NramPlan &plan) {
  T *mask = reinterpret_cast<T *>(nram);
  T *feature = mask + plan.mask;
  return Tiles<T>{mask, feature, plan.regions == 2 ? feature + plan.feature : nullptr};
}

template <typename T>
void forward_segment(const T *x, T *y, const Shape &s, const Box &seg, const Tiles<T> &t) {
  const NramPlan p = plan_nram<T>(s, seg.points());
  for_each_point_run(s, seg, s.mask_c, [&](const Run &r) { load(t.mask, x, r); });
  __bang_write_value(t.feature, static_cast<int>(p.feature), T(0));
  copy_windows(t.mask, t.feature, p.row, s, seg, false);
  if (s.type == kCollect) {
    for_each_point_run(s, seg, s.feature_c, [&](const Run &r) { store(y, t.feature, r); });
  } else {
    __bang_transpose(t.transposed, t.feature, p.rows, p.row);
    for_each_distribute_run(s, seg, p.rows, [&](const Run &r) { store(y, t.transposed, r); });
  }
}

template <typename T>
void backward_segment(const T *dy, T *dx, const Shape &s, const Box &seg, const Tiles<T> &t) {
  const NramPlan p = plan_nram<T>(s, seg.points());
  if (s.type == kCollect) {
    for_each_point_run(s, seg, s.feature_c, [&](const Run &r) { load(t.feature, dy, r); });
  } else {
    for_each_distribute_run(s, seg, p.rows, [&](const Run &r) { load(t.transposed, dy, r); });
    __bang_transpose(t.feature, t.transposed, p.row, p.rows);
  }
  __bang_write_value(t.mask, static_cast<int>(p.mask), T(0));
  copy_windows(t.mask, t.feature, p.row, s, seg, true);
  for_each_point_run(s, seg, s.mask_c, [&](const Run &r) { store(dx, t.mask, r); });
}

// One task: its box (3.3), cut into findlimit segments (3.2.3), n outermost.
template <typename T, typename Segment>
void run_task(const Shape &s, Segment segment) {
  __nram_buffer__(char, nram_buffer, MAX_NRAM_SIZE);
  const Box box = task_box(s, taskIdY, taskDimY, taskIdX, taskDimX);
  if (box.points() == 0) return;  // more tasks than points along the split axis
  const int64_t nram_elements = MAX_NRAM_SIZE / sizeof(T);
  const Limits lim = find_limit<T>(s, box, nram_elements);  // lim.w >= 1: the host checked
  const Tiles<T> tiles =
      carve<T>(nram_buffer, plan_nram<T>(s, int64_t{lim.n} * lim.h * lim.w));
  for (int n = box.n.start; n < box.n.end(); n += lim.n) {
    for (int h = box.h.start; h < box.h.end(); h += lim.h) {
      for (int w = box.w.start; w < box.w.end(); w += lim.w) {
        const Box seg{{n, std::min(lim.n, box.n.end() - n)},
                      {h, std::min(lim.h, box.h.end() - h)},
                      {w, std::min(lim.w, box.w.end() - w)}};
        segment(seg, tiles);
      }
    }
  }
}

}  // namespace

template <typename T>
__mlu_global__ void MLUKernelPsamaskForward(const T *x, T *y, Shape shape) {
  if (__is_mpu()) return;  // the memory core has no NRAM
  run_task<T>(shape, [&](const Box &seg, const Tiles<T> &t) { forward_segment(x, y, shape, seg, t); });
}

template <typename T>
__mlu_global__ void MLUKernelPsamaskBackward(const T *dy, T *dx, Shape shape) {
  if (__is_mpu()) return;  // the memory core has no NRAM
  run_task<T>(shape, [&](const Box &seg, const Tiles<T> &t) { backward_segment(dy, dx, shape, seg, t); });
}

template void MLUKernelPsamaskForward<float>(const float *, float *, Shape);
template void MLUKernelPsamaskBackward<float>(const float *, float *, Shape);

}  // namespace psamask
