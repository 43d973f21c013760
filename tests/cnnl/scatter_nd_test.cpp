// cnnlScatterNd_v2 against a host scatter: ADD onto the output's own values
// (mlu-ops' dynamic_point_to_voxel backward: 1-index tuples into a flat
// output, unused tuples one past its end), ADD of slices onto a given input,
// UPDATE, duplicates adding up, and refused arguments.
#include <gtest/gtest.h>

#include "tests/cnnl/cnnl_test_util.h"

namespace cnnl_test {
namespace {

TEST(CnnlScatterNd, AddsIntoTheOutputAndSkipsIndicesOutOfRange) {
  Handle handle;
  const int elements = 3000, tuples = 5000;
  Random rng(7);
  std::vector<int32_t> indices(tuples);
  std::vector<float> updates(tuples), start(elements), want(elements);
  for (int i = 0; i < elements; ++i) want[i] = start[i] = static_cast<float>(i % 13);
  for (int i = 0; i < tuples; ++i) {
    // Whole numbers: sums are exact in any order. Every fifth tuple is unused.
    indices[i] = i % 5 == 0 ? elements : rng.integer(0, elements - 1);
    updates[i] = static_cast<float>(rng.integer(-50, 50));
    if (indices[i] < elements) want[indices[i]] += updates[i];
  }
  Desc idx_desc(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_INT32, {tuples, 1});
  Desc upd_desc(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_FLOAT, {tuples});
  Desc out_desc(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_FLOAT, {elements});
  DeviceBuffer<int32_t> d_idx(indices);
  DeviceBuffer<float> d_upd(updates), d_out(start);
  ASSERT_EQ(cnnlScatterNd_v2(handle, CNNL_SCATTERND_ADD, idx_desc, d_idx.get(), upd_desc,
                             d_upd.get(), nullptr, nullptr, out_desc, d_out.get()),
            CNNL_STATUS_SUCCESS);
  EXPECT_EQ(d_out.download(), want);
  EXPECT_GT(handle.last_op_report().device_time_us, 0);
}

// 2-index tuples into [4, 5, 6]: each names a row of 6; onto an input.
TEST(CnnlScatterNd, AddsSlicesOntoTheInput) {
  Handle handle;
  const std::vector<int32_t> indices = {0, 1, 3, 4, 0, 1, 2, 9, -1, 0};  // the last two skipped
  std::vector<int32_t> input(4 * 5 * 6), updates(5 * 6);
  for (size_t i = 0; i < input.size(); ++i) input[i] = static_cast<int32_t>(i);
  for (size_t i = 0; i < updates.size(); ++i) updates[i] = static_cast<int32_t>(100 * (i + 1));
  std::vector<int32_t> want = input;
  for (int t = 0; t < 5; ++t) {
    const int a = indices[2 * t], b = indices[2 * t + 1];
    if (a < 0 || a >= 4 || b < 0 || b >= 5) continue;
    for (int e = 0; e < 6; ++e) want[(a * 5 + b) * 6 + e] += updates[t * 6 + e];
  }
  Desc idx_desc(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_INT32, {5, 2});
  Desc upd_desc(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_INT32, {5, 6});
  Desc io_desc(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_INT32, {4, 5, 6});
  DeviceBuffer<int32_t> d_idx(indices), d_upd(updates), d_in(input),
      d_out(std::vector<int32_t>(input.size(), -7));
  ASSERT_EQ(cnnlScatterNd_v2(handle, CNNL_SCATTERND_ADD, idx_desc, d_idx.get(), upd_desc,
                             d_upd.get(), io_desc, d_in.get(), io_desc, d_out.get()),
            CNNL_STATUS_SUCCESS);
  EXPECT_EQ(d_out.download(), want);
}

TEST(CnnlScatterNd, UpdateReplacesSlices) {
  Handle handle;
  const std::vector<int32_t> indices = {2, 0, 7};
  const std::vector<_Float16> updates = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  std::vector<_Float16> want(4 * 3, static_cast<_Float16>(-1));
  for (int t = 0; t < 2; ++t)
    for (int e = 0; e < 3; ++e) want[indices[t] * 3 + e] = updates[t * 3 + e];
  Desc idx_desc(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_INT32, {3, 1});
  Desc upd_desc(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_HALF, {3, 3});
  Desc out_desc(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_HALF, {4, 3});
  DeviceBuffer<int32_t> d_idx(indices);
  DeviceBuffer<_Float16> d_upd(updates), d_out(std::vector<_Float16>(12, static_cast<_Float16>(-1)));
  ASSERT_EQ(cnnlScatterNd_v2(handle, CNNL_SCATTERND_UPDATE, idx_desc, d_idx.get(), upd_desc,
                             d_upd.get(), nullptr, nullptr, out_desc, d_out.get()),
            CNNL_STATUS_SUCCESS);
  EXPECT_EQ(d_out.download(), want);
}

// mlu-ops' indice_convolution_backward_data: one buffer as input and output.
TEST(CnnlScatterNd, UpdatesInPlaceWhenTheInputIsTheOutput) {
  Handle handle;
  const std::vector<int32_t> indices = {3, 0};
  const std::vector<float> updates = {7, 8, 9, 10};
  std::vector<float> start(5 * 2);
  for (size_t i = 0; i < start.size(); ++i) start[i] = static_cast<float>(i);
  std::vector<float> want = start;
  want[6] = 7, want[7] = 8, want[0] = 9, want[1] = 10;
  Desc idx_desc(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_INT32, {2, 1});
  Desc upd_desc(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_FLOAT, {2, 2});
  Desc io_desc(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_FLOAT, {5, 2});
  DeviceBuffer<int32_t> d_idx(indices);
  DeviceBuffer<float> d_upd(updates), d_io(start);
  ASSERT_EQ(cnnlScatterNd_v2(handle, CNNL_SCATTERND_UPDATE, idx_desc, d_idx.get(), upd_desc,
                             d_upd.get(), io_desc, d_io.get(), io_desc, d_io.get()),
            CNNL_STATUS_SUCCESS);
  EXPECT_EQ(d_io.download(), want);
  // A partial overlap is still refused.
  Desc part_desc(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_FLOAT, {4, 2});
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, "cnnlScatterNd_v2", "share memory",
                 cnnlScatterNd_v2(handle, CNNL_SCATTERND_UPDATE, idx_desc, d_idx.get(), upd_desc,
                                  d_upd.get(), part_desc, d_io.get() + 2, part_desc, d_io.get()));
}

TEST(CnnlScatterNd, RefusesMismatchedShapesAndUnsupportedDtypes) {
  Handle handle;
  Desc idx_desc(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_INT32, {4, 1});
  Desc upd_wrong(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_FLOAT, {5});
  Desc out_desc(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_FLOAT, {10});
  DeviceBuffer<int32_t> d_idx(4);
  DeviceBuffer<float> d_upd(5), d_out(10);
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, "cnnlScatterNd_v2", "updates is [5]",
                 cnnlScatterNd_v2(handle, CNNL_SCATTERND_ADD, idx_desc, d_idx.get(), upd_wrong,
                                  d_upd.get(), nullptr, nullptr, out_desc, d_out.get()));
  Desc idx64(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_INT64, {4, 1});
  Desc upd_desc(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_FLOAT, {4});
  EXPECT_REFUSED(CNNL_STATUS_NOT_SUPPORTED, "cnnlScatterNd_v2", "int32",
                 cnnlScatterNd_v2(handle, CNNL_SCATTERND_ADD, idx64, d_idx.get(), upd_desc,
                                  d_upd.get(), nullptr, nullptr, out_desc, d_out.get()));
  Desc i8_upd(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_INT8, {4});
  Desc i8_out(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_INT8, {10});
  EXPECT_REFUSED(CNNL_STATUS_NOT_SUPPORTED, "cnnlScatterNd_v2", "float, half or int32",
                 cnnlScatterNd_v2(handle, CNNL_SCATTERND_ADD, idx_desc, d_idx.get(), i8_upd,
                                  d_upd.get(), nullptr, nullptr, i8_out, d_out.get()));
}

}  // namespace
}  // namespace cnnl_test
