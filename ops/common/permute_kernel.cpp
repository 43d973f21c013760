// Device permute (see permute_kernel.h): the two kernels on the BANG-style
// API, then the host side that plans and launches them.
#include "ops/common/permute_kernel.h"

#include <algorithm>
#include <climits>

#include "ops/common/fill_kernel.h"
#include "ops/common/host.h"
#include "ops/common/kernel.h"

namespace mluop {
namespace {

// Input and output offsets, in elements, of batch item `item`.
__mlu_func__ void batch_offsets(const PermuteBatch &b, int64_t item, int64_t *in, int64_t *out) {
  *in = 0;
  *out = 0;
  for (int k = b.rank - 1; k >= 0; --k) {
    const int64_t coord = item % b.dims[k];
    item /= b.dims[k];
    *in += coord * b.in_strides[k];
    *out += coord * b.out_strides[k];
  }
}

// The task's even share of the batch.count * extent lines, walked one batch
// item at a time: f(in_offset, out_offset, first, last) with [first, last) the
// lines of that item.
template <typename F>
__mlu_func__ void for_each_run(const PermuteBatch &batch, int64_t extent, F &&f) {
  const Share mine = split_evenly(batch.count * extent, taskId, taskDim);
  for (int64_t line = mine.begin; line < mine.end;) {
    const int64_t item = line / extent, first = line % extent;
    const int64_t last = std::min(extent, first + (mine.end - line));
    int64_t in_offset, out_offset;
    batch_offsets(batch, item, &in_offset, &out_offset);
    f(in_offset, out_offset, first, last);
    line += last - first;
  }
}

// Rows [r0, r0+nr) x columns [c0, c0+nc) of one matrix through NRAM: a strided
// load (input rows row_in_stride apart, NRAM rows c_pad apart), a transpose of
// the padded tile, a strided store of the nc output rows (col_out_stride
// apart). Padding lanes hold stale NRAM; they are transposed but never stored.
template <typename T>
__mlu_func__ void transpose_tile(const T *in, T *out, const PermuteTilesParams &p, int64_t r0,
                                 int64_t nr, int64_t c0, int64_t nc, T *loaded, T *transposed) {
  const int64_t r_pad = PAD_UP(nr, p.align), c_pad = PAD_UP(nc, p.align);
  __memcpy(loaded, in + r0 * p.row_in_stride + c0, nc * sizeof(T), GDRAM2NRAM, c_pad * sizeof(T),
           p.row_in_stride * sizeof(T), nr - 1);
  __bang_transpose(transposed, loaded, r_pad, c_pad);
  __memcpy(out + c0 * p.col_out_stride + r0, transposed, nr * sizeof(T), NRAM2GDRAM,
           p.col_out_stride * sizeof(T), r_pad * sizeof(T), nc - 1);
}

}  // namespace

template <typename T>
__mlu_global__ void MLUKernelPermuteRows(const T *in, T *out, PermuteRowsParams p) {
  if (__is_mpu()) return;  // the memory core has no NRAM
  const int64_t row_bytes = p.row_elems * sizeof(T);
  for_each_run(p.batch, p.segments,
               [&](int64_t in_offset, int64_t out_offset, int64_t first, int64_t last) {
                 __memcpy(out + out_offset + first * p.row_elems,
                          in + in_offset + first * p.segment_in_stride, row_bytes, GDRAM2GDRAM,
                          row_bytes, p.segment_in_stride * sizeof(T), last - first - 1);
               });
}

template <typename T>
__mlu_global__ void MLUKernelPermuteTiles(const T *in, T *out, PermuteTilesParams p) {
  if (__is_mpu()) return;  // the memory core has no NRAM
  __nram_buffer__(char, nram_buffer, MAX_NRAM_SIZE);
  T *loaded = reinterpret_cast<T *>(nram_buffer);
  T *transposed = reinterpret_cast<T *>(nram_buffer + p.tile_bytes);
  // The task's lines are rows or columns; the other axis is taken whole.
  const int64_t extent = p.split_cols ? p.cols : p.rows;
  for_each_run(
      p.batch, extent, [&](int64_t in_offset, int64_t out_offset, int64_t first, int64_t last) {
        const int64_t r0 = p.split_cols ? 0 : first, r1 = p.split_cols ? p.rows : last;
        const int64_t c0 = p.split_cols ? first : 0, c1 = p.split_cols ? last : p.cols;
        for (int64_t r = r0; r < r1; r += p.tile_rows)
          for (int64_t c = c0; c < c1; c += p.tile_cols)
            transpose_tile(in + in_offset, out + out_offset, p, r, std::min(p.tile_rows, r1 - r), c,
                           std::min(p.tile_cols, c1 - c), loaded, transposed);
      });
}

#define MLUOP_PERMUTE_INSTANTIATE(T)                                        \
  template void MLUKernelPermuteRows<T>(const T *, T *, PermuteRowsParams); \
  template void MLUKernelPermuteTiles<T>(const T *, T *, PermuteTilesParams);
MLUOP_PERMUTE_INSTANTIATE(int8_t)
MLUOP_PERMUTE_INSTANTIATE(int16_t)
MLUOP_PERMUTE_INSTANTIATE(int32_t)
MLUOP_PERMUTE_INSTANTIATE(int64_t)
#undef MLUOP_PERMUTE_INSTANTIATE

// ---------------------------------------------------------------------------
// Host side.

namespace {

struct Axis {
  int64_t size, in_stride, out_stride;  // strides in elements
};

// The output's axes with size-1 axes dropped and neighbours merged (input axes
// that stay adjacent and in order); never empty.
std::vector<Axis> canonical_axes(const std::vector<int> &dims, const std::vector<int> &perm) {
  const int rank = static_cast<int>(dims.size());
  std::vector<int64_t> in_stride(rank);
  int64_t stride = 1;
  for (int k = rank - 1; k >= 0; --k) {
    in_stride[k] = stride;
    stride *= dims[k];
  }
  std::vector<Axis> axes;
  for (int d = 0; d < rank; ++d) {
    const int a = perm[d];
    if (dims[a] == 1) continue;
    if (!axes.empty() && axes.back().in_stride == in_stride[a] * dims[a]) {
      axes.back().size *= dims[a];
      axes.back().in_stride = in_stride[a];
    } else {
      axes.push_back({dims[a], in_stride[a], 0});
    }
  }
  if (axes.empty()) axes.push_back({1, 1, 0});
  stride = 1;
  for (auto it = axes.rbegin(); it != axes.rend(); ++it) {
    it->out_stride = stride;
    stride *= it->size;
  }
  return axes;
}

// The axes other than `skip_a` and `skip_b`, in output order.
PermuteBatch batch_of(const std::vector<Axis> &axes, int skip_a, int skip_b) {
  PermuteBatch b;
  for (int k = 0; k < static_cast<int>(axes.size()); ++k) {
    if (k == skip_a || k == skip_b) continue;
    b.dims[b.rank] = axes[k].size;
    b.in_strides[b.rank] = axes[k].in_stride;
    b.out_strides[b.rank] = axes[k].out_stride;
    b.count *= axes[k].size;
    ++b.rank;
  }
  return b;
}

bool fits_int(int64_t v) { return v <= INT_MAX; }
int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

template <typename T>
cnrtRet_t launch_typed(cnrtDim3_t dim, cnrtQueue_t queue, const void *in, void *out,
                       const PermuteRowsParams &p) {
  return MLUSIM_LAUNCH(MLUKernelPermuteRows<T>, dim, cnrtFuncTypeUnion1, queue,
                       static_cast<const T *>(in), static_cast<T *>(out), p);
}
template <typename T>
cnrtRet_t launch_typed(cnrtDim3_t dim, cnrtQueue_t queue, const void *in, void *out,
                       const PermuteTilesParams &p) {
  return MLUSIM_LAUNCH(MLUKernelPermuteTiles<T>, dim, cnrtFuncTypeUnion1, queue,
                       static_cast<const T *>(in), static_cast<T *>(out), p);
}

// Union1 over as many clusters as `lines` keeps busy, elements moved as
// same-width integers (a permute moves bits).
template <typename Params>
mluOpStatus_t launch_lines(mluOpHandle_t handle, const char *api, size_t elem_bytes, int64_t lines,
                           const void *in, void *out, const Params &p) {
  const int64_t cpc = cores_per_cluster();
  const cnrtDim3_t dim{
      static_cast<unsigned>(cpc),
      static_cast<unsigned>(std::min<int64_t>(cluster_count(), ceil_div(lines, cpc))), 1};
  cnrtRet_t ret;
  switch (elem_bytes) {
    case 1: ret = launch_typed<int8_t>(dim, handle->queue, in, out, p); break;
    case 2: ret = launch_typed<int16_t>(dim, handle->queue, in, out, p); break;
    case 4: ret = launch_typed<int32_t>(dim, handle->queue, in, out, p); break;
    default: ret = launch_typed<int64_t>(dim, handle->queue, in, out, p); break;
  }
  MLUOP_KERNEL_CHECK(api, ret);
  return MLUOP_STATUS_SUCCESS;
}

// The contiguous axis stays last: rows of it move whole.
mluOpStatus_t launch_rows(mluOpHandle_t handle, const char *api, const void *in, void *out,
                          const std::vector<Axis> &axes, size_t elem_bytes) {
  const int n = static_cast<int>(axes.size());
  const Axis &row = axes[n - 1];
  const Axis segment = n >= 2 ? axes[n - 2] : Axis{1, 0, row.size};
  PermuteRowsParams p;
  p.batch = batch_of(axes, n - 2, n - 1);
  p.segments = segment.size;
  p.row_elems = row.size;
  p.segment_in_stride = segment.in_stride;
  const int64_t row_bytes = p.row_elems * elem_bytes;
  const int64_t stride_bytes = p.segment_in_stride * elem_bytes;
  MLUOP_CHECK_STATUS(api, fits_int(row_bytes) && fits_int(stride_bytes) && fits_int(p.segments),
                     MLUOP_STATUS_NOT_SUPPORTED,
                     "permute: {} rows of {} bytes, {} bytes apart, exceed __memcpy's 32-bit "
                     "sizes",
                     p.segments, row_bytes, stride_bytes);
  return launch_lines(handle, api, elem_bytes, p.batch.count * p.segments, in, out, p);
}

// The contiguous axis moves: matrices transposed tile by tile through NRAM.
mluOpStatus_t launch_tiles(mluOpHandle_t handle, const char *api, const void *in, void *out,
                           const std::vector<Axis> &axes, size_t elem_bytes) {
  const int n = static_cast<int>(axes.size());
  const int rows_axis = n - 1;  // the output's contiguous axis
  const int cols_axis = static_cast<int>(
      std::find_if(axes.begin(), axes.end(), [](const Axis &a) { return a.in_stride == 1; }) -
      axes.begin());
  PermuteTilesParams p;
  p.batch = batch_of(axes, rows_axis, cols_axis);
  p.rows = axes[rows_axis].size;
  p.row_in_stride = axes[rows_axis].in_stride;
  p.cols = axes[cols_axis].size;
  p.col_out_stride = axes[cols_axis].out_stride;
  const int64_t in_stride_bytes = p.row_in_stride * elem_bytes;
  const int64_t out_stride_bytes = p.col_out_stride * elem_bytes;
  MLUOP_CHECK_STATUS(api, fits_int(in_stride_bytes) && fits_int(out_stride_bytes),
                     MLUOP_STATUS_NOT_SUPPORTED,
                     "permute: strides of {} and {} bytes exceed __memcpy's 32-bit strides",
                     in_stride_bytes, out_stride_bytes);

  // Tasks take lines of the axis that leaves them the longer strided segments
  // (a row split stores segments of its rows, a column split loads segments
  // of its columns), the other axis whole as far as NRAM allows.
  const int64_t tasks = int64_t{cluster_count()} * cores_per_cluster();
  auto share = [&](int64_t extent) {
    return std::min(extent, ceil_div(p.batch.count * extent, tasks));
  };
  p.split_cols = share(p.cols) > share(p.rows);
  const int64_t whole = p.split_cols ? p.rows : p.cols;

  // NRAM: the loaded tile and the transposed tile, half of NRAM each.
  const int64_t align_bytes = mlusim::current_device().transpose_align_bytes;
  MLUOP_CHECK_STATUS(api, align_bytes % static_cast<int64_t>(elem_bytes) == 0,
                     MLUOP_STATUS_NOT_SUPPORTED,
                     "permute: __bang_transpose's {}-byte granule holds no whole number of "
                     "{}-byte elements",
                     align_bytes, elem_bytes);
  p.align = align_bytes / static_cast<int64_t>(elem_bytes);
  p.tile_bytes = static_cast<int>(PAD_DOWN(nram_size() / 2, NFU_ALIGN_SIZE));
  const int64_t tile_elems = p.tile_bytes / static_cast<int64_t>(elem_bytes);
  const int64_t whole_tile =
      std::min(PAD_UP(whole, p.align), PAD_DOWN(tile_elems / p.align, p.align));
  const int64_t split_tile = whole_tile > 0 ? PAD_DOWN(tile_elems / whole_tile, p.align) : 0;
  MLUOP_CHECK_STATUS(api, split_tile > 0, MLUOP_STATUS_NOT_SUPPORTED,
                     "permute: {} bytes of NRAM hold no two {}x{} tiles of {}-byte elements",
                     nram_size(), p.align, p.align, elem_bytes);
  p.tile_rows = p.split_cols ? whole_tile : split_tile;
  p.tile_cols = p.split_cols ? split_tile : whole_tile;
  mlusim::log::op().debug("{} permute: {} matrices {}x{}, split {}, tiles {}x{}", api,
                          p.batch.count, p.rows, p.cols, p.split_cols ? "columns" : "rows",
                          p.tile_rows, p.tile_cols);
  const int64_t lines = p.batch.count * (p.split_cols ? p.cols : p.rows);
  return launch_lines(handle, api, elem_bytes, lines, in, out, p);
}

bool is_permutation(const std::vector<int> &perm) {
  std::vector<bool> seen(perm.size(), false);
  for (int a : perm) {
    if (a < 0 || a >= static_cast<int>(perm.size()) || seen[a]) return false;
    seen[a] = true;
  }
  return true;
}

}  // namespace

mluOpStatus_t launch_permute(mluOpHandle_t handle, const char *api, const void *in, void *out,
                             const std::vector<int> &dims, const std::vector<int> &perm,
                             size_t elem_bytes) {
  MLUOP_CHECK(api, handle != nullptr, "permute: handle is NULL");
  MLUOP_CHECK(api, !dims.empty() && dims.size() <= kPermuteMaxDims && perm.size() == dims.size(),
              "permute: {} dims and {} perm entries; need 1 to {} of each, as many", dims.size(),
              perm.size(), kPermuteMaxDims);
  MLUOP_CHECK(api, is_permutation(perm), "permute: perm {} is not a permutation of 0..{}", perm,
              perm.size() - 1);
  MLUOP_CHECK(api, std::all_of(dims.begin(), dims.end(), [](int d) { return d >= 0; }),
              "permute: dims {} has a negative size", dims);
  MLUOP_CHECK(api, elem_bytes == 1 || elem_bytes == 2 || elem_bytes == 4 || elem_bytes == 8,
              "permute: elements of {} bytes; need 1, 2, 4 or 8", elem_bytes);
  size_t elements = 1;
  for (int d : dims) elements *= static_cast<size_t>(d);
  if (elements == 0) return MLUOP_STATUS_SUCCESS;
  const size_t bytes = elements * elem_bytes;
  MLUOP_CHECK_DEVICE_PTR(api, in, bytes);
  MLUOP_CHECK_DEVICE_PTR(api, out, bytes);
  const auto *lo_in = static_cast<const char *>(in);
  const auto *lo_out = static_cast<const char *>(out);
  MLUOP_CHECK(api, lo_out + bytes <= lo_in || lo_in + bytes <= lo_out,
              "permute: in {} and out {} overlap ({} bytes each)", in, static_cast<void *>(out),
              bytes);

  const std::vector<Axis> axes = canonical_axes(dims, perm);
  if (axes.back().in_stride == 1) return launch_rows(handle, api, in, out, axes, elem_bytes);
  return launch_tiles(handle, api, in, out, axes, elem_bytes);
}

}  // namespace mluop
