// cnnlUnique_v2 against a host reference (std::sort and a walk): the rows of
// a 2-D int32 input, as mlu-ops' dynamic_point_to_voxel forward asks (dim 0,
// inverse and counts), a 1-D float input, and refused arguments.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <numeric>

#include "tests/cnnl/cnnl_test_util.h"

namespace cnnl_test {
namespace {

// A Unique descriptor, set.
class UniqueDesc {
 public:
  UniqueDesc(int dim, bool inverse, bool counts) {
    cnnlCreateUniqueDescriptor(&desc_);
    cnnlSetUniqueDescriptor(desc_, CNNL_SORT_ASCEND, dim, inverse, counts);
  }
  ~UniqueDesc() { cnnlDestroyUniqueDescriptor(desc_); }
  UniqueDesc(const UniqueDesc &) = delete;
  UniqueDesc &operator=(const UniqueDesc &) = delete;
  operator cnnlUniqueDescriptor_t() const { return desc_; }

 private:
  cnnlUniqueDescriptor_t desc_ = nullptr;
};

TEST(CnnlUnique, RowsInAscendingOrderWithInverseAndCounts) {
  Handle handle;
  const int rows = 2000, cols = 3;
  Random rng(11);
  std::vector<int32_t> input(rows * cols);
  for (int32_t &v : input) v = rng.integer(-1, 4);  // many repeated rows
  // The reference: a map from row to the list of input rows holding it.
  std::map<std::vector<int32_t>, std::vector<int>> groups;
  for (int r = 0; r < rows; ++r)
    groups[std::vector<int32_t>(input.begin() + r * cols, input.begin() + (r + 1) * cols)]
        .push_back(r);
  std::vector<int32_t> want_rows, want_counts, want_inverse(rows);
  for (const auto &[row, members] : groups) {
    for (int r : members) want_inverse[r] = static_cast<int32_t>(want_counts.size());
    want_rows.insert(want_rows.end(), row.begin(), row.end());
    want_counts.push_back(static_cast<int32_t>(members.size()));
  }
  const int distinct = static_cast<int>(want_counts.size());

  UniqueDesc desc(0, true, true);
  Desc in_desc(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_INT32, {rows, cols});
  Desc map_desc(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_INT32, {rows});
  DeviceBuffer<int32_t> d_in(input), d_out(std::vector<int32_t>(rows * cols, 99)),
      d_inverse(rows), d_counts(std::vector<int32_t>(rows, 99)), d_num(1);
  size_t workspace = 1;
  ASSERT_EQ(cnnlGetUniqueWorkspaceSize(handle, desc, in_desc, &workspace), CNNL_STATUS_SUCCESS);
  EXPECT_EQ(workspace, 0u);
  ASSERT_EQ(cnnlUnique_v2(handle, desc, in_desc, d_in.get(), nullptr, 0, d_num.get(), in_desc,
                          d_out.get(), map_desc, d_inverse.get(), map_desc, d_counts.get()),
            CNNL_STATUS_SUCCESS);
  EXPECT_EQ(d_num.download(), std::vector<int32_t>{distinct});
  std::vector<int32_t> got_rows = d_out.download(), got_counts = d_counts.download();
  EXPECT_EQ(std::vector<int32_t>(got_rows.begin(), got_rows.begin() + distinct * cols), want_rows);
  EXPECT_EQ(got_rows[distinct * cols], 99);  // past output_num: left as it was
  EXPECT_EQ(std::vector<int32_t>(got_counts.begin(), got_counts.begin() + distinct), want_counts);
  EXPECT_EQ(d_inverse.download(), want_inverse);
}

TEST(CnnlUnique, ElementsOfAOneDimensionalFloatInput) {
  Handle handle;
  const std::vector<float> input = {3.5f, -1.0f, 3.5f, 0.0f, -0.0f, 2.0f, -1.0f};
  std::vector<float> want = input;
  std::sort(want.begin(), want.end());
  want.erase(std::unique(want.begin(), want.end()), want.end());  // -0 == 0: one of them
  UniqueDesc desc(-1, false, false);
  Desc in_desc(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_FLOAT, {7});
  DeviceBuffer<float> d_in(input), d_out(7);
  DeviceBuffer<int32_t> d_num(1);
  ASSERT_EQ(cnnlUnique_v2(handle, desc, in_desc, d_in.get(), nullptr, 0, d_num.get(), in_desc,
                          d_out.get(), nullptr, nullptr, nullptr, nullptr),
            CNNL_STATUS_SUCCESS);
  ASSERT_EQ(d_num.download(), std::vector<int32_t>{static_cast<int32_t>(want.size())});
  const std::vector<float> got = d_out.download();
  EXPECT_EQ(std::vector<float>(got.begin(), got.begin() + want.size()), want);
}

TEST(CnnlUnique, RefusesWhatItDoesNotSimulate) {
  Handle handle;
  Desc in_desc(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_INT32, {4, 3});
  DeviceBuffer<int32_t> d_in(12), d_out(12), d_num(1);
  UniqueDesc columns(1, false, false);
  EXPECT_REFUSED(CNNL_STATUS_NOT_SUPPORTED, "cnnlUnique_v2", "the rows (dim 0)",
                 cnnlUnique_v2(handle, columns, in_desc, d_in.get(), nullptr, 0, d_num.get(),
                               in_desc, d_out.get(), nullptr, nullptr, nullptr, nullptr));
  UniqueDesc rows(0, true, false);
  Desc narrow_out(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_INT32, {6, 2});
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, "cnnlUnique_v2", "rows of 3 element(s)",
                 cnnlUnique_v2(handle, rows, in_desc, d_in.get(), nullptr, 0, d_num.get(),
                               narrow_out, d_out.get(), nullptr, nullptr, nullptr, nullptr));
  Desc short_map(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_INT32, {3});
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, "cnnlUnique_v2", "at least 4 of them",
                 cnnlUnique_v2(handle, rows, in_desc, d_in.get(), nullptr, 0, d_num.get(),
                               in_desc, d_out.get(), short_map, d_out.get(), nullptr, nullptr));
  cnnlUniqueDescriptor_t never_set = nullptr;
  cnnlCreateUniqueDescriptor(&never_set);
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, "cnnlUnique_v2", "never set",
                 cnnlUnique_v2(handle, never_set, in_desc, d_in.get(), nullptr, 0, d_num.get(),
                               in_desc, d_out.get(), nullptr, nullptr, nullptr, nullptr));
  cnnlDestroyUniqueDescriptor(never_set);
}

// The distinct rows' count shows only on the device: an output whose
// allocation holds fewer rows faults the launch (mlu-ops' dynamic_point_to_voxel
// forward case_0 sizes its outputs for the rows without the (-1, -1, -1) one).
TEST(CnnlUnique, AnOutputTooSmallForTheDistinctRowsFaults) {
  Handle handle;
  const std::vector<int32_t> input = {1, 1, 2, 2, 3, 3, 1, 1};  // 4 rows, 3 distinct
  UniqueDesc desc(0, false, true);
  Desc in_desc(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_INT32, {4, 2});
  Desc out_desc(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_INT32, {2, 2});
  Desc counts_desc(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_INT32, {2});
  DeviceBuffer<int32_t> d_in(input), d_out(4), d_counts(2), d_num(1);
  EXPECT_EQ(cnnlUnique_v2(handle, desc, in_desc, d_in.get(), nullptr, 0, d_num.get(), out_desc,
                          d_out.get(), nullptr, nullptr, counts_desc, d_counts.get()),
            CNNL_STATUS_EXECUTION_FAILED);
  EXPECT_NE(std::string(mlusimGetLastError()).find("NRAM2GDRAM"), std::string::npos)
      << mlusimGetLastError();
}

}  // namespace
}  // namespace cnnl_test
