// The SyncBatchNorm family against CPU references in double written from
// PyTorch's definitions: channel counts below, at and above one 64-channel
// block and one block per core, float and half data, every optional tensor
// present and absent, the shapes of mlu-ops' gtest cases, zero elements and
// bad arguments. Accuracy: mlu-ops' diff1 and diff2 <= 3e-3.
#include <gtest/gtest.h>

#include <cmath>
#include <optional>

#include "tests/cnnl/cnnl_test_util.h"

namespace cnnl_test {
namespace {

using Dims = std::vector<int64_t>;

// A channel-last tensor as the test holds it: floats, uploaded as float or half.
struct Data {
  Dims dims;
  cnnlDataType_t dtype;
  std::vector<float> values;  // already rounded to half when dtype is half

  int64_t channels() const { return dims.back(); }
  int64_t rows() const { return static_cast<int64_t>(values.size()) / channels(); }
  cnnlTensorLayout_t layout() const {
    static const cnnlTensorLayout_t by_rank[] = {CNNL_LAYOUT_ARRAY, CNNL_LAYOUT_ARRAY,
                                                 CNNL_LAYOUT_NC, CNNL_LAYOUT_NLC,
                                                 CNNL_LAYOUT_NHWC, CNNL_LAYOUT_NDHWC};
    return by_rank[dims.size()];
  }
};

Data random_data(const Dims &dims, cnnlDataType_t dtype, float lo, float hi, uint32_t seed) {
  Random random(seed);
  std::vector<float> v = random.floats(count_of(dims), lo, hi);
  if (dtype == CNNL_DTYPE_HALF)
    for (float &x : v) x = mlusim::harness::round_to_half(x);
  return {dims, dtype, v};
}

std::vector<float> random_vector(int64_t n, float lo, float hi, uint32_t seed) {
  return Random(seed).floats(static_cast<size_t>(n), lo, hi);
}

// Device memory holding a Data tensor in its dtype.
struct DeviceData : DeviceTensor {
  explicit DeviceData(const Data &d) : DeviceTensor(d.layout(), d.dtype, d.dims, d.values) {}
};

// A float per-channel vector on the device, with its descriptor.
struct DeviceVector {
  explicit DeviceVector(const std::vector<float> &v)
      : desc(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_FLOAT, {static_cast<int64_t>(v.size())}), buf(v) {}
  Desc desc;
  DeviceBuffer<float> buf;
};

double accuracy_threshold(cnnlDataType_t dtype) { return dtype == CNNL_DTYPE_HALF ? 3e-3 : 3e-3; }

// ---- Stats -------------------------------------------------------------

struct Stats {
  std::vector<double> mean, invstd;
};

Stats stats_reference(const Data &x, double eps) {
  const int64_t c = x.channels(), rows = x.rows();
  Stats s{std::vector<double>(c, 0), std::vector<double>(c, 0)};
  for (int64_t ch = 0; ch < c; ++ch) {
    double sum = 0, squares = 0;
    for (int64_t r = 0; r < rows; ++r) {
      const double v = x.values[r * c + ch];
      sum += v;
      squares += v * v;
    }
    s.mean[ch] = sum / rows;
    s.invstd[ch] = 1.0 / std::sqrt(squares / rows - s.mean[ch] * s.mean[ch] + eps);
  }
  return s;
}

void expect_stats(const Data &x, float eps, bool v2) {
  SCOPED_TRACE(::testing::PrintToString(x.dims) + (x.dtype == CNNL_DTYPE_HALF ? " half" : " float"));
  Handle handle;
  DeviceData x_dev(x);
  const int64_t c = x.channels();
  DeviceVector mean{std::vector<float>(c, -1.0f)}, invstd{std::vector<float>(c, -1.0f)};
  cnnlStatus_t status;
  if (v2) {
    size_t workspace_size = 1;
    ASSERT_EQ(cnnlGetSyncBatchNormStatsWorkspaceSize(handle, x_dev.desc(), &workspace_size),
              CNNL_STATUS_SUCCESS);
    EXPECT_EQ(workspace_size, 0u);
    status = cnnlSyncBatchNormStats_v2(handle, x_dev.desc(), x_dev.ptr(), nullptr, 0, eps,
                                       mean.desc, mean.buf.get(), invstd.desc, invstd.buf.get());
  } else {
    status = cnnlSyncBatchNormStats(handle, x_dev.desc(), x_dev.ptr(), eps, mean.desc,
                                    mean.buf.get(), invstd.desc, invstd.buf.get());
  }
  ASSERT_EQ(status, CNNL_STATUS_SUCCESS);
  const Stats ref = stats_reference(x, eps);
  expect_close(mean.buf.download(), ref.mean);
  expect_close(invstd.buf.download(), ref.invstd);
}

TEST(CnnlSyncBatchNormStats, ChannelCountsAndDtypes) {
  expect_stats(random_data({2, 5, 7, 3}, CNNL_DTYPE_FLOAT, -1, 2, 1), 1e-5f, false);
  expect_stats(random_data({3, 64}, CNNL_DTYPE_FLOAT, -1, 2, 2), 1e-5f, true);
  expect_stats(random_data({2, 9, 130}, CNNL_DTYPE_FLOAT, 0, 5, 3), 1e-3f, true);
  expect_stats(random_data({1, 2, 3, 4, 2100}, CNNL_DTYPE_FLOAT, -3, 3, 4), 1e-5f, true);
  expect_stats(random_data({4, 6, 6, 77}, CNNL_DTYPE_HALF, -2, 2, 5), 1e-5f, true);
}

// mlu-ops' sync_batchnorm_stats case_0: [4, 35, 35, 960] in [-0.5, 2.83].
TEST(CnnlSyncBatchNormStats, MluOpsCaseShape) {
  expect_stats(random_data({4, 35, 35, 960}, CNNL_DTYPE_FLOAT, -0.5f, 2.83f, 32), 1e-5f, true);
}

// The documented example: ones with eps 1e-5 give mean 1 and invstd 316.2.
TEST(CnnlSyncBatchNormStats, DocumentedExample) {
  Handle handle;
  Data x{{1, 2, 3, 2}, CNNL_DTYPE_FLOAT, std::vector<float>(12, 1.0f)};
  DeviceData x_dev(x);
  DeviceVector mean{std::vector<float>(2, 0.0f)}, invstd{std::vector<float>(2, 0.0f)};
  ASSERT_EQ(cnnlSyncBatchNormStats(handle, x_dev.desc(), x_dev.ptr(), 1e-5f, mean.desc,
                                   mean.buf.get(), invstd.desc, invstd.buf.get()),
            CNNL_STATUS_SUCCESS);
  EXPECT_EQ(mean.buf.download(), std::vector<float>(2, 1.0f));
  for (float v : invstd.buf.download()) EXPECT_NEAR(v, 316.2278f, 0.01f);
}

TEST(CnnlSyncBatchNormStats, OtherDevices) {
  for (const char *name : {"MLU270", "MLU290"}) {
    SCOPED_TRACE(name);
    DevicePreset device(name);
    expect_stats(random_data({3, 20, 20, 300}, CNNL_DTYPE_FLOAT, -1, 2, 11), 1e-5f, true);
    expect_stats(random_data({4, 6, 6, 77}, CNNL_DTYPE_HALF, -2, 2, 12), 1e-5f, false);
  }
}

// ---- GatherStatsWithCounts ------------------------------------------------

struct Gathered {
  std::vector<double> mean, invstd, moving_mean, moving_var;
};

Gathered gather_reference(const std::vector<float> &mean_all, const std::vector<float> &invstd_all,
                          const std::vector<float> &counts, const std::vector<float> &moving_mean,
                          const std::vector<float> &moving_var, double momentum, double eps,
                          int64_t c) {
  const int64_t devices = static_cast<int64_t>(counts.size());
  double total = 0;
  for (float n : counts) total += n;
  Gathered g{std::vector<double>(c), std::vector<double>(c), std::vector<double>(c),
             std::vector<double>(c)};
  for (int64_t ch = 0; ch < c; ++ch) {
    double sum = 0, squares = 0;
    for (int64_t d = 0; d < devices; ++d) {
      const double m = mean_all[d * c + ch], inv = invstd_all[d * c + ch];
      sum += m * counts[d];
      squares += (1.0 / (inv * inv) - eps + m * m) * counts[d];
    }
    const double mean = sum / total, var = squares / total - mean * mean;
    g.mean[ch] = mean;
    g.invstd[ch] = 1.0 / std::sqrt(var + eps);
    if (!moving_mean.empty()) {
      g.moving_mean[ch] = momentum * mean + (1 - momentum) * moving_mean[ch];
      g.moving_var[ch] = momentum * var * total / (total - 1) + (1 - momentum) * moving_var[ch];
    }
  }
  return g;
}

void expect_gather(int64_t devices, int64_t c, bool moving, uint32_t seed) {
  SCOPED_TRACE("devices " + std::to_string(devices) + " channels " + std::to_string(c) +
               (moving ? " with moving statistics" : ""));
  const float momentum = 0.1f, eps = 1e-5f;
  const auto mean_all = random_vector(devices * c, -50, 50, seed);
  // invstd of magnitude >= 0.5, either sign (mlu-ops' case draws [-100, 100])
  auto invstd_all = random_vector(devices * c, 0.5f, 100, seed + 1);
  for (size_t i = 0; i < invstd_all.size(); i += 3) invstd_all[i] = -invstd_all[i];
  std::vector<float> counts(devices);
  Random random(seed + 2);
  for (float &n : counts) n = static_cast<float>(random.integer(2, 60));
  const auto mm = moving ? random_vector(c, -0.5f, 0.5f, seed + 3) : std::vector<float>{};
  const auto mv = moving ? random_vector(c, 0.001f, 0.5f, seed + 4) : std::vector<float>{};

  Handle handle;
  Desc all_desc(CNNL_LAYOUT_NC, CNNL_DTYPE_FLOAT, {devices, c});
  DeviceBuffer<float> mean_all_dev(mean_all), invstd_all_dev(invstd_all);
  DeviceVector count_dev(counts), moving_mean(moving ? mm : std::vector<float>(c)),
      moving_var(moving ? mv : std::vector<float>(c));
  DeviceVector mean{std::vector<float>(c)}, invstd{std::vector<float>(c)};
  ASSERT_EQ(cnnlSyncBatchNormGatherStatsWithCounts(
                handle, all_desc, mean_all_dev.get(), all_desc, invstd_all_dev.get(),
                moving ? static_cast<cnnlTensorDescriptor_t>(moving_mean.desc) : nullptr,
                moving ? moving_mean.buf.get() : nullptr,
                moving ? static_cast<cnnlTensorDescriptor_t>(moving_var.desc) : nullptr,
                moving ? moving_var.buf.get() : nullptr, momentum, eps, count_dev.desc,
                count_dev.buf.get(), mean.desc, mean.buf.get(), invstd.desc, invstd.buf.get()),
            CNNL_STATUS_SUCCESS);
  const Gathered ref = gather_reference(mean_all, invstd_all, counts, mm, mv, momentum, eps, c);
  expect_close(mean.buf.download(), ref.mean);
  expect_close(invstd.buf.download(), ref.invstd);
  if (moving) {
    expect_close(moving_mean.buf.download(), ref.moving_mean);
    expect_close(moving_var.buf.download(), ref.moving_var);
  }
}

TEST(CnnlSyncBatchNormGatherStatsWithCounts, WithAndWithoutMovingStatistics) {
  expect_gather(1, 5, true, 10);
  expect_gather(8, 2048, true, 20);   // mlu-ops' case_0 / case_1 shape
  expect_gather(8, 2048, false, 30);  // case_2: no moving statistics
  expect_gather(3, 70, false, 40);
  expect_gather(200, 33, true, 50);   // more devices than one tile may hold
}

// Half counts and half moving statistics, read and written as half.
TEST(CnnlSyncBatchNormGatherStatsWithCounts, HalfCountsAndMovingStatistics) {
  const int64_t devices = 4, c = 100;
  const auto mean_all = random_vector(devices * c, -2, 2, 7);
  const auto invstd_all = random_vector(devices * c, 0.5f, 4, 8);
  const std::vector<float> counts = {10, 20, 30, 40};
  std::vector<float> mm = random_vector(c, -0.5f, 0.5f, 9), mv = random_vector(c, 0.1f, 0.5f, 10);
  for (float &v : mm) v = mlusim::harness::round_to_half(v);
  for (float &v : mv) v = mlusim::harness::round_to_half(v);
  Handle handle;
  Desc all_desc(CNNL_LAYOUT_NC, CNNL_DTYPE_FLOAT, {devices, c});
  Desc count_desc(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_HALF, {devices});
  Desc moving_desc(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_HALF, {c});
  DeviceBuffer<float> mean_all_dev(mean_all), invstd_all_dev(invstd_all);
  DeviceBuffer<_Float16> count_dev(mlusim::harness::to_half(counts));
  DeviceBuffer<_Float16> mm_dev(mlusim::harness::to_half(mm)), mv_dev(mlusim::harness::to_half(mv));
  DeviceVector mean{std::vector<float>(c)}, invstd{std::vector<float>(c)};
  ASSERT_EQ(cnnlSyncBatchNormGatherStatsWithCounts(
                handle, all_desc, mean_all_dev.get(), all_desc, invstd_all_dev.get(), moving_desc,
                mm_dev.get(), moving_desc, mv_dev.get(), 0.1f, 1e-5f, count_desc, count_dev.get(),
                mean.desc, mean.buf.get(), invstd.desc, invstd.buf.get()),
            CNNL_STATUS_SUCCESS);
  const Gathered ref = gather_reference(mean_all, invstd_all, counts, mm, mv, 0.1, 1e-5, c);
  expect_close(mean.buf.download(), ref.mean);
  expect_close(invstd.buf.download(), ref.invstd);
  const auto got_mm = mm_dev.download(), got_mv = mv_dev.download();
  expect_close(std::vector<float>(got_mm.begin(), got_mm.end()), ref.moving_mean);
  expect_close(std::vector<float>(got_mv.begin(), got_mv.end()), ref.moving_var);
}

// ---- Elemt ------------------------------------------------------------------

void expect_elemt(const Data &x, bool affine) {
  SCOPED_TRACE(::testing::PrintToString(x.dims) + (affine ? " affine" : ""));
  const int64_t c = x.channels();
  const auto mean = random_vector(c, 0.5f, 1.5f, 35), invstd = random_vector(c, 0.25f, 1.25f, 36);
  const auto filter = random_vector(c, -2, 2, 33), bias = random_vector(c, -1, 1, 34);
  std::vector<double> ref(x.values.size());
  for (size_t i = 0; i < ref.size(); ++i) {
    const int64_t ch = static_cast<int64_t>(i) % c;
    ref[i] = (x.values[i] - static_cast<double>(mean[ch])) * invstd[ch];
    if (affine) ref[i] = ref[i] * filter[ch] + bias[ch];
  }
  Handle handle;
  DeviceData x_dev(x);
  Data y_start{x.dims, x.dtype, std::vector<float>(x.values.size(), 0.0f)};
  DeviceData y_dev(y_start);
  DeviceVector mean_dev(mean), invstd_dev(invstd), filter_dev(filter), bias_dev(bias);
  ASSERT_EQ(cnnlSyncBatchNormElemt(
                handle, x_dev.desc(), x_dev.ptr(), mean_dev.desc, mean_dev.buf.get(),
                invstd_dev.desc, invstd_dev.buf.get(),
                affine ? static_cast<cnnlTensorDescriptor_t>(filter_dev.desc) : nullptr,
                affine ? filter_dev.buf.get() : nullptr,
                affine ? static_cast<cnnlTensorDescriptor_t>(bias_dev.desc) : nullptr,
                affine ? bias_dev.buf.get() : nullptr, y_dev.desc(), y_dev.ptr()),
            CNNL_STATUS_SUCCESS);
  expect_close(y_dev.download(), ref, accuracy_threshold(x.dtype));
}

TEST(CnnlSyncBatchNormElemt, AffineOrNotFloatAndHalf) {
  expect_elemt(random_data({4, 14, 14, 1025}, CNNL_DTYPE_FLOAT, 1, 2, 32), true);  // mlu-ops' case
  expect_elemt(random_data({3, 5, 17}, CNNL_DTYPE_FLOAT, -3, 3, 1), false);
  expect_elemt(random_data({2, 2, 3, 3, 64}, CNNL_DTYPE_HALF, -3, 3, 2), true);
  expect_elemt(random_data({70000, 3}, CNNL_DTYPE_FLOAT, -3, 3, 3), true);  // many row tiles
}

TEST(CnnlSyncBatchNormElemt, OtherDevices) {
  for (const char *name : {"MLU270", "MLU290"}) {
    SCOPED_TRACE(name);
    DevicePreset device(name);
    expect_elemt(random_data({4, 14, 14, 1025}, CNNL_DTYPE_FLOAT, 1, 2, 13), true);
  }
}

// The documented example: x 1, mean 0.5, invstd 2, filter 0.5, bias 1 gives 1.5.
TEST(CnnlSyncBatchNormElemt, DocumentedExample) {
  Data x{{1, 2, 3, 2}, CNNL_DTYPE_FLOAT, std::vector<float>(12, 1.0f)};
  Handle handle;
  DeviceData x_dev(x), y_dev(x);
  DeviceVector mean({0.5f, 0.5f}), invstd({2.0f, 2.0f}), filter({0.5f, 0.5f}), bias({1.0f, 1.0f});
  ASSERT_EQ(cnnlSyncBatchNormElemt(handle, x_dev.desc(), x_dev.ptr(), mean.desc, mean.buf.get(),
                                   invstd.desc, invstd.buf.get(), filter.desc, filter.buf.get(),
                                   bias.desc, bias.buf.get(), y_dev.desc(), y_dev.ptr()),
            CNNL_STATUS_SUCCESS);
  EXPECT_EQ(y_dev.download(), std::vector<float>(12, 1.5f));
}

// ---- BackwardReduce -------------------------------------------------------------

struct Reduced {
  std::vector<double> sum_dy, sum_dy_xmu, dfilter;
};

Reduced backward_reduce_reference(const Data &dz, const Data &x, const std::vector<float> &mean,
                                  const std::vector<float> &invstd) {
  const int64_t c = x.channels(), rows = x.rows();
  Reduced r{std::vector<double>(c, 0), std::vector<double>(c, 0), std::vector<double>(c, 0)};
  for (int64_t row = 0; row < rows; ++row)
    for (int64_t ch = 0; ch < c; ++ch) {
      const double g = dz.values[row * c + ch];
      r.sum_dy[ch] += g;
      r.sum_dy_xmu[ch] += g * (x.values[row * c + ch] - static_cast<double>(mean[ch]));
    }
  for (int64_t ch = 0; ch < c; ++ch) r.dfilter[ch] = r.sum_dy_xmu[ch] * invstd[ch];
  return r;
}

// Runs with the three needs_input_grad flags; outputs not asked for keep their start value.
void expect_backward_reduce(const Dims &dims, cnnlDataType_t dtype, bool grad0, bool grad1,
                            bool grad2) {
  SCOPED_TRACE(::testing::PrintToString(dims) + " grads " + std::to_string(grad0) +
               std::to_string(grad1) + std::to_string(grad2));
  const Data dz = random_data(dims, dtype, 0.1f, 5.5f, 4), x = random_data(dims, dtype, 0.5f, 5, 5);
  const int64_t c = dims.back();
  const auto mean = random_vector(c, 1, 5, 6), invstd = random_vector(c, 0.8f, 8, 7);
  const std::vector<float> start(c, 42.0f);
  Handle handle;
  DeviceData dz_dev(dz), x_dev(x);
  DeviceVector mean_dev(mean), invstd_dev(invstd);
  DeviceVector sum_dy(start), sum_dy_xmu(start), dfilter(start), dbias(start);
  size_t workspace_size = 1;
  ASSERT_EQ(cnnlGetSyncBatchnormBackwardReduceWorkspaceSize(handle, x_dev.desc(), &workspace_size),
            CNNL_STATUS_SUCCESS);
  EXPECT_EQ(workspace_size, 0u);
  ASSERT_EQ(cnnlSyncBatchnormBackwardReduce_v2(
                handle, dz_dev.desc(), dz_dev.ptr(), x_dev.desc(), x_dev.ptr(), mean_dev.desc,
                mean_dev.buf.get(), invstd_dev.desc, invstd_dev.buf.get(), nullptr, 0,
                dfilter.desc, dfilter.buf.get(), dbias.desc, dbias.buf.get(), sum_dy.desc,
                sum_dy.buf.get(), sum_dy_xmu.desc, sum_dy_xmu.buf.get(), grad0, grad1, grad2),
            CNNL_STATUS_SUCCESS);
  const Reduced ref = backward_reduce_reference(dz, x, mean, invstd);
  auto expect_output = [&](bool wanted, const DeviceVector &got, const std::vector<double> &want) {
    if (wanted)
      expect_close(got.buf.download(), want);
    else
      EXPECT_EQ(got.buf.download(), start);
  };
  expect_output(grad0, sum_dy, ref.sum_dy);
  expect_output(grad0, sum_dy_xmu, ref.sum_dy_xmu);
  expect_output(grad1, dfilter, ref.dfilter);
  expect_output(grad2, dbias, ref.sum_dy);
}

TEST(CnnlSyncBatchnormBackwardReduce, EveryGradientFlag) {
  for (int flags = 1; flags < 8; ++flags)
    expect_backward_reduce({2, 3, 5, 40}, CNNL_DTYPE_FLOAT, flags & 1, flags & 2, flags & 4);
}

TEST(CnnlSyncBatchnormBackwardReduce, ShapesAndHalf) {
  expect_backward_reduce({5, 14, 14, 2000}, CNNL_DTYPE_FLOAT, true, true, true);  // mlu-ops' C
  expect_backward_reduce({3, 7, 130}, CNNL_DTYPE_HALF, true, true, true);
  expect_backward_reduce({1, 1}, CNNL_DTYPE_FLOAT, true, true, true);
}

// The documented example: dz 6, x 3, mean 1, invstd 0.8 over 6 rows.
TEST(CnnlSyncBatchnormBackwardReduce, DocumentedExample) {
  Data dz{{1, 2, 3, 2}, CNNL_DTYPE_FLOAT, std::vector<float>(12, 6.0f)};
  Data x{{1, 2, 3, 2}, CNNL_DTYPE_FLOAT, std::vector<float>(12, 3.0f)};
  Handle handle;
  DeviceData dz_dev(dz), x_dev(x);
  DeviceVector mean({1, 1}), invstd({0.8f, 0.8f}), sum_dy({0, 0}), sum_dy_xmu({0, 0}),
      dfilter({0, 0}), dbias({0, 0});
  ASSERT_EQ(cnnlSyncBatchnormBackwardReduce(
                handle, dz_dev.desc(), dz_dev.ptr(), x_dev.desc(), x_dev.ptr(), mean.desc,
                mean.buf.get(), invstd.desc, invstd.buf.get(), dfilter.desc, dfilter.buf.get(),
                dbias.desc, dbias.buf.get(), sum_dy.desc, sum_dy.buf.get(), sum_dy_xmu.desc,
                sum_dy_xmu.buf.get(), true, true, true),
            CNNL_STATUS_SUCCESS);
  EXPECT_EQ(dbias.buf.download(), std::vector<float>(2, 36.0f));
  EXPECT_EQ(sum_dy.buf.download(), std::vector<float>(2, 36.0f));
  EXPECT_EQ(sum_dy_xmu.buf.download(), std::vector<float>(2, 72.0f));
  for (float v : dfilter.buf.download()) EXPECT_NEAR(v, 57.6f, 1e-4f);
}

// ---- BackwardElemt (v1 and v2) ---------------------------------------------------

// v2 when `count` is given: the statistics are sums, divided by the total count.
void expect_backward_elemt(const Dims &dims, cnnlDataType_t dtype, bool with_filter,
                           std::optional<std::vector<int32_t>> count) {
  SCOPED_TRACE(::testing::PrintToString(dims) + (with_filter ? " filter" : "") +
               (count ? " v2" : " v1"));
  const Data dy = random_data(dims, dtype, -2, 2, 233), x = random_data(dims, dtype, -2, 2, 243);
  const int64_t c = dims.back();
  const auto mean = random_vector(c, -0.25f, 0.5f, 1), invstd = random_vector(c, -0.5f, 0.5f, 2);
  const auto filter = random_vector(c, 0.5f, 1, 3);
  const auto dy_stat = random_vector(c, 0.5f, 1, 4), xmu_stat = random_vector(c, 0.5f, 1, 5);
  double total = 1;
  if (count) {
    total = 0;
    for (int32_t n : *count) total += n;
  }
  std::vector<double> ref(dy.values.size());
  for (size_t i = 0; i < ref.size(); ++i) {
    const int64_t ch = static_cast<int64_t>(i) % c;
    const double inv = invstd[ch], mean_dy = dy_stat[ch] / total, mean_dy_xmu = xmu_stat[ch] / total;
    ref[i] = (dy.values[i] - mean_dy - (x.values[i] - static_cast<double>(mean[ch])) * inv * inv *
                                           mean_dy_xmu) *
             inv * (with_filter ? filter[ch] : 1.0);
  }
  Handle handle;
  DeviceData dy_dev(dy), x_dev(x), dx_dev(Data{dims, dtype, std::vector<float>(dy.values.size())});
  DeviceVector mean_dev(mean), invstd_dev(invstd), filter_dev(filter), dy_stat_dev(dy_stat),
      xmu_dev(xmu_stat);
  const cnnlTensorDescriptor_t filter_desc = with_filter ? static_cast<cnnlTensorDescriptor_t>(filter_dev.desc) : nullptr;
  const void *filter_ptr = with_filter ? filter_dev.buf.get() : nullptr;
  cnnlStatus_t status;
  if (count) {
    Desc count_desc(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_INT32, {static_cast<int64_t>(count->size())});
    DeviceBuffer<int32_t> count_dev(*count);
    status = cnnlSyncBatchNormBackwardElemtV2(
        handle, dy_dev.desc(), dy_dev.ptr(), x_dev.desc(), x_dev.ptr(), mean_dev.desc,
        mean_dev.buf.get(), invstd_dev.desc, invstd_dev.buf.get(), filter_desc, filter_ptr,
        dy_stat_dev.desc, dy_stat_dev.buf.get(), xmu_dev.desc, xmu_dev.buf.get(), count_desc,
        count_dev.get(), dx_dev.desc(), dx_dev.ptr());
  } else {
    status = cnnlSyncBatchNormBackwardElemt(
        handle, dy_dev.desc(), dy_dev.ptr(), x_dev.desc(), x_dev.ptr(), mean_dev.desc,
        mean_dev.buf.get(), invstd_dev.desc, invstd_dev.buf.get(), filter_desc, filter_ptr,
        dy_stat_dev.desc, dy_stat_dev.buf.get(), xmu_dev.desc, xmu_dev.buf.get(), dx_dev.desc(),
        dx_dev.ptr());
  }
  ASSERT_EQ(status, CNNL_STATUS_SUCCESS);
  expect_close(dx_dev.download(), ref, accuracy_threshold(dtype));
}

TEST(CnnlSyncBatchNormBackwardElemt, V1AndV2) {
  expect_backward_elemt({1, 10, 128, 128}, CNNL_DTYPE_FLOAT, true, std::nullopt);  // mlu-ops' case
  expect_backward_elemt({1, 10, 128, 128}, CNNL_DTYPE_FLOAT, true, std::vector<int32_t>{17});
  expect_backward_elemt({6, 33}, CNNL_DTYPE_FLOAT, false, std::nullopt);
  expect_backward_elemt({2, 3, 4, 5, 70}, CNNL_DTYPE_FLOAT, false, std::vector<int32_t>{3, 9, 4});
  expect_backward_elemt({4, 4, 4, 96}, CNNL_DTYPE_HALF, true, std::vector<int32_t>{8, 8});
}

// The documented example: dy 1, x 2, mean 3, invstd 4, filter 5, mean_dy 6,
// mean_dy_xmu 7: (1 - 6 - (2 - 3) * 16 * 7) * 4 * 5 = 2140 (PyTorch's formula).
TEST(CnnlSyncBatchNormBackwardElemt, OneElementByHand) {
  Data one{{1, 1, 1, 1}, CNNL_DTYPE_FLOAT, {1.0f}};
  Data two{{1, 1, 1, 1}, CNNL_DTYPE_FLOAT, {2.0f}};
  Handle handle;
  DeviceData dy(one), x(two), dx(one);
  DeviceVector mean({3}), invstd({4}), filter({5}), mean_dy({6}), mean_dy_xmu({7});
  ASSERT_EQ(cnnlSyncBatchNormBackwardElemt(handle, dy.desc(), dy.ptr(), x.desc(), x.ptr(),
                                           mean.desc, mean.buf.get(), invstd.desc,
                                           invstd.buf.get(), filter.desc, filter.buf.get(),
                                           mean_dy.desc, mean_dy.buf.get(), mean_dy_xmu.desc,
                                           mean_dy_xmu.buf.get(), dx.desc(), dx.ptr()),
            CNNL_STATUS_SUCCESS);
  EXPECT_EQ(dx.download(), std::vector<float>{2140.0f});
}

// ---- Zero elements and bad arguments ---------------------------------------------

TEST(CnnlSyncBatchNorm, ZeroElementsLaunchNothing) {
  Handle handle;
  Desc x(CNNL_LAYOUT_NHWC, CNNL_DTYPE_FLOAT, {0, 4, 4, 8});
  DeviceVector mean{std::vector<float>(8, 3.0f)}, invstd{std::vector<float>(8, 3.0f)};
  EXPECT_EQ(cnnlSyncBatchNormStats(handle, x, nullptr, 1e-5f, mean.desc, mean.buf.get(),
                                   invstd.desc, invstd.buf.get()),
            CNNL_STATUS_SUCCESS);
  EXPECT_EQ(mean.buf.download(), std::vector<float>(8, 3.0f));
  EXPECT_EQ(cnnlSyncBatchNormElemt(handle, x, nullptr, mean.desc, mean.buf.get(), invstd.desc,
                                   invstd.buf.get(), nullptr, nullptr, nullptr, nullptr, x,
                                   nullptr),
            CNNL_STATUS_SUCCESS);
  EXPECT_EQ(handle.last_op_report().launches, 0);
}

TEST(CnnlSyncBatchNorm, RefusesBadArguments) {
  Handle handle;
  Desc x(CNNL_LAYOUT_NHWC, CNNL_DTYPE_FLOAT, {2, 3, 4, 8});
  Desc nchw(CNNL_LAYOUT_NCHW, CNNL_DTYPE_FLOAT, {2, 3, 4, 8});
  Desc ints(CNNL_LAYOUT_NHWC, CNNL_DTYPE_INT32, {2, 3, 4, 8});
  Desc strided(CNNL_LAYOUT_NHWC, CNNL_DTYPE_FLOAT, {2, 3, 4, 8}, {200, 64, 16, 1});
  DeviceBuffer<float> x_dev(192), y_dev(192);
  DeviceVector mean{std::vector<float>(8)}, invstd{std::vector<float>(8)},
      wrong{std::vector<float>(7)};
  const char *stats = "cnnlSyncBatchNormStats";
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, stats, "NHWC (4)",
                 cnnlSyncBatchNormStats(handle, nchw, x_dev.get(), 1e-5f, mean.desc,
                                        mean.buf.get(), invstd.desc, invstd.buf.get()));
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, stats, "float or half",
                 cnnlSyncBatchNormStats(handle, ints, x_dev.get(), 1e-5f, mean.desc,
                                        mean.buf.get(), invstd.desc, invstd.buf.get()));
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, stats, "1-D of 8",
                 cnnlSyncBatchNormStats(handle, x, x_dev.get(), 1e-5f, wrong.desc,
                                        wrong.buf.get(), invstd.desc, invstd.buf.get()));
  EXPECT_REFUSED(CNNL_STATUS_NOT_SUPPORTED, stats, "dense",
                 cnnlSyncBatchNormStats(handle, strided, x_dev.get(), 1e-5f, mean.desc,
                                        mean.buf.get(), invstd.desc, invstd.buf.get()));
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, stats, "eps",
                 cnnlSyncBatchNormStats(handle, x, x_dev.get(), -1.0f, mean.desc, mean.buf.get(),
                                        invstd.desc, invstd.buf.get()));
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, stats, "share memory",
                 cnnlSyncBatchNormStats(handle, x, x_dev.get(), 1e-5f, mean.desc, x_dev.get(),
                                        invstd.desc, invstd.buf.get()));
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, stats, "not device memory",
                 cnnlSyncBatchNormStats(handle, x, nullptr, 1e-5f, mean.desc, mean.buf.get(),
                                        invstd.desc, invstd.buf.get()));
  const char *elemt = "cnnlSyncBatchNormElemt";
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, elemt, "both",
                 cnnlSyncBatchNormElemt(handle, x, x_dev.get(), mean.desc, mean.buf.get(),
                                        invstd.desc, invstd.buf.get(), mean.desc, mean.buf.get(),
                                        nullptr, nullptr, x, y_dev.get()));
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, elemt, "must be equal",
                 cnnlSyncBatchNormElemt(handle, x, x_dev.get(), mean.desc, mean.buf.get(),
                                        invstd.desc, invstd.buf.get(), nullptr, nullptr, nullptr,
                                        nullptr, ints, y_dev.get()));
  const char *v2 = "cnnlSyncBatchNormBackwardElemtV2";
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, v2, "count_desc is NULL",
                 cnnlSyncBatchNormBackwardElemtV2(
                     handle, x, x_dev.get(), x, x_dev.get(), mean.desc, mean.buf.get(),
                     invstd.desc, invstd.buf.get(), nullptr, nullptr, mean.desc, mean.buf.get(),
                     mean.desc, mean.buf.get(), nullptr, nullptr, x, y_dev.get()));
  Desc float_count(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_FLOAT, {1});
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, v2, "int32",
                 cnnlSyncBatchNormBackwardElemtV2(
                     handle, x, x_dev.get(), x, x_dev.get(), mean.desc, mean.buf.get(),
                     invstd.desc, invstd.buf.get(), nullptr, nullptr, mean.desc, mean.buf.get(),
                     mean.desc, mean.buf.get(), float_count, mean.buf.get(), x, y_dev.get()));
  const char *gather = "cnnlSyncBatchNormGatherStatsWithCounts";
  Desc all(CNNL_LAYOUT_NC, CNNL_DTYPE_FLOAT, {3, 8});
  Desc counts(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_FLOAT, {2});
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, gather, "devices of mean_all",
                 cnnlSyncBatchNormGatherStatsWithCounts(
                     handle, all, x_dev.get(), all, x_dev.get(), nullptr, nullptr, nullptr,
                     nullptr, 0.1f, 1e-5f, counts, mean.buf.get(), mean.desc, y_dev.get(),
                     invstd.desc, invstd.buf.get()));
  Desc three_counts(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_FLOAT, {3});
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, gather, "both",
                 cnnlSyncBatchNormGatherStatsWithCounts(
                     handle, all, x_dev.get(), all, x_dev.get(), mean.desc, mean.buf.get(),
                     nullptr, nullptr, 0.1f, 1e-5f, three_counts, mean.buf.get(), mean.desc,
                     y_dev.get(), invstd.desc, invstd.buf.get()));
}

}  // namespace
}  // namespace cnnl_test
