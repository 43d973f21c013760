// The SyncBatchNorm family: the checks (channel-last data of float or half,
// float per-channel vectors of C, dense tensors, device memory), the tiling of
// sync_batch_norm_kernel.h and the launches. Semantics: PyTorch's
// batch_norm_stats, batch_norm_gather_stats_with_counts, batch_norm_elemt,
// batch_norm_backward_reduce and batch_norm_backward_elemt, as mlu-ops'
// gtest references compute them (include/cnnl.h states each).
#include <algorithm>
#include <climits>

#include "cnnl/host.h"
#include "cnnl/sync_batch_norm_kernel.h"
#include "runtime/operator_kit.h"

namespace {

using cnnlsim::Tensor;
namespace bn = cnnlsim::bn;

// The channel-last layouts and the rank each implies.
int rank_of_layout(cnnlTensorLayout_t layout) {
  switch (layout) {
    case CNNL_LAYOUT_NC: return 2;
    case CNNL_LAYOUT_NLC: return 3;
    case CNNL_LAYOUT_NHWC: return 4;
    case CNNL_LAYOUT_NDHWC: return 5;
    default: return 0;
  }
}

cnnlStatus_t check_dense(const char *api, const char *name, const Tensor &t) {
  CNNL_SUPPORTS(api, t.dense(), "{} {}: a dense tensor", name, cnnlsim::describe(t));
  return CNNL_STATUS_SUCCESS;
}

// A data tensor: channel-last, float or half, dense.
cnnlStatus_t check_data(const char *api, const char *name, const Tensor &t) {
  CNNL_CHECK(api, rank_of_layout(t.layout) != 0 && t.rank() == rank_of_layout(t.layout),
             "{} is {}: must be NC (2 dims), NLC (3), NHWC (4) or NDHWC (5)", name,
             cnnlsim::describe(t));
  CNNL_CHECK(api, t.dtype == CNNL_DTYPE_FLOAT || t.dtype == CNNL_DTYPE_HALF,
             "{} is {}: float or half", name, cnnlsim::describe(t));
  CNNL_SUPPORTS(api, t.last_dim() * 4 <= INT_MAX, "{} {}: fewer than 2^29 channels", name,
                cnnlsim::describe(t));
  return check_dense(api, name, t);
}

// A second data tensor of the call: x's dims, layout and dtype.
cnnlStatus_t check_like(const char *api, const char *name, const Tensor &t, const Tensor &x) {
  CNNL_CHECK(api, t.dims == x.dims && t.layout == x.layout && t.dtype == x.dtype,
             "{} is {}, x is {}: dims, layout and dtype must be equal", name,
             cnnlsim::describe(t), cnnlsim::describe(x));
  return check_dense(api, name, t);
}

// A per-channel tensor: 1-D of `channels`, of one of `dtypes` (float unless said).
cnnlStatus_t check_vector(const char *api, const char *name, const Tensor &t, int64_t channels,
                          bool half_too = false) {
  CNNL_CHECK(api, t.rank() == 1 && t.dim(0) == channels,
             "{} is {}: must be 1-D of {} (the channels of x)", name, cnnlsim::describe(t),
             channels);
  CNNL_CHECK(api, t.dtype == CNNL_DTYPE_FLOAT || (half_too && t.dtype == CNNL_DTYPE_HALF),
             "{} is {}: {}", name, cnnlsim::describe(t), half_too ? "float or half" : "float");
  return check_dense(api, name, t);
}

enum class Split { kChannelBlocks, kTiles };

// Channels per block and rows per tile for `use`. Reductions give each task
// whole channel blocks, so blocks are made narrow enough for every core to get
// one; element-wise kernels take as many channels as fit, for longer rows.
cnnlStatus_t make_tiling(const char *api, int64_t rows, int64_t channels, bool half,
                         const bn::NramUse &use, Split split, bn::Tiling &t) {
  t.rows = rows;
  t.channels = channels;
  t.half = half;
  t.nram_bytes = cnnlsim::nram_bytes();
  // The widest pitch with room for one row.
  const int64_t per_pitch = 4 * (use.vectors + use.tiles) + (half ? 2 * use.staged : 0);
  const int64_t max_pitch = t.nram_bytes / per_pitch / bn::kPitchAlign * bn::kPitchAlign;
  CNNL_SUPPORTS(api, max_pitch >= bn::kPitchAlign, "NRAM for {} channels", bn::kPitchAlign);
  const int64_t wanted = split == Split::kChannelBlocks
                             ? cnnlsim::ceil_div(channels, cnnlsim::core_count())
                             : channels;
  t.cp = std::min(cnnlsim::round_up(wanted, bn::kPitchAlign), max_pitch);
  t.cb = std::min(t.cp, channels);
  const int64_t fixed = bn::NramUse{use.vectors, 0, 0}.bytes(t);
  const int64_t per_row = bn::NramUse{0, use.tiles, use.staged}.bytes(bn::Tiling{0, 0, 0, t.cp, 1, half});
  t.rb = std::clamp<int64_t>((t.nram_bytes - fixed) / per_row, 1, rows);
  const int64_t items =
      split == Split::kChannelBlocks ? t.channel_blocks() : t.channel_blocks() * t.row_tiles();
  t.dim = cnnlsim::union1_dim(items);
  return CNNL_STATUS_SUCCESS;
}

// Rows of a channel-last tensor: every element but the channels.
int64_t rows_of(const Tensor &t) { return t.last_dim() == 0 ? 0 : t.elements() / t.last_dim(); }

cnnlStatus_t stats(const char *api, cnnlHandle_t handle, const cnnlTensorDescriptor_t x_desc,
                   const void *x, float eps, const cnnlTensorDescriptor_t mean_desc, void *mean,
                   const cnnlTensorDescriptor_t invstd_desc, void *invstd) {
  cnrtQueue_t queue = nullptr;
  CNNL_RETURN_IF_ERROR(cnnlsim::queue_of(api, handle, queue));
  Tensor x_t, mean_t, invstd_t;
  CNNL_RETURN_IF_ERROR(cnnlsim::required(api, "x_desc", x_desc, x_t));
  CNNL_RETURN_IF_ERROR(cnnlsim::required(api, "mean_desc", mean_desc, mean_t));
  CNNL_RETURN_IF_ERROR(cnnlsim::required(api, "invstd_desc", invstd_desc, invstd_t));
  CNNL_RETURN_IF_ERROR(check_data(api, "x", x_t));
  const int64_t channels = x_t.last_dim();
  CNNL_RETURN_IF_ERROR(check_vector(api, "mean", mean_t, channels));
  CNNL_RETURN_IF_ERROR(check_vector(api, "invstd", invstd_t, channels));
  CNNL_CHECK(api, eps >= 0, "eps = {} is negative", eps);
  if (x_t.elements() == 0) return CNNL_STATUS_SUCCESS;
  CNNL_RETURN_IF_ERROR(cnnlsim::check_buffers(api, {{"x", &x_t, x}},
                                    {{"mean", &mean_t, mean}, {"invstd", &invstd_t, invstd}}));
  bn::StatsArgs args{{}, x, eps, static_cast<float *>(mean), static_cast<float *>(invstd)};
  CNNL_RETURN_IF_ERROR(make_tiling(api, rows_of(x_t), channels, x_t.dtype == CNNL_DTYPE_HALF,
                                   bn::kStatsNram, Split::kChannelBlocks, args.t));
  mlusim::OpScope scope(queue, api, cnnlsim::io_bytes({&x_t, &mean_t, &invstd_t}),
                        4.0 * x_t.elements(), x_t.dtype);
  return cnnlsim::launched(api, bn::launch_stats(queue, args));
}

cnnlStatus_t backward_reduce(const char *api, cnnlHandle_t handle,
                             const cnnlTensorDescriptor_t desc_dz, const void *dz,
                             const cnnlTensorDescriptor_t desc_x, const void *x,
                             const cnnlTensorDescriptor_t desc_mean, const void *mean,
                             const cnnlTensorDescriptor_t desc_invstd, const void *invstd,
                             const cnnlTensorDescriptor_t desc_dfilter, void *dfilter,
                             const cnnlTensorDescriptor_t desc_dbias, void *dbias,
                             const cnnlTensorDescriptor_t desc_sum_dy, void *sum_dy,
                             const cnnlTensorDescriptor_t desc_sum_dy_xmu, void *sum_dy_xmu,
                             bool grad0, bool grad1, bool grad2) {
  cnrtQueue_t queue = nullptr;
  CNNL_RETURN_IF_ERROR(cnnlsim::queue_of(api, handle, queue));
  Tensor dz_t, x_t, mean_t, invstd_t, dfilter_t, dbias_t, sum_dy_t, sum_dy_xmu_t;
  CNNL_RETURN_IF_ERROR(cnnlsim::required(api, "desc_dz", desc_dz, dz_t));
  CNNL_RETURN_IF_ERROR(cnnlsim::required(api, "desc_x", desc_x, x_t));
  CNNL_RETURN_IF_ERROR(cnnlsim::required(api, "desc_mean", desc_mean, mean_t));
  CNNL_RETURN_IF_ERROR(cnnlsim::required(api, "desc_invstd", desc_invstd, invstd_t));
  CNNL_RETURN_IF_ERROR(check_data(api, "x", x_t));
  CNNL_RETURN_IF_ERROR(check_like(api, "dz", dz_t, x_t));
  const int64_t channels = x_t.last_dim();
  CNNL_RETURN_IF_ERROR(check_vector(api, "mean", mean_t, channels));
  CNNL_RETURN_IF_ERROR(check_vector(api, "invstd", invstd_t, channels));
  // Each output asked for needs its descriptor; the others are ignored.
  auto output = [&](bool wanted, const char *name, cnnlTensorDescriptor_t desc, Tensor &t,
                    void *&ptr) {
    if (!wanted) {
      ptr = nullptr;
      t = Tensor{};
      return CNNL_STATUS_SUCCESS;
    }
    CNNL_RETURN_IF_ERROR(cnnlsim::required(api, name, desc, t));
    return check_vector(api, name, t, channels);
  };
  CNNL_RETURN_IF_ERROR(output(grad0, "desc_sum_dy", desc_sum_dy, sum_dy_t, sum_dy));
  CNNL_RETURN_IF_ERROR(output(grad0, "desc_sum_dy_xmu", desc_sum_dy_xmu, sum_dy_xmu_t, sum_dy_xmu));
  CNNL_RETURN_IF_ERROR(output(grad1, "desc_dfilter", desc_dfilter, dfilter_t, dfilter));
  CNNL_RETURN_IF_ERROR(output(grad2, "desc_dbias", desc_dbias, dbias_t, dbias));
  if (x_t.elements() == 0 || !(grad0 || grad1 || grad2)) return CNNL_STATUS_SUCCESS;
  CNNL_RETURN_IF_ERROR(cnnlsim::check_buffers(
      api, {{"dz", &dz_t, dz}, {"x", &x_t, x}, {"mean", &mean_t, mean}, {"invstd", &invstd_t, invstd}},
      {{"sum_dy", &sum_dy_t, sum_dy},
       {"sum_dy_xmu", &sum_dy_xmu_t, sum_dy_xmu},
       {"dfilter", &dfilter_t, dfilter},
       {"dbias", &dbias_t, dbias}}));
  bn::BackwardReduceArgs args{{},
                              dz,
                              x,
                              static_cast<const float *>(mean),
                              static_cast<const float *>(invstd),
                              static_cast<float *>(dfilter),
                              static_cast<float *>(dbias),
                              static_cast<float *>(sum_dy),
                              static_cast<float *>(sum_dy_xmu)};
  CNNL_RETURN_IF_ERROR(make_tiling(api, rows_of(x_t), channels, x_t.dtype == CNNL_DTYPE_HALF,
                                   bn::kBackwardReduceNram, Split::kChannelBlocks, args.t));
  mlusim::OpScope scope(queue, api,
                        cnnlsim::io_bytes({&dz_t, &x_t, &mean_t, &invstd_t, &dfilter_t, &dbias_t,
                                           &sum_dy_t, &sum_dy_xmu_t}),
                        5.0 * x_t.elements(), x_t.dtype);
  return cnnlsim::launched(api, bn::launch_backward_reduce(queue, args));
}

// v1 (count_desc NULL): mean_dy and mean_dy_xmu; v2: sum_dy, sum_dy_xmu, count.
cnnlStatus_t backward_elemt(const char *api, cnnlHandle_t handle,
                            const cnnlTensorDescriptor_t diff_y_desc, const void *diff_y,
                            const cnnlTensorDescriptor_t x_desc, const void *x,
                            const cnnlTensorDescriptor_t mean_desc, const void *mean,
                            const cnnlTensorDescriptor_t invstd_desc, const void *invstd,
                            const cnnlTensorDescriptor_t filter_desc, const void *filter,
                            const char *dy_name, const cnnlTensorDescriptor_t dy_desc,
                            const void *dy_stat, const char *xmu_name,
                            const cnnlTensorDescriptor_t xmu_desc, const void *xmu_stat,
                            const cnnlTensorDescriptor_t count_desc, const void *count,
                            const cnnlTensorDescriptor_t diff_x_desc, void *diff_x) {
  cnrtQueue_t queue = nullptr;
  CNNL_RETURN_IF_ERROR(cnnlsim::queue_of(api, handle, queue));
  Tensor dy_t, x_t, mean_t, invstd_t, filter_t, dy_stat_t, xmu_t, count_t, dx_t;
  bool has_filter = false;
  CNNL_RETURN_IF_ERROR(cnnlsim::required(api, "diff_y_desc", diff_y_desc, dy_t));
  CNNL_RETURN_IF_ERROR(cnnlsim::required(api, "x_desc", x_desc, x_t));
  CNNL_RETURN_IF_ERROR(cnnlsim::required(api, "mean_desc", mean_desc, mean_t));
  CNNL_RETURN_IF_ERROR(cnnlsim::required(api, "invstd_desc", invstd_desc, invstd_t));
  CNNL_RETURN_IF_ERROR(cnnlsim::optional(api, "filter_desc", filter_desc, filter_t, has_filter));
  CNNL_RETURN_IF_ERROR(cnnlsim::required(api, dy_name, dy_desc, dy_stat_t));
  CNNL_RETURN_IF_ERROR(cnnlsim::required(api, xmu_name, xmu_desc, xmu_t));
  CNNL_RETURN_IF_ERROR(cnnlsim::required(api, "diff_x_desc", diff_x_desc, dx_t));
  CNNL_RETURN_IF_ERROR(check_data(api, "x", x_t));
  CNNL_RETURN_IF_ERROR(check_like(api, "diff_y", dy_t, x_t));
  CNNL_RETURN_IF_ERROR(check_like(api, "diff_x", dx_t, x_t));
  const int64_t channels = x_t.last_dim();
  CNNL_RETURN_IF_ERROR(check_vector(api, "mean", mean_t, channels));
  CNNL_RETURN_IF_ERROR(check_vector(api, "invstd", invstd_t, channels));
  CNNL_RETURN_IF_ERROR(check_vector(api, dy_name, dy_stat_t, channels));
  CNNL_RETURN_IF_ERROR(check_vector(api, xmu_name, xmu_t, channels));
  CNNL_CHECK(api, has_filter == (filter != nullptr), "filter_desc and filter: both or neither");
  if (has_filter) CNNL_RETURN_IF_ERROR(check_vector(api, "filter", filter_t, channels));
  if (count_desc != nullptr) {
    CNNL_RETURN_IF_ERROR(cnnlsim::required(api, "count_desc", count_desc, count_t));
    CNNL_CHECK(api, count_t.rank() == 1 && count_t.dtype == CNNL_DTYPE_INT32 && count_t.dim(0) > 0,
               "count is {}: a non-empty 1-D int32 tensor (one count per device)",
               cnnlsim::describe(count_t));
  }
  if (x_t.elements() == 0) return CNNL_STATUS_SUCCESS;
  CNNL_RETURN_IF_ERROR(cnnlsim::check_buffers(api,
                                    {{"diff_y", &dy_t, diff_y},
                                     {"x", &x_t, x},
                                     {"mean", &mean_t, mean},
                                     {"invstd", &invstd_t, invstd},
                                     {"filter", &filter_t, filter},
                                     {dy_name, &dy_stat_t, dy_stat},
                                     {xmu_name, &xmu_t, xmu_stat},
                                     {"count", &count_t, count}},
                                    {{"diff_x", &dx_t, diff_x}}));
  bn::BackwardElemtArgs args{{},
                             diff_y,
                             x,
                             static_cast<const float *>(mean),
                             static_cast<const float *>(invstd),
                             static_cast<const float *>(filter),
                             static_cast<const float *>(dy_stat),
                             static_cast<const float *>(xmu_stat),
                             static_cast<const int32_t *>(count),
                             count_t.elements(),
                             diff_x};
  CNNL_RETURN_IF_ERROR(make_tiling(api, rows_of(x_t), channels, x_t.dtype == CNNL_DTYPE_HALF,
                                   bn::kBackwardElemtNram, Split::kTiles, args.t));
  mlusim::OpScope scope(queue, api, cnnlsim::io_bytes({&dy_t, &x_t, &dx_t}), 6.0 * x_t.elements(),
                        x_t.dtype);
  return cnnlsim::launched(api, bn::launch_backward_elemt(queue, args));
}

}  // namespace

cnnlStatus_t cnnlGetSyncBatchNormStatsWorkspaceSize(cnnlHandle_t handle,
                                                    const cnnlTensorDescriptor_t x_desc,
                                                    size_t *workspace_size) {
  return cnnlsim::no_workspace("cnnlGetSyncBatchNormStatsWorkspaceSize", handle, "x_desc", x_desc,
                               workspace_size);
}

cnnlStatus_t cnnlSyncBatchNormStats(cnnlHandle_t handle, const cnnlTensorDescriptor_t x_desc,
                                    const void *x, const float eps,
                                    const cnnlTensorDescriptor_t mean_desc, void *mean,
                                    const cnnlTensorDescriptor_t invstd_desc, void *invstd) {
  return stats("cnnlSyncBatchNormStats", handle, x_desc, x, eps, mean_desc, mean, invstd_desc,
               invstd);
}

cnnlStatus_t cnnlSyncBatchNormStats_v2(cnnlHandle_t handle, const cnnlTensorDescriptor_t x_desc,
                                       const void *x, void * /*workspace*/,
                                       size_t /*workspace_size*/, const float eps,
                                       const cnnlTensorDescriptor_t mean_desc, void *mean,
                                       const cnnlTensorDescriptor_t invstd_desc, void *invstd) {
  return stats("cnnlSyncBatchNormStats_v2", handle, x_desc, x, eps, mean_desc, mean, invstd_desc,
               invstd);
}

cnnlStatus_t cnnlSyncBatchNormGatherStatsWithCounts(
    cnnlHandle_t handle, const cnnlTensorDescriptor_t mean_all_desc, const void *mean_all,
    const cnnlTensorDescriptor_t invstd_all_desc, const void *invstd_all,
    const cnnlTensorDescriptor_t moving_mean_desc, void *moving_mean,
    const cnnlTensorDescriptor_t moving_var_desc, void *moving_var, float momentum, float eps,
    const cnnlTensorDescriptor_t count_all_desc, const void *count_all,
    const cnnlTensorDescriptor_t mean_desc, void *mean, const cnnlTensorDescriptor_t invstd_desc,
    void *invstd) {
  const char *api = "cnnlSyncBatchNormGatherStatsWithCounts";
  cnrtQueue_t queue = nullptr;
  CNNL_RETURN_IF_ERROR(cnnlsim::queue_of(api, handle, queue));
  Tensor mean_all_t, invstd_all_t, moving_mean_t, moving_var_t, count_t, mean_t, invstd_t;
  bool has_moving_mean = false, has_moving_var = false;
  CNNL_RETURN_IF_ERROR(cnnlsim::required(api, "mean_all_desc", mean_all_desc, mean_all_t));
  CNNL_RETURN_IF_ERROR(cnnlsim::required(api, "invstd_all_desc", invstd_all_desc, invstd_all_t));
  CNNL_RETURN_IF_ERROR(
      cnnlsim::optional(api, "moving_mean_desc", moving_mean_desc, moving_mean_t, has_moving_mean));
  CNNL_RETURN_IF_ERROR(
      cnnlsim::optional(api, "moving_var_desc", moving_var_desc, moving_var_t, has_moving_var));
  CNNL_RETURN_IF_ERROR(cnnlsim::required(api, "count_all_desc", count_all_desc, count_t));
  CNNL_RETURN_IF_ERROR(cnnlsim::required(api, "mean_desc", mean_desc, mean_t));
  CNNL_RETURN_IF_ERROR(cnnlsim::required(api, "invstd_desc", invstd_desc, invstd_t));
  CNNL_CHECK(api, mean_all_t.rank() == 2 && mean_all_t.dtype == CNNL_DTYPE_FLOAT,
             "mean_all is {}: [devices, channels] of float", cnnlsim::describe(mean_all_t));
  CNNL_RETURN_IF_ERROR(check_dense(api, "mean_all", mean_all_t));
  CNNL_CHECK(api, invstd_all_t.dims == mean_all_t.dims && invstd_all_t.dtype == CNNL_DTYPE_FLOAT,
             "invstd_all is {}, mean_all {}: equal dims, float", cnnlsim::describe(invstd_all_t),
             cnnlsim::describe(mean_all_t));
  CNNL_RETURN_IF_ERROR(check_dense(api, "invstd_all", invstd_all_t));
  const int64_t devices = mean_all_t.dim(0), channels = mean_all_t.dim(1);
  CNNL_CHECK(api,
             count_t.rank() == 1 && count_t.dim(0) == devices &&
                 (count_t.dtype == CNNL_DTYPE_FLOAT || count_t.dtype == CNNL_DTYPE_HALF),
             "count_all is {}: 1-D of {} (the devices of mean_all), float or half",
             cnnlsim::describe(count_t), devices);
  CNNL_RETURN_IF_ERROR(check_dense(api, "count_all", count_t));
  CNNL_RETURN_IF_ERROR(check_vector(api, "mean", mean_t, channels));
  CNNL_RETURN_IF_ERROR(check_vector(api, "invstd", invstd_t, channels));
  CNNL_CHECK(api, has_moving_mean == has_moving_var && has_moving_mean == (moving_mean != nullptr) &&
                      has_moving_var == (moving_var != nullptr),
             "moving_mean and moving_var: both (descriptors and pointers) or neither");
  if (has_moving_mean) {
    CNNL_RETURN_IF_ERROR(check_vector(api, "moving_mean", moving_mean_t, channels, true));
    CNNL_RETURN_IF_ERROR(check_vector(api, "moving_var", moving_var_t, channels, true));
    CNNL_CHECK(api, moving_mean_t.dtype == moving_var_t.dtype,
               "moving_mean is {}, moving_var {}: one dtype", cnnlsim::describe(moving_mean_t),
               cnnlsim::describe(moving_var_t));
  }
  if (channels == 0) return CNNL_STATUS_SUCCESS;
  CNNL_CHECK(api, devices > 0, "mean_all is {}: no devices to gather", cnnlsim::describe(mean_all_t));
  CNNL_RETURN_IF_ERROR(cnnlsim::check_buffers(api,
                                    {{"mean_all", &mean_all_t, mean_all},
                                     {"invstd_all", &invstd_all_t, invstd_all},
                                     {"count_all", &count_t, count_all}},
                                    {{"moving_mean", &moving_mean_t, moving_mean},
                                     {"moving_var", &moving_var_t, moving_var},
                                     {"mean", &mean_t, mean},
                                     {"invstd", &invstd_t, invstd}}));
  bn::GatherArgs args{{},
                      static_cast<const float *>(mean_all),
                      static_cast<const float *>(invstd_all),
                      count_all,
                      count_t.dtype == CNNL_DTYPE_HALF,
                      moving_mean,
                      moving_var,
                      moving_mean_t.dtype == CNNL_DTYPE_HALF,
                      momentum,
                      eps,
                      static_cast<float *>(mean),
                      static_cast<float *>(invstd)};
  CNNL_RETURN_IF_ERROR(make_tiling(api, devices, channels, false, bn::kGatherNram,
                                   Split::kChannelBlocks, args.t));
  mlusim::OpScope scope(queue, api,
                        cnnlsim::io_bytes({&mean_all_t, &invstd_all_t, &count_t, &moving_mean_t,
                                           &moving_var_t, &mean_t, &invstd_t}),
                        8.0 * mean_all_t.elements(), CNNL_DTYPE_FLOAT);
  return cnnlsim::launched(api, bn::launch_gather(queue, args));
}

cnnlStatus_t cnnlSyncBatchNormElemt(cnnlHandle_t handle, const cnnlTensorDescriptor_t x_desc,
                                    const void *x, const cnnlTensorDescriptor_t mean_desc,
                                    const void *mean, const cnnlTensorDescriptor_t invstd_desc,
                                    const void *invstd, const cnnlTensorDescriptor_t filter_desc,
                                    const void *filter, const cnnlTensorDescriptor_t bias_desc,
                                    const void *bias, const cnnlTensorDescriptor_t y_desc,
                                    void *y) {
  const char *api = "cnnlSyncBatchNormElemt";
  cnrtQueue_t queue = nullptr;
  CNNL_RETURN_IF_ERROR(cnnlsim::queue_of(api, handle, queue));
  Tensor x_t, mean_t, invstd_t, filter_t, bias_t, y_t;
  bool has_filter = false, has_bias = false;
  CNNL_RETURN_IF_ERROR(cnnlsim::required(api, "x_desc", x_desc, x_t));
  CNNL_RETURN_IF_ERROR(cnnlsim::required(api, "mean_desc", mean_desc, mean_t));
  CNNL_RETURN_IF_ERROR(cnnlsim::required(api, "invstd_desc", invstd_desc, invstd_t));
  CNNL_RETURN_IF_ERROR(cnnlsim::optional(api, "filter_desc", filter_desc, filter_t, has_filter));
  CNNL_RETURN_IF_ERROR(cnnlsim::optional(api, "bias_desc", bias_desc, bias_t, has_bias));
  CNNL_RETURN_IF_ERROR(cnnlsim::required(api, "y_desc", y_desc, y_t));
  CNNL_RETURN_IF_ERROR(check_data(api, "x", x_t));
  CNNL_RETURN_IF_ERROR(check_like(api, "y", y_t, x_t));
  const int64_t channels = x_t.last_dim();
  CNNL_RETURN_IF_ERROR(check_vector(api, "mean", mean_t, channels));
  CNNL_RETURN_IF_ERROR(check_vector(api, "invstd", invstd_t, channels));
  CNNL_CHECK(api, has_filter == has_bias && has_filter == (filter != nullptr) &&
                      has_bias == (bias != nullptr),
             "filter and bias: both (descriptors and pointers) or neither");
  if (has_filter) {
    CNNL_RETURN_IF_ERROR(check_vector(api, "filter", filter_t, channels));
    CNNL_RETURN_IF_ERROR(check_vector(api, "bias", bias_t, channels));
  }
  if (x_t.elements() == 0) return CNNL_STATUS_SUCCESS;
  CNNL_RETURN_IF_ERROR(cnnlsim::check_buffers(api,
                                    {{"x", &x_t, x},
                                     {"mean", &mean_t, mean},
                                     {"invstd", &invstd_t, invstd},
                                     {"filter", &filter_t, filter},
                                     {"bias", &bias_t, bias}},
                                    {{"y", &y_t, y}}));
  bn::ElemtArgs args{{},
                     x,
                     static_cast<const float *>(mean),
                     static_cast<const float *>(invstd),
                     static_cast<const float *>(filter),
                     static_cast<const float *>(bias),
                     y};
  CNNL_RETURN_IF_ERROR(make_tiling(api, rows_of(x_t), channels, x_t.dtype == CNNL_DTYPE_HALF,
                                   bn::kElemtNram, Split::kTiles, args.t));
  mlusim::OpScope scope(queue, api, cnnlsim::io_bytes({&x_t, &y_t}), 3.0 * x_t.elements(),
                        x_t.dtype);
  return cnnlsim::launched(api, bn::launch_elemt(queue, args));
}

cnnlStatus_t cnnlGetSyncBatchnormBackwardReduceWorkspaceSize(cnnlHandle_t handle,
                                                             const cnnlTensorDescriptor_t desc_x,
                                                             size_t *workspace_size) {
  return cnnlsim::no_workspace("cnnlGetSyncBatchnormBackwardReduceWorkspaceSize", handle, "desc_x",
                               desc_x, workspace_size);
}

cnnlStatus_t cnnlSyncBatchnormBackwardReduce(
    cnnlHandle_t handle, const cnnlTensorDescriptor_t desc_dz, const void *dz,
    const cnnlTensorDescriptor_t desc_x, const void *x, const cnnlTensorDescriptor_t desc_mean,
    const void *mean, const cnnlTensorDescriptor_t desc_invstd, const void *invstd,
    const cnnlTensorDescriptor_t desc_dfilter, void *dfilter,
    const cnnlTensorDescriptor_t desc_dbias, void *dbias,
    const cnnlTensorDescriptor_t desc_sum_dy, void *sum_dy,
    const cnnlTensorDescriptor_t desc_sum_dy_xmu, void *sum_dy_xmu, const bool needs_input_grad0,
    const bool needs_input_grad1, const bool needs_input_grad2) {
  return backward_reduce("cnnlSyncBatchnormBackwardReduce", handle, desc_dz, dz, desc_x, x,
                         desc_mean, mean, desc_invstd, invstd, desc_dfilter, dfilter, desc_dbias,
                         dbias, desc_sum_dy, sum_dy, desc_sum_dy_xmu, sum_dy_xmu,
                         needs_input_grad0, needs_input_grad1, needs_input_grad2);
}

cnnlStatus_t cnnlSyncBatchnormBackwardReduce_v2(
    cnnlHandle_t handle, const cnnlTensorDescriptor_t desc_dz, const void *dz,
    const cnnlTensorDescriptor_t desc_x, const void *x, const cnnlTensorDescriptor_t desc_mean,
    const void *mean, const cnnlTensorDescriptor_t desc_invstd, const void *invstd,
    void * /*workspace*/, size_t /*workspace_size*/, const cnnlTensorDescriptor_t desc_dfilter,
    void *dfilter, const cnnlTensorDescriptor_t desc_dbias, void *dbias,
    const cnnlTensorDescriptor_t desc_sum_dy, void *sum_dy,
    const cnnlTensorDescriptor_t desc_sum_dy_xmu, void *sum_dy_xmu, const bool needs_input_grad0,
    const bool needs_input_grad1, const bool needs_input_grad2) {
  return backward_reduce("cnnlSyncBatchnormBackwardReduce_v2", handle, desc_dz, dz, desc_x, x,
                         desc_mean, mean, desc_invstd, invstd, desc_dfilter, dfilter, desc_dbias,
                         dbias, desc_sum_dy, sum_dy, desc_sum_dy_xmu, sum_dy_xmu,
                         needs_input_grad0, needs_input_grad1, needs_input_grad2);
}

cnnlStatus_t cnnlSyncBatchNormBackwardElemt(
    cnnlHandle_t handle, const cnnlTensorDescriptor_t diff_y_desc, const void *diff_y,
    const cnnlTensorDescriptor_t x_desc, const void *x, const cnnlTensorDescriptor_t mean_desc,
    const void *mean, const cnnlTensorDescriptor_t invstd_desc, const void *invstd,
    const cnnlTensorDescriptor_t filter_desc, const void *filter,
    const cnnlTensorDescriptor_t mean_dy_desc, const void *mean_dy,
    const cnnlTensorDescriptor_t mean_dy_xmu_desc, const void *mean_dy_xmu,
    const cnnlTensorDescriptor_t diff_x_desc, void *diff_x) {
  return backward_elemt("cnnlSyncBatchNormBackwardElemt", handle, diff_y_desc, diff_y, x_desc, x,
                        mean_desc, mean, invstd_desc, invstd, filter_desc, filter, "mean_dy",
                        mean_dy_desc, mean_dy, "mean_dy_xmu", mean_dy_xmu_desc, mean_dy_xmu,
                        nullptr, nullptr, diff_x_desc, diff_x);
}

cnnlStatus_t cnnlSyncBatchNormBackwardElemtV2(
    cnnlHandle_t handle, const cnnlTensorDescriptor_t diff_y_desc, const void *diff_y,
    const cnnlTensorDescriptor_t x_desc, const void *x, const cnnlTensorDescriptor_t mean_desc,
    const void *mean, const cnnlTensorDescriptor_t invstd_desc, const void *invstd,
    const cnnlTensorDescriptor_t filter_desc, const void *filter,
    const cnnlTensorDescriptor_t sum_dy_desc, const void *sum_dy,
    const cnnlTensorDescriptor_t sum_dy_xmu_desc, const void *sum_dy_xmu,
    const cnnlTensorDescriptor_t count_desc, const void *count,
    const cnnlTensorDescriptor_t diff_x_desc, void *diff_x) {
  const char *api = "cnnlSyncBatchNormBackwardElemtV2";
  CNNL_CHECK(api, count_desc != nullptr, "count_desc is NULL");
  return backward_elemt(api, handle, diff_y_desc, diff_y, x_desc, x, mean_desc, mean, invstd_desc,
                        invstd, filter_desc, filter, "sum_dy", sum_dy_desc, sum_dy, "sum_dy_xmu",
                        sum_dy_xmu_desc, sum_dy_xmu, count_desc, count, diff_x_desc, diff_x);
}
