// cnnlTopKTensor_v3 against a CPU reference (std::stable_sort of each row's
// indices in the same total order: +NaN, +inf, the numbers, -inf, -NaN;
// equal values lower index first): rows with repeated values, signed zeros,
// infinities and NaN of either sign; k from 0 to the whole row; the shape
// mlu-ops' generate_proposals_v2 passes ([N, H x W x A], dim 1) on the
// MLU590-H8; and bad arguments.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "tests/cnnl/cnnl_test_util.h"

namespace cnnl_test {
namespace {

// The reference order: +NaN (class 2), the ordered values (1), -NaN (0).
int nan_class(float x) { return std::isnan(x) ? (std::signbit(x) ? 0 : 2) : 1; }

struct Expected {
  std::vector<float> values;
  std::vector<int32_t> indices;
};

Expected topk_reference(const std::vector<float> &input, int64_t rows, int64_t cols, int64_t k) {
  Expected e;
  for (int64_t r = 0; r < rows; ++r) {
    const float *row = input.data() + r * cols;
    std::vector<int32_t> order(static_cast<size_t>(cols));
    for (int64_t i = 0; i < cols; ++i) order[i] = static_cast<int32_t>(i);
    std::stable_sort(order.begin(), order.end(), [&](int32_t a, int32_t b) {
      const int ca = nan_class(row[a]), cb = nan_class(row[b]);
      return ca != cb ? ca > cb : ca == 1 && row[a] > row[b];
    });
    for (int64_t i = 0; i < k; ++i) {
      e.values.push_back(row[order[i]]);
      e.indices.push_back(order[i]);
    }
  }
  return e;
}

// Bit patterns, so that NaN of either sign and -0 compare exactly.
std::vector<uint32_t> bits(const std::vector<float> &v) {
  std::vector<uint32_t> b(v.size());
  if (!v.empty()) std::memcpy(b.data(), v.data(), v.size() * 4);
  return b;
}

struct TopKResult {
  cnnlStatus_t status;
  std::vector<float> values;
  std::vector<int32_t> indices;
};

TopKResult run_topk(const Handle &handle, const std::vector<int64_t> &dims, const std::vector<float> &input,
             int k, int dim, bool sorted = true) {
  std::vector<int64_t> out_dims = dims;
  out_dims[static_cast<size_t>(dim < 0 ? dim + static_cast<int>(dims.size()) : dim)] = k;
  const size_t out_count = count_of(out_dims);
  Desc in_desc(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_FLOAT, dims);
  Desc values_desc(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_FLOAT, out_dims);
  Desc index_desc(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_INT32, out_dims);
  DeviceBuffer<float> in(input), values(std::vector<float>(out_count, -7.0f));
  DeviceBuffer<int32_t> index(std::vector<int32_t>(out_count, -7));
  size_t workspace = 1;
  EXPECT_EQ(cnnlGetTopKTensorWorkspaceSize(handle, in_desc, k, dim, true, values_desc, index_desc,
                                           &workspace),
            CNNL_STATUS_SUCCESS);
  EXPECT_EQ(workspace, 0u);
  TopKResult r;
  r.status = cnnlTopKTensor_v3(handle, in_desc, in.get(), k, dim, true, sorted, true, nullptr, 0,
                               values_desc, values.get(), index_desc, index.get());
  r.values = values.download();
  r.indices = index.download();
  return r;
}

void expect_topk(const std::vector<int64_t> &dims, const std::vector<float> &input, int k) {
  SCOPED_TRACE("cols " + std::to_string(dims.back()) + " k " + std::to_string(k));
  Handle handle;
  const TopKResult r = run_topk(handle, dims, input, k, -1);
  ASSERT_EQ(r.status, CNNL_STATUS_SUCCESS);
  const int64_t cols = dims.back(), rows = static_cast<int64_t>(input.size()) / cols;
  const Expected e = topk_reference(input, rows, cols, k);
  EXPECT_EQ(r.indices, e.indices);
  EXPECT_EQ(bits(r.values), bits(e.values));
}

// Values from a small set, so that many repeat, with the special ones mixed in.
std::vector<float> awkward_values(size_t n, uint32_t seed) {
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float specials[] = {inf, -inf, nan, -nan, 0.0f, -0.0f};
  Random random(seed);
  std::vector<float> v(n);
  for (float &x : v) {
    const int pick = random.integer(0, 19);
    x = pick < 6 ? specials[pick] : static_cast<float>(random.integer(-5, 5)) * 0.25f;
  }
  return v;
}

TEST(CnnlTopK, RowsWithRepeatsInfinitiesAndNans) {
  const auto v = awkward_values(6 * 50, 1);
  for (int k : {0, 1, 7, 50}) expect_topk({6, 50}, v, k);
  expect_topk({2, 3, 40}, awkward_values(240, 2), 13);
  expect_topk({1}, std::vector<float>{3.0f}, 1);
}

TEST(CnnlTopK, DistinctRandomValues) {
  Random random(3);
  expect_topk({5, 1000}, random.floats(5000, -100.0f, 100.0f), 300);
  expect_topk({37, 64}, random.floats(37 * 64, -1.0f, 1.0f), 64);  // more rows than tasks
}

// generate_proposals_v2 on an MLU590 sorts the scores [N, H x W x A] along
// dim 1 with k = pre_nms_top_n (here 2 images, 16 x 16 x 15 anchors).
TEST(CnnlTopK, GenerateProposalsShapeOnMlu590) {
  DevicePreset preset("MLU590-H8");
  Random random(4);
  expect_topk({2, 3840}, random.floats(2 * 3840, 0.0f, 1.0f), 1000);
}

TEST(CnnlTopK, UnsortedRequestGetsTheSortedAnswer) {
  Handle handle;
  const std::vector<float> v = {0.5f, 2.0f, -1.0f, 2.0f};
  const TopKResult r = run_topk(handle, {1, 4}, v, 2, 1, false);
  ASSERT_EQ(r.status, CNNL_STATUS_SUCCESS);
  EXPECT_EQ(r.indices, (std::vector<int32_t>{1, 3}));
  EXPECT_EQ(r.values, (std::vector<float>{2.0f, 2.0f}));
}

TEST(CnnlTopK, RefusesBadArguments) {
  Handle handle;
  Desc in_desc(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_FLOAT, {2, 8});
  Desc half_desc(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_HALF, {2, 8});
  Desc values_desc(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_FLOAT, {2, 3});
  Desc half_values(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_HALF, {2, 3});
  Desc wrong_values(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_FLOAT, {2, 4});
  Desc index_desc(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_INT32, {2, 3});
  Desc index64(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_INT64, {2, 3});
  Desc dim0_values(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_FLOAT, {1, 8});
  Desc dim0_index(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_INT32, {1, 8});
  DeviceBuffer<float> in(std::vector<float>(16, 1.0f)), values(6);
  DeviceBuffer<int32_t> index(6);
  const char *api = "cnnlTopKTensor_v3";
  auto call = [&](cnnlTensorDescriptor_t i, int k, int dim, bool largest, bool lower_first,
                  cnnlTensorDescriptor_t v, cnnlTensorDescriptor_t x, void *v_ptr) {
    return cnnlTopKTensor_v3(handle, i, in.get(), k, dim, largest, true, lower_first, nullptr, 0,
                             v, v_ptr, x, index.get());
  };
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, api, "k is 9",
                 call(in_desc, 9, 1, true, true, values_desc, index_desc, values.get()));
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, api, "dim is 2",
                 call(in_desc, 3, 2, true, true, values_desc, index_desc, values.get()));
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, api, "the input's dims with 3",
                 call(in_desc, 3, 1, true, true, wrong_values, index_desc, values.get()));
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, api, "the input's dims with 3",
                 call(in_desc, 3, 1, true, true, half_values, index_desc, values.get()));
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, "cnnlTopKTensor_v3", "output_desc",
                 call(in_desc, 3, 1, true, true, nullptr, index_desc, values.get()));
  EXPECT_REFUSED(CNNL_STATUS_NOT_SUPPORTED, api, "int32",
                 call(in_desc, 3, 1, true, true, values_desc, index64, values.get()));
  EXPECT_REFUSED(CNNL_STATUS_NOT_SUPPORTED, api, "float",
                 call(half_desc, 3, 1, true, true, half_values, index_desc, values.get()));
  EXPECT_REFUSED(CNNL_STATUS_NOT_SUPPORTED, api, "the last dim",
                 call(in_desc, 1, 0, true, true, dim0_values, dim0_index, values.get()));
  EXPECT_REFUSED(CNNL_STATUS_NOT_SUPPORTED, api, "largest",
                 call(in_desc, 3, 1, false, true, values_desc, index_desc, values.get()));
  EXPECT_REFUSED(CNNL_STATUS_NOT_SUPPORTED, api, "lower_index_first",
                 call(in_desc, 3, 1, true, false, values_desc, index_desc, values.get()));
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, api, "output",
                 call(in_desc, 3, 1, true, true, values_desc, index_desc, nullptr));
  size_t size = 0;
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, "cnnlGetTopKTensorWorkspaceSize", "input_desc",
                 cnnlGetTopKTensorWorkspaceSize(handle, nullptr, 3, 1, true, values_desc,
                                                index_desc, &size));
}

}  // namespace
}  // namespace cnnl_test
