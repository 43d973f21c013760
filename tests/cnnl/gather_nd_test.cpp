// cnnlGatherNd and cnnlGatherNd_v2 against a host gather: mlu-ops'
// indice_convolution_backward_data (1-index tuples picking rows of [N, C]),
// 2-index tuples picking rows of a 3-d tensor with indices out of range
// giving zeros, half and int32 elements moved bit for bit, and refused
// arguments.
#include <gtest/gtest.h>

#include "tests/cnnl/cnnl_test_util.h"

namespace cnnl_test {
namespace {

TEST(CnnlGatherNd, PicksRowsOfAMatrix) {
  Handle handle;
  const int rows = 700, channels = 37, picks = 900;
  Random rng(5);
  std::vector<float> params(rows * channels);
  for (float &v : params) v = static_cast<float>(rng.integer(-1000, 1000)) / 8;
  std::vector<int32_t> indices(picks);
  std::vector<float> want;
  for (int i = 0; i < picks; ++i) {
    indices[i] = rng.integer(0, rows - 1);
    want.insert(want.end(), params.begin() + indices[i] * channels,
                params.begin() + (indices[i] + 1) * channels);
  }
  Desc par_desc(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_FLOAT, {rows, channels});
  Desc idx_desc(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_INT32, {picks, 1});
  Desc out_desc(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_FLOAT, {picks, channels});
  DeviceBuffer<float> d_par(params), d_out(std::vector<float>(want.size(), -1.0f));
  DeviceBuffer<int32_t> d_idx(indices);
  ASSERT_EQ(cnnlGatherNd(handle, par_desc, d_par.get(), idx_desc, d_idx.get(), out_desc,
                         d_out.get()),
            CNNL_STATUS_SUCCESS);
  EXPECT_EQ(d_out.download(), want);
  EXPECT_GT(handle.last_op_report().device_time_us, 0);
}

// 2-index tuples into [4, 5, 6]: each names a row of 6.
TEST(CnnlGatherNd, TuplesOutOfRangeGiveZeros) {
  Handle handle;
  const std::vector<int32_t> indices = {0, 1, 3, 4, 2, 9, -1, 0, 2, 2};
  std::vector<int32_t> params(4 * 5 * 6);
  for (size_t i = 0; i < params.size(); ++i) params[i] = static_cast<int32_t>(i) - 50;
  std::vector<int32_t> want;
  for (int t = 0; t < 5; ++t) {
    const int a = indices[2 * t], b = indices[2 * t + 1];
    const bool inside = a >= 0 && a < 4 && b >= 0 && b < 5;
    for (int e = 0; e < 6; ++e) want.push_back(inside ? params[(a * 5 + b) * 6 + e] : 0);
  }
  Desc par_desc(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_INT32, {4, 5, 6});
  Desc idx_desc(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_INT32, {5, 2});
  Desc out_desc(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_INT32, {5, 6});
  DeviceBuffer<int32_t> d_par(params), d_idx(indices), d_out(std::vector<int32_t>(30, 77));
  ASSERT_EQ(cnnlGatherNd_v2(handle, 0, par_desc, d_par.get(), idx_desc, d_idx.get(), out_desc,
                            d_out.get()),
            CNNL_STATUS_SUCCESS);
  EXPECT_EQ(d_out.download(), want);
}

TEST(CnnlGatherNd, MovesHalvesBitForBit) {
  Handle handle;
  const std::vector<_Float16> params = {1, 2, 3, 4, 5, 6};  // [3, 2]
  const std::vector<int32_t> indices = {2, 2, 0};
  const std::vector<_Float16> want = {5, 6, 5, 6, 1, 2};
  Desc par_desc(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_HALF, {3, 2});
  Desc idx_desc(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_INT32, {3, 1});
  Desc out_desc(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_HALF, {3, 2});
  DeviceBuffer<_Float16> d_par(params), d_out(6);
  DeviceBuffer<int32_t> d_idx(indices);
  ASSERT_EQ(cnnlGatherNd(handle, par_desc, d_par.get(), idx_desc, d_idx.get(), out_desc,
                         d_out.get()),
            CNNL_STATUS_SUCCESS);
  EXPECT_EQ(d_out.download(), want);
}

TEST(CnnlGatherNd, RefusesMismatchedShapesAndOtherForms) {
  Handle handle;
  Desc par_desc(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_FLOAT, {10, 3});
  Desc idx_desc(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_INT32, {4, 1});
  Desc out_wrong(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_FLOAT, {4, 2});
  DeviceBuffer<float> d_par(30), d_out(12);
  DeviceBuffer<int32_t> d_idx(4);
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, "cnnlGatherNd", "output is [4,2]",
                 cnnlGatherNd(handle, par_desc, d_par.get(), idx_desc, d_idx.get(), out_wrong,
                              d_out.get()));
  Desc idx_wide(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_INT32, {4, 3});
  Desc out_desc(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_FLOAT, {4, 3});
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, "cnnlGatherNd", "must be 1 to the rank of params",
                 cnnlGatherNd(handle, par_desc, d_par.get(), idx_wide, d_idx.get(), out_desc,
                              d_out.get()));
  EXPECT_REFUSED(CNNL_STATUS_NOT_SUPPORTED, "cnnlGatherNd_v2", "batch_dims 0",
                 cnnlGatherNd_v2(handle, 1, par_desc, d_par.get(), idx_desc, d_idx.get(),
                                 out_desc, d_out.get()));
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, "cnnlGatherNd", "handle",
                 cnnlGatherNd(nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr));
}

}  // namespace
}  // namespace cnnl_test
