// three_interpolate_backward on the BANG-style device API, shaped as the
// design doc's section 3.1. A task is one batch's chunk of Mo grad_features
// points (step 1); it owns those points for every channel, so no other core
// writes them and no atomics are needed. For each chunk of Co channels
// (step 12) the Mo x Co accumulator stays in NRAM (step 7) while the task walks
// N in chunks of No (step 10): load indices and weights and transpose them to
// 3 x No (steps 2-3), load the Co x No grad_output tile (step 4), and for each
// of the 3 neighbours weigh the tile (step 5), transpose it to No x Co (step 6)
// and add every point's row into the accumulator row its index selects (steps
// 8-9). Then the accumulator is stored once (step 11). Cores loop over their
// tasks (step 13).
#include "ops/three_interpolate_backward/three_interpolate_backward_kernel.h"

#include "ops/common/kernel.h"

namespace three_interpolate_backward {
namespace {

// The NRAM buffers of plan_nram, typed.
template <typename T>
struct Nram {
  T *grad_output, *grad_output_transpose, *grad_features, *grad_features_transpose;
  T *weights, *weights_transpose;
  int32_t *indices, *indices_transpose;
  int32_t *index_row, *row_ok, *row_below_end;
};

template <typename T>
Nram<T> carve(char *base, const NramPlan &p) {
  auto at = [base](int64_t offset) { return base + offset; };
  return Nram<T>{reinterpret_cast<T *>(at(p.grad_output)),
                 reinterpret_cast<T *>(at(p.grad_output_transpose)),
                 reinterpret_cast<T *>(at(p.grad_features)),
                 reinterpret_cast<T *>(at(p.grad_features_transpose)),
                 reinterpret_cast<T *>(at(p.weights)),
                 reinterpret_cast<T *>(at(p.weights_transpose)),
                 reinterpret_cast<int32_t *>(at(p.indices)),
                 reinterpret_cast<int32_t *>(at(p.indices_transpose)),
                 reinterpret_cast<int32_t *>(at(p.index_row)),
                 reinterpret_cast<int32_t *>(at(p.row_ok)),
                 reinterpret_cast<int32_t *>(at(p.row_below_end))};
}

// One chunk of an axis: `size` elements from `start`, padded to `padded` on chip.
struct Chunk {
  int64_t start;
  int size, padded;
};
template <typename T>
Chunk chunk(int64_t start, int64_t extent, int tile) {
  const int size = static_cast<int>(std::min<int64_t>(tile, extent - start));
  return Chunk{start, size, static_cast<int>(pad_up(size, align<T>()))};
}

// `rows` rows of `row` elements between GDRAM and NRAM, strides in elements.
// BANG's strided __memcpy takes int byte strides; a tensor row beyond 2 GB
// (N or M above 2^29 floats) is moved one row at a time.
template <typename T>
void copy_rows(T *dst, const T *src, int row, int rows, int64_t dst_stride, int64_t src_stride,
               mluMemcpyDirection_t dir) {
  const int64_t widest = std::max(dst_stride, src_stride) * int64_t{sizeof(T)};
  const int bytes = row * static_cast<int>(sizeof(T));
  if (widest <= INT32_MAX) {
    __memcpy(dst, src, bytes, dir, static_cast<int>(dst_stride * sizeof(T)),
             static_cast<int>(src_stride * sizeof(T)), rows - 1);
    return;
  }
  for (int r = 0; r < rows; ++r) __memcpy(dst + r * dst_stride, src + r * src_stride, bytes, dir);
}

// Steps 2-3: the chunk's No x 3 indices and weights, transposed to 3 x No
// (row k holds neighbour k of every point, at a stride of the padded chunk)
// with one element-strided on-chip copy per row.
template <typename T>
void load_neighbours(const Nram<T> &nram, const int32_t *indices, const T *weights, int64_t batch,
                     const Shape &s, const Chunk &n) {
  const int64_t first = (batch * s.n + n.start) * kNeighbours;
  __memcpy(nram.indices, indices + first, n.size * kNeighbours * sizeof(int32_t), GDRAM2NRAM);
  __memcpy(nram.weights, weights + first, n.size * kNeighbours * sizeof(T), GDRAM2NRAM);
  for (int k = 0; k < kNeighbours; ++k) {
    __memcpy(nram.indices_transpose + k * n.padded, nram.indices + k, sizeof(int32_t), NRAM2NRAM,
             sizeof(int32_t), kNeighbours * sizeof(int32_t), n.size - 1);
    __memcpy(nram.weights_transpose + k * n.padded, nram.weights + k, sizeof(T), NRAM2NRAM,
             sizeof(T), kNeighbours * sizeof(T), n.size - 1);
  }
}

// Step 4: the Co x No grad_output tile, rows No padded apart.
template <typename T>
void load_grad_output(const Nram<T> &nram, const T *grad_output, int64_t batch, const Shape &s,
                      const Chunk &c, const Chunk &n) {
  const T *src = grad_output + (batch * s.c + c.start) * s.n + n.start;
  copy_rows(nram.grad_output, src, n.size, c.size, n.padded, s.n, GDRAM2NRAM);
}

// Step 8, the selection: for neighbour k, each point's accumulator row
// (index - m_lo) and whether the index lies in this task's [m_lo, m_lo + m.size).
// Indices of other tasks' chunks, negative or >= M fail the test.
template <typename T>
void select_rows(const Nram<T> &nram, int k, const Chunk &m, const Chunk &n) {
  const int32_t *index = nram.indices_transpose + k * n.padded;
  __bang_sub_scalar(nram.index_row, index, static_cast<int32_t>(m.start), n.padded);
  __bang_ge_scalar(nram.row_ok, nram.index_row, 0, n.padded);
  __bang_lt_scalar(nram.row_below_end, nram.index_row, m.size, n.padded);
  __bang_and(nram.row_ok, nram.row_ok, nram.row_below_end, n.padded);
}

// Steps 5-6: the tile times neighbour k's weights (one weight per column),
// transposed so that each point's Co products are one contiguous row.
template <typename T>
void weigh_and_transpose(const Nram<T> &nram, int k, const Chunk &c, const Chunk &n) {
  __bang_cycle_mul(nram.grad_features_transpose, nram.grad_output,
                   nram.weights_transpose + k * n.padded, c.padded * n.padded, n.padded);
  __bang_transpose(nram.grad_output_transpose, nram.grad_features_transpose, c.padded, n.padded);
}

// Step 9: each selected point's row added into its accumulator row. Rows past
// the chunk's points are padding and never added.
template <typename T>
void accumulate(const Nram<T> &nram, const Chunk &c, const Chunk &n) {
  for (int p = 0; p < n.size; ++p) {
    if (nram.row_ok[p] == 0) continue;
    T *row = nram.grad_features + int64_t{nram.index_row[p]} * c.padded;
    __bang_add(row, row, nram.grad_output_transpose + int64_t{p} * c.padded, c.padded);
  }
}

// Step 11: the Mo x Co accumulator transposed to Co x Mo and stored once into
// grad_features[batch, c, m].
template <typename T>
void store_features(const Nram<T> &nram, T *grad_features, int64_t batch, const Shape &s,
                    const Chunk &c, const Chunk &m) {
  __bang_transpose(nram.grad_features_transpose, nram.grad_features, m.padded, c.padded);
  T *dst = grad_features + (batch * s.c + c.start) * s.m + m.start;
  copy_rows(dst, nram.grad_features_transpose, m.size, c.size, s.m, m.padded, NRAM2GDRAM);
}

// Steps 2-12 for one task: batch `batch`, grad_features points m.
template <typename T>
void run_task(const Nram<T> &nram, const T *grad_output, const int32_t *indices, const T *weights,
              T *grad_features, const Shape &s, const Tiles &t, int64_t batch, const Chunk &m) {
  for (int64_t c0 = 0; c0 < s.c; c0 += t.c) {
    const Chunk c = chunk<T>(c0, s.c, t.c);
    __bang_write_value(nram.grad_features, m.padded * c.padded, T(0));
    for (int64_t n0 = 0; n0 < s.n; n0 += t.n) {
      const Chunk n = chunk<T>(n0, s.n, t.n);
      load_neighbours(nram, indices, weights, batch, s, n);
      load_grad_output(nram, grad_output, batch, s, c, n);
      for (int k = 0; k < kNeighbours; ++k) {
        select_rows(nram, k, m, n);
        weigh_and_transpose(nram, k, c, n);
        accumulate(nram, c, n);
      }
    }
    store_features(nram, grad_features, batch, s, c, m);
  }
}

}  // namespace

template <typename T>
__mlu_global__ void MLUKernelThreeInterpolateBackward(const T *grad_output, const int32_t *indices,
                                                      const T *weights, T *grad_features,
                                                      Shape shape, Tiles tiles) {
  if (__is_mpu()) return;  // the memory core has no NRAM
  __nram_buffer__(char, nram_buffer, MAX_NRAM_SIZE);
  const Nram<T> nram = carve<T>(nram_buffer, plan_nram<T>(tiles));
  // Step 1: tasks over B x ceil(M / Mo), a contiguous block per core (step 13).
  const int64_t m_chunks = ceil_div(shape.m, tiles.m);
  const TaskRange mine = tasks_of(int64_t{shape.b} * m_chunks, taskId, taskDim);
  for (int64_t task = mine.first; task < mine.first + mine.count; ++task) {
    const Chunk m = chunk<T>(task % m_chunks * tiles.m, shape.m, tiles.m);
    run_task(nram, grad_output, indices, weights, grad_features, shape, tiles, task / m_chunks, m);
  }
}

template void MLUKernelThreeInterpolateBackward<float>(const float *, const int32_t *,
                                                       const float *, float *, Shape, Tiles);
template void MLUKernelThreeInterpolateBackward<half>(const half *, const int32_t *, const half *,
                                                      half *, Shape, Tiles);

}  // namespace three_interpolate_backward
