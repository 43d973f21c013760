// three_interpolate_backward's kernel and what the host and the kernel share:
// the shape, the tiles (No, Co, Mo) of the design doc's section 3.3, the NRAM
// partition of its section 3.4 and the task split of its step 1. Both sides
// call the same functions, so the host's policy is the kernel's layout.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "cnrt.h"

namespace mluop::three_interpolate_backward {

constexpr int kNeighbours = 3;  // the last dim of indices and weights

// grad_output [b, c, n], indices / weights [b, n, 3], grad_features [b, c, m].
struct Shape {
  int b, c, n, m;
};

// Elements one pass keeps on chip: No points of grad_output, Co channels, Mo
// points of grad_features. Each is a multiple of align<T>().
struct Tiles {
  int n, c, m;
};

constexpr int64_t ceil_div(int64_t x, int64_t y) { return (x + y - 1) / y; }
constexpr int64_t pad_up(int64_t x, int64_t align) { return ceil_div(x, align) * align; }

// 128 bytes in elements (32 floats, 64 halves): the vector granule. Tiles that
// are multiples of it make every buffer start 128-byte aligned, every vector
// operand a whole number of granules and every transpose dim a multiple of 64 bytes.
template <typename T>
constexpr int align() {
  return static_cast<int>(128 / sizeof(T));
}

// ---- Section 3.4: the NRAM partition ---------------------------------------

// Byte offsets of the doc's buffers, in the doc's order:
//   grad_output              Co x No  the loaded grad_output tile
//   grad_output_transpose    No x Co  one neighbour's weighted tile, transposed
//   grad_features            Mo x Co  the accumulator (the doc's Mo*Co tile)
//   grad_features_transpose  max(Co x Mo, Co x No): the weighted Co x No tile,
//                            and at the end the accumulator transposed for the store
//   weights, weights_transpose          No*3 / 3*No of T
//   indices, indices_transpose          No*3 / 3*No of int32
//   index_row, row_ok, row_below_end    No of int32 each: the doc's
//       indices_transpose_addition / _float / _float_addition, which turn one
//       neighbour's indices into accumulator rows (all in int32, see the doc page)
// The doc's extra Co elements after grad_output_transpose (a discard row for
// indices outside the task's M range) are not needed: those points are skipped.
struct NramPlan {
  int64_t grad_output, grad_output_transpose, grad_features, grad_features_transpose;
  int64_t weights, weights_transpose, indices, indices_transpose;
  int64_t index_row, row_ok, row_below_end;
  int64_t total;
};

template <typename T>
NramPlan plan_nram(const Tiles &t) {
  const int64_t tile_no = int64_t{t.c} * t.n * sizeof(T);
  const int64_t tile_mo = int64_t{t.c} * t.m * sizeof(T);
  const int64_t per_point = int64_t{kNeighbours} * t.n;  // No*3 elements
  const int64_t row = int64_t{t.n} * sizeof(int32_t);
  NramPlan p{};
  int64_t at = 0;
  auto take = [&at](int64_t bytes) {
    const int64_t start = at;
    at += bytes;
    return start;
  };
  p.grad_output = take(tile_no);
  p.grad_output_transpose = take(tile_no);
  p.grad_features = take(tile_mo);
  p.grad_features_transpose = take(std::max(tile_mo, tile_no));
  p.weights = take(per_point * sizeof(T));
  p.weights_transpose = take(per_point * sizeof(T));
  p.indices = take(per_point * sizeof(int32_t));
  p.indices_transpose = take(per_point * sizeof(int32_t));
  p.index_row = take(row);
  p.row_ok = take(row);
  p.row_below_end = take(row);
  p.total = at;
  return p;
}

template <typename T>
bool fits(const Tiles &t, int64_t nram_bytes) {
  return plan_nram<T>(t).total <= nram_bytes;
}

// ---- Section 3.3: the tile sizes --------------------------------------------

// Largest k in [1, k_max] with fits(k), for a monotone fits; 0 if not even fits(1).
template <typename Fits>
int64_t largest_fitting(int64_t k_max, Fits fits) {
  int64_t lo = 0, hi = k_max;
  while (lo < hi) {
    const int64_t mid = lo + (hi - lo + 1) / 2;
    if (fits(mid))
      lo = mid;
    else
      hi = mid - 1;
  }
  return lo;
}

// The same number of chunks as `tile` makes of `extent`, but all equally long
// (the last one no shorter than the others by more than one granule).
inline int even_tile(int64_t extent, int64_t tile, int64_t granule) {
  return static_cast<int>(pad_up(ceil_div(extent, ceil_div(extent, tile)), granule));
}

// The doc's priorities: No is the largest tile; Co comes second when one whole
// [C, N] slab fits on chip or C > N, otherwise Mo does; the other is third.
// Read as sizes: one common level for all three (each capped at its padded
// extent) is lowered until the partition fits, then what NRAM is left goes to
// No, then to the second, then to the third. Last, each tile is evened out
// over its chunk count. Returns {0, 0, 0} when not even one granule per tile fits.
template <typename T>
Tiles choose_tiles(const Shape &s, int64_t nram_bytes) {
  const int64_t a = align<T>();
  // Tile lengths in granules. None can exceed `reach`: a tile of that many
  // granules by one granule is already larger than NRAM.
  const int64_t reach = nram_bytes / 128;
  const int64_t n_max = std::min(ceil_div(s.n, a), reach);
  const int64_t c_max = std::min(ceil_div(s.c, a), reach);
  const int64_t m_max = std::min(ceil_div(s.m, a), reach);
  auto fit = [&](int64_t n, int64_t c, int64_t m) {
    return fits<T>(Tiles{static_cast<int>(n * a), static_cast<int>(c * a), static_cast<int>(m * a)},
                   nram_bytes);
  };
  const bool c_second = fit(n_max, c_max, 1) || s.c > s.n;

  const int64_t level = largest_fitting(std::max({n_max, c_max, m_max}), [&](int64_t k) {
    return fit(std::min(n_max, k), std::min(c_max, k), std::min(m_max, k));
  });
  if (level == 0) return Tiles{0, 0, 0};
  int64_t n = std::min(n_max, level), c = std::min(c_max, level), m = std::min(m_max, level);
  // fit() holds for the current sizes and shrinks as any size grows, so each
  // search returns at least the current size.
  n = largest_fitting(n_max, [&](int64_t k) { return fit(k, c, m); });
  auto grow_c = [&] { c = largest_fitting(c_max, [&](int64_t k) { return fit(n, k, m); }); };
  auto grow_m = [&] { m = largest_fitting(m_max, [&](int64_t k) { return fit(n, c, k); }); };
  if (c_second) {
    grow_c();
    grow_m();
  } else {
    grow_m();
    grow_c();
  }
  return Tiles{even_tile(s.n, n * a, a), even_tile(s.c, c * a, a), even_tile(s.m, m * a, a)};
}

// ---- Step 1: the task split --------------------------------------------------

// A task is one batch's chunk of Mo grad_features points: b * ceil(M / Mo) of them.
inline int64_t task_count(const Shape &s, const Tiles &t) {
  return int64_t{s.b} * ceil_div(s.m, t.m);
}

// The contiguous block of tasks core `task_id` of `task_dim` runs; the
// remainder goes to the first cores.
struct TaskRange {
  int64_t first, count;
};
inline TaskRange tasks_of(int64_t tasks, int task_id, int task_dim) {
  const int64_t base = tasks / task_dim, rem = tasks % task_dim;
  return TaskRange{task_id * base + std::min<int64_t>(task_id, rem),
                   base + (task_id < rem ? 1 : 0)};
}

// ---- The kernel (Union1, dim = (cores per cluster, clusters with tasks, 1)) ----

// grad_features[b, c, m] = sum over (n, k) with indices[b, n, k] == m of
// grad_output[b, c, n] * weights[b, n, k]; every element is written, indices
// outside [0, m) contribute nothing. Launches MLUKernelThreeInterpolateBackward<T>
// (Union1) on `queue`.
template <typename T>
cnrtRet_t launch_kernel(cnrtDim3_t dim, cnrtQueue_t queue, const T *grad_output,
                        const int32_t *indices, const T *weights, T *grad_features, Shape shape,
                        Tiles tiles);

extern template cnrtRet_t launch_kernel<float>(cnrtDim3_t, cnrtQueue_t, const float *,
                                               const int32_t *, const float *, float *, Shape,
                                               Tiles);
extern template cnrtRet_t launch_kernel<_Float16>(cnrtDim3_t, cnrtQueue_t, const _Float16 *,
                                                  const int32_t *, const _Float16 *, _Float16 *,
                                                  Shape, Tiles);

}  // namespace mluop::three_interpolate_backward
