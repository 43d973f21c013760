// cnnlCopy_v2 and cnnlTranspose_v2 (with its descriptor calls): both are the
// strided copy of copy_kernel.h. A copy takes the input's strides as they are,
// a transpose takes them in the permuted order; the output's strides are its
// own either way.
#include <algorithm>
#include <climits>
#include <cmath>
#include <numeric>
#include <utility>

#include <spdlog/fmt/ranges.h>

#include "cnnl/copy_kernel.h"
#include "cnnl/host.h"
#include "runtime/operator_kit.h"

namespace {

using cnnlsim::CopyPlan;
using cnnlsim::Tensor;

struct Axis {
  int64_t size, src_stride, dst_stride;
};

// Drops dims of size 1 and merges neighbours that are contiguous on both
// sides, so that the last dim is as long a row as the layouts allow.
std::vector<Axis> canonical_axes(std::vector<Axis> axes) {
  std::vector<Axis> out;
  for (const Axis &a : axes) {
    if (a.size == 1) continue;
    if (!out.empty() && out.back().src_stride == a.src_stride * a.size &&
        out.back().dst_stride == a.dst_stride * a.size) {
      out.back() = Axis{out.back().size * a.size, a.src_stride, a.dst_stride};
    } else {
      out.push_back(a);
    }
  }
  if (out.empty()) out.push_back(Axis{1, 1, 1});
  return out;
}

// True when no two elements of the tensor share an address: sorted by
// stride, each dim's stride clears everything the smaller ones span.
bool elements_distinct(const Tensor &t) {
  std::vector<std::pair<int64_t, int64_t>> by_stride;  // (stride, size)
  for (int i = 0; i < t.rank(); ++i)
    if (t.dim(i) > 1) by_stride.emplace_back(t.strides[i], t.dim(i));
  std::sort(by_stride.begin(), by_stride.end());
  int64_t span = 1;  // elements the dims so far reach, plus one
  for (const auto &[stride, size] : by_stride) {
    if (stride < span) return false;
    span = stride * (size - 1) + span;
  }
  return true;
}

// The dim the tiled transpose takes with the last one: the output's rows are
// contiguous, the input's are not, and this dim is contiguous in the input.
// -1 when the copy goes by rows.
int tile_axis_of(const std::vector<Axis> &axes) {
  const Axis &row = axes.back();
  if (row.dst_stride != 1 || row.src_stride == 1) return -1;
  for (size_t i = 0; i + 1 < axes.size(); ++i)
    if (axes[i].src_stride == 1) return static_cast<int>(i);
  return -1;
}

// Tiles of the largest size two of them fit NRAM (the tile and its
// transpose), no larger than the dims need, in whole transpose alignments.
void plan_tiles(CopyPlan &plan, int64_t cols_needed, int64_t rows_needed) {
  const int64_t align = std::max<int64_t>(cnnlsim::transpose_align_bytes() / plan.width, 1);
  const int64_t tile_elements = plan.nram_bytes / (2 * plan.width);
  const auto side = static_cast<int64_t>(std::sqrt(static_cast<double>(tile_elements)));
  plan.tile_cols = std::max(std::min(cnnlsim::round_up(cols_needed, align), side / align * align), align);
  plan.tile_rows = std::max(
      std::min(cnnlsim::round_up(rows_needed, align), tile_elements / plan.tile_cols / align * align),
      align);
}

// Checks the pointers and launches the copy of `axes` (in the output's dim
// order) from `in` to `out`; the caller checked dims and dtypes.
cnnlStatus_t run_copy(const char *api, cnnlHandle_t handle, const Tensor &in_t, const void *in,
                      const Tensor &out_t, void *out, std::vector<Axis> axes) {
  cnrtQueue_t queue = nullptr;
  CNNL_RETURN_IF_ERROR(cnnlsim::queue_of(api, handle, queue));
  const size_t width = cnnlsim::dtype_size(out_t.dtype);
  CNNL_SUPPORTS(api, width == 1 || width == 2 || width == 4 || width == 8,
                "elements of 1, 2, 4 or 8 bytes, output is {}", cnnlsim::describe(out_t));
  if (out_t.elements() == 0) return CNNL_STATUS_SUCCESS;
  CNNL_CHECK(api, elements_distinct(out_t), "output {}: its strides give two elements one address",
             cnnlsim::describe(out_t));
  CNNL_RETURN_IF_ERROR(cnnlsim::check_device(api, "input", in, in_t));
  CNNL_RETURN_IF_ERROR(cnnlsim::check_device(api, "output", out, out_t));
  CNNL_CHECK(api, !cnnlsim::overlap(in, in_t.span_bytes(), out, out_t.span_bytes()),
             "input and output share memory: in-place copies are not supported");

  CopyPlan plan;
  const std::vector<Axis> merged = canonical_axes(std::move(axes));
  plan.rank = static_cast<int>(merged.size());
  for (int i = 0; i < plan.rank; ++i) {
    plan.shape[i] = merged[i].size;
    plan.src_stride[i] = merged[i].src_stride;
    plan.dst_stride[i] = merged[i].dst_stride;
  }
  const Axis &row = merged.back();
  plan.src = in;
  plan.dst = out;
  plan.width = static_cast<int>(width);
  plan.nram_bytes = cnnlsim::nram_bytes();
  plan.tile_axis = tile_axis_of(merged);
  // One DMA's strides are ints of bytes.
  const int64_t dma_stride = std::max(
      row.src_stride, plan.tile_axis < 0 ? row.dst_stride : merged[plan.tile_axis].dst_stride);
  CNNL_SUPPORTS(api, dma_stride * static_cast<int64_t>(width) <= INT_MAX,
                "strides of at most 2^31 - 1 bytes within one DMA, got {} elements", dma_stride);
  int64_t items = out_t.elements() / row.size;
  if (plan.tile_axis >= 0) {
    const int64_t cols_needed = merged[plan.tile_axis].size;
    plan_tiles(plan, cols_needed, row.size);
    items = items / cols_needed * cnnlsim::ceil_div(cols_needed, plan.tile_cols) *
            cnnlsim::ceil_div(row.size, plan.tile_rows);
  } else {
    plan.chunk = std::min<int64_t>(row.size, plan.nram_bytes / plan.width);
    items *= cnnlsim::ceil_div(row.size, plan.chunk);
  }
  plan.dim = cnnlsim::union1_dim(items);

  mlusim::OpScope scope(queue, api, cnnlsim::io_bytes({&in_t, &out_t}), 0, out_t.dtype);
  return cnnlsim::launched(api, cnnlsim::launch_copy(queue, plan));
}

}  // namespace

cnnlStatus_t cnnlCopy_v2(cnnlHandle_t handle, const cnnlTensorDescriptor_t input_desc,
                         const void *input, const cnnlTensorDescriptor_t output_desc, void *output,
                         void * /*workspace*/, size_t /*workspace_size*/) {
  const char *api = "cnnlCopy_v2";
  Tensor in_t, out_t;
  CNNL_RETURN_IF_ERROR(cnnlsim::required(api, "input_desc", input_desc, in_t));
  CNNL_RETURN_IF_ERROR(cnnlsim::required(api, "output_desc", output_desc, out_t));
  CNNL_CHECK(api, in_t.dims == out_t.dims && in_t.dtype == out_t.dtype,
             "input {} and output {} must have equal dims and dtype", cnnlsim::describe(in_t),
             cnnlsim::describe(out_t));
  std::vector<Axis> axes;
  for (int i = 0; i < out_t.rank(); ++i)
    axes.push_back(Axis{out_t.dim(i), in_t.strides[i], out_t.strides[i]});
  return run_copy(api, handle, in_t, input, out_t, output, std::move(axes));
}

cnnlStatus_t cnnlCreateTransposeDescriptor(cnnlTransposeDescriptor_t *desc) {
  return cnnlsim::create_call("cnnlCreateTransposeDescriptor", desc);
}

cnnlStatus_t cnnlDestroyTransposeDescriptor(cnnlTransposeDescriptor_t desc) {
  return cnnlsim::destroy_call("cnnlDestroyTransposeDescriptor", desc);
}

cnnlStatus_t cnnlSetTransposeDescriptor(cnnlTransposeDescriptor_t desc, const int dims,
                                        const int permute[]) {
  const char *api = "cnnlSetTransposeDescriptor";
  const auto live = cnnlsim::find_transpose(desc);
  CNNL_CHECK(api, live != nullptr, "descriptor {} is not a live transpose descriptor",
             static_cast<void *>(desc));
  CNNL_CHECK(api, dims >= 1 && dims <= CNNL_DIM_MAX, "dims = {} not in [1, {}]", dims,
             CNNL_DIM_MAX);
  CNNL_CHECK(api, permute != nullptr, "permute is NULL");
  std::vector<int> p(permute, permute + dims), sorted(p);
  std::sort(sorted.begin(), sorted.end());
  std::vector<int> identity(static_cast<size_t>(dims));
  std::iota(identity.begin(), identity.end(), 0);
  CNNL_CHECK(api, sorted == identity, "permute [{}] is not a permutation of 0..{}",
             fmt::join(p, ","), dims - 1);
  live->permute = std::move(p);
  return CNNL_STATUS_SUCCESS;
}

namespace {

cnnlStatus_t transpose_of(const char *api, cnnlTransposeDescriptor_t desc,
                          std::vector<int> &permute) {
  const auto live = cnnlsim::find_transpose(desc);
  CNNL_CHECK(api, live != nullptr, "desc {} is not a live transpose descriptor",
             static_cast<void *>(desc));
  CNNL_CHECK(api, !live->permute.empty(), "desc was never set (cnnlSetTransposeDescriptor)");
  permute = live->permute;
  return CNNL_STATUS_SUCCESS;
}

}  // namespace

cnnlStatus_t cnnlGetTransposeWorkspaceSize(cnnlHandle_t handle,
                                           const cnnlTensorDescriptor_t x_desc,
                                           const cnnlTransposeDescriptor_t desc, size_t *size) {
  const char *api = "cnnlGetTransposeWorkspaceSize";
  std::vector<int> permute;
  CNNL_RETURN_IF_ERROR(transpose_of(api, desc, permute));
  return cnnlsim::no_workspace(api, handle, "x_desc", x_desc, size);
}

cnnlStatus_t cnnlTranspose_v2(cnnlHandle_t handle, const cnnlTransposeDescriptor_t desc,
                              const cnnlTensorDescriptor_t x_desc, const void *x,
                              const cnnlTensorDescriptor_t y_desc, void *y, void * /*workspace*/,
                              size_t /*workspace_size*/) {
  const char *api = "cnnlTranspose_v2";
  std::vector<int> permute;
  CNNL_RETURN_IF_ERROR(transpose_of(api, desc, permute));
  Tensor x_t, y_t;
  CNNL_RETURN_IF_ERROR(cnnlsim::required(api, "x_desc", x_desc, x_t));
  CNNL_RETURN_IF_ERROR(cnnlsim::required(api, "y_desc", y_desc, y_t));
  CNNL_CHECK(api, x_t.rank() == static_cast<int>(permute.size()),
             "x {} has {} dims, the permutation {}", cnnlsim::describe(x_t), x_t.rank(),
             permute.size());
  std::vector<int64_t> permuted(permute.size());
  std::vector<Axis> axes;
  for (size_t i = 0; i < permute.size(); ++i) {
    permuted[i] = x_t.dim(permute[i]);
    axes.push_back(Axis{permuted[i], x_t.strides[permute[i]], 0});
  }
  CNNL_CHECK(api, y_t.dims == permuted && y_t.dtype == x_t.dtype,
             "y {} must have x's dtype and dims [{}] (x {} permuted by [{}])",
             cnnlsim::describe(y_t), fmt::join(permuted, ","), cnnlsim::describe(x_t),
             fmt::join(permute, ","));
  for (size_t i = 0; i < axes.size(); ++i) axes[i].dst_stride = y_t.strides[i];
  return run_copy(api, handle, x_t, x, y_t, y, std::move(axes));
}
