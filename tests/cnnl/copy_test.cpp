// cnnlCopy_v2 and cnnlTranspose_v2 against an element-by-element CPU copy:
// permutations of 2 to 8 dims, every element width, strided inputs and
// outputs, rows longer than NRAM, zero elements, bad arguments.
#include <gtest/gtest.h>

#include <numeric>

#include "tests/cnnl/cnnl_test_util.h"

namespace cnnl_test {
namespace {

using Dims = std::vector<int64_t>;

Dims dense_strides(const Dims &dims) {
  Dims s(dims.size(), 1);
  for (int i = static_cast<int>(dims.size()) - 2; i >= 0; --i) s[i] = s[i + 1] * dims[i + 1];
  return s;
}

// Offsets of every element of `dims` in row-major index order, for `strides`.
std::vector<int64_t> offsets(const Dims &dims, const Dims &strides) {
  std::vector<int64_t> out(count_of(dims));
  std::vector<int64_t> index(dims.size(), 0);
  for (size_t e = 0; e < out.size(); ++e) {
    int64_t at = 0;
    for (size_t i = 0; i < dims.size(); ++i) at += index[i] * strides[i];
    out[e] = at;
    for (int i = static_cast<int>(dims.size()) - 1; i >= 0; --i) {
      if (++index[i] < dims[i]) break;
      index[i] = 0;
    }
  }
  return out;
}

int64_t span_of(const Dims &dims, const Dims &strides) {
  int64_t last = 0;
  for (size_t i = 0; i < dims.size(); ++i) last += (dims[i] - 1) * strides[i];
  return last + 1;
}

// Transposes a tensor of T (x dense unless x_strides given, y dense unless
// y_strides given) and expects y to be x's elements at the permuted places;
// y's gaps keep their starting value.
template <typename T>
void expect_transpose(cnnlDataType_t dtype, const Dims &x_dims, const std::vector<int> &permute,
                      Dims x_strides = {}, Dims y_strides = {}) {
  SCOPED_TRACE(::testing::PrintToString(x_dims) + " by " + ::testing::PrintToString(permute));
  Dims y_dims;
  for (int p : permute) y_dims.push_back(x_dims[p]);
  if (x_strides.empty()) x_strides = dense_strides(x_dims);
  if (y_strides.empty()) y_strides = dense_strides(y_dims);
  std::vector<T> x(span_of(x_dims, x_strides));
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<T>(i % 251);
  const std::vector<T> y_start(span_of(y_dims, y_strides), static_cast<T>(255));
  // Reference: y at index j (its dims) is x at the index whose dim permute[i] is j[i].
  Dims x_strides_in_y_order;
  for (int p : permute) x_strides_in_y_order.push_back(x_strides[p]);
  std::vector<T> expected = y_start;
  const auto from = offsets(y_dims, x_strides_in_y_order), to = offsets(y_dims, y_strides);
  for (size_t e = 0; e < from.size(); ++e) expected[to[e]] = x[from[e]];

  Handle handle;
  Desc x_desc(CNNL_LAYOUT_ARRAY, dtype, x_dims, x_strides);
  Desc y_desc(CNNL_LAYOUT_ARRAY, dtype, y_dims, y_strides);
  cnnlTransposeDescriptor_t trans = nullptr;
  ASSERT_EQ(cnnlCreateTransposeDescriptor(&trans), CNNL_STATUS_SUCCESS);
  ASSERT_EQ(cnnlSetTransposeDescriptor(trans, static_cast<int>(permute.size()), permute.data()),
            CNNL_STATUS_SUCCESS);
  size_t workspace_size = 1;
  ASSERT_EQ(cnnlGetTransposeWorkspaceSize(handle, x_desc, trans, &workspace_size),
            CNNL_STATUS_SUCCESS);
  EXPECT_EQ(workspace_size, 0u);
  DeviceBuffer<T> x_dev(x), y_dev(y_start);
  EXPECT_EQ(cnnlTranspose_v2(handle, trans, x_desc, x_dev.get(), y_desc, y_dev.get(), nullptr, 0),
            CNNL_STATUS_SUCCESS);
  EXPECT_EQ(y_dev.download(), expected);
  cnnlDestroyTransposeDescriptor(trans);
}

TEST(CnnlTranspose, MatricesAndImageLayouts) {
  expect_transpose<float>(CNNL_DTYPE_FLOAT, {37, 53}, {1, 0});
  expect_transpose<float>(CNNL_DTYPE_FLOAT, {2, 5, 7, 3}, {0, 2, 3, 1});  // NCHW -> NHWC
  expect_transpose<float>(CNNL_DTYPE_FLOAT, {2, 7, 3, 5}, {0, 3, 1, 2});  // NHWC -> NCHW
  expect_transpose<float>(CNNL_DTYPE_FLOAT, {3, 4, 5}, {0, 1, 2});        // identity
  expect_transpose<float>(CNNL_DTYPE_FLOAT, {4, 1, 9, 1}, {3, 2, 1, 0});  // size-1 dims
}

TEST(CnnlTranspose, EveryElementWidth) {
  expect_transpose<int8_t>(CNNL_DTYPE_INT8, {6, 10, 3}, {2, 0, 1});
  expect_transpose<int16_t>(CNNL_DTYPE_HALF, {6, 10, 3}, {1, 2, 0});
  expect_transpose<int32_t>(CNNL_DTYPE_INT32, {6, 10, 3}, {2, 1, 0});
  expect_transpose<int64_t>(CNNL_DTYPE_COMPLEX_FLOAT, {6, 10, 3}, {1, 0, 2});
}

TEST(CnnlTranspose, EightDims) {
  expect_transpose<float>(CNNL_DTYPE_FLOAT, {2, 3, 1, 2, 3, 2, 1, 4}, {7, 1, 5, 3, 0, 2, 6, 4});
}

TEST(CnnlTranspose, StridedInputAndOutput) {
  expect_transpose<float>(CNNL_DTYPE_FLOAT, {4, 6}, {1, 0}, {10, 1}, {9, 1});
  expect_transpose<float>(CNNL_DTYPE_FLOAT, {3, 4, 5}, {2, 0, 1}, {1, 3, 12});
}

// Layout changes go by tiles transposed on chip: several tiles along both
// dims, partial tiles, every element width (the transpose's alignment in
// elements differs), an outer dim between the two.
TEST(CnnlTranspose, TiledLayoutChanges) {
  expect_transpose<float>(CNNL_DTYPE_FLOAT, {3, 300, 500}, {0, 2, 1});
  expect_transpose<float>(CNNL_DTYPE_FLOAT, {1, 256, 64, 64}, {0, 2, 3, 1});  // NCHW -> NHWC
  expect_transpose<int8_t>(CNNL_DTYPE_INT8, {5, 70, 130}, {0, 2, 1});
  expect_transpose<int16_t>(CNNL_DTYPE_HALF, {2, 33, 700}, {2, 0, 1});
  expect_transpose<int64_t>(CNNL_DTYPE_INT64, {40, 3, 90}, {2, 1, 0});
}

// Rows longer than one NRAM block, gathered with a stride: the [2, 300000]
// transpose reads every row of the output 2 elements apart.
TEST(CnnlTranspose, RowsLongerThanNram) {
  expect_transpose<float>(CNNL_DTYPE_FLOAT, {300000, 2}, {1, 0});
}

TEST(CnnlTranspose, OtherDevices) {
  for (const char *name : {"MLU270", "MLU290"}) {
    SCOPED_TRACE(name);
    DevicePreset device(name);
    expect_transpose<float>(CNNL_DTYPE_FLOAT, {3, 300, 500}, {0, 2, 1});
    expect_transpose<int8_t>(CNNL_DTYPE_INT8, {7, 11, 13}, {2, 0, 1});
  }
}

template <typename T>
void expect_copy(cnnlDataType_t dtype, const Dims &dims, Dims in_strides, Dims out_strides) {
  SCOPED_TRACE(::testing::PrintToString(dims));
  if (in_strides.empty()) in_strides = dense_strides(dims);
  if (out_strides.empty()) out_strides = dense_strides(dims);
  std::vector<T> in(span_of(dims, in_strides));
  for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<T>(i % 97 + 1);
  const std::vector<T> out_start(span_of(dims, out_strides), static_cast<T>(0));
  std::vector<T> expected = out_start;
  const auto from = offsets(dims, in_strides), to = offsets(dims, out_strides);
  for (size_t e = 0; e < from.size(); ++e) expected[to[e]] = in[from[e]];

  Handle handle;
  Desc in_desc(CNNL_LAYOUT_ARRAY, dtype, dims, in_strides);
  Desc out_desc(CNNL_LAYOUT_ARRAY, dtype, dims, out_strides);
  DeviceBuffer<T> in_dev(in), out_dev(out_start);
  ASSERT_EQ(cnnlCopy_v2(handle, in_desc, in_dev.get(), out_desc, out_dev.get(), nullptr, 0),
            CNNL_STATUS_SUCCESS);
  EXPECT_EQ(out_dev.download(), expected);
}

TEST(CnnlCopy, DenseStridedAndLong) {
  expect_copy<float>(CNNL_DTYPE_FLOAT, {1000003}, {}, {});  // one row, several NRAM blocks
  expect_copy<float>(CNNL_DTYPE_FLOAT, {5, 7, 9}, {100, 12, 1}, {});
  expect_copy<float>(CNNL_DTYPE_FLOAT, {5, 7, 9}, {}, {70, 9, 1});
  expect_copy<int16_t>(CNNL_DTYPE_HALF, {6, 11}, {1, 6}, {});  // a transposed view
  expect_copy<int64_t>(CNNL_DTYPE_INT64, {3, 4, 2}, {8, 2, 1}, {1, 3, 12});
  expect_copy<uint8_t>(CNNL_DTYPE_BOOL, {129, 3}, {3, 1}, {4, 1});
}

TEST(CnnlCopy, ZeroElements) {
  Handle handle;
  Desc desc(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_FLOAT, {3, 0});
  EXPECT_EQ(cnnlCopy_v2(handle, desc, nullptr, desc, nullptr, nullptr, 0), CNNL_STATUS_SUCCESS);
  EXPECT_EQ(handle.last_op_report().launches, 0);
}

TEST(CnnlCopy, RefusesBadArguments) {
  Handle handle;
  Desc a(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_FLOAT, {4, 8});
  Desc other_dims(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_FLOAT, {8, 4});
  Desc other_dtype(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_INT32, {4, 8});
  Desc aliased(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_FLOAT, {4, 8}, {0, 1});
  DeviceBuffer<float> in(32), out(32);
  const char *api = "cnnlCopy_v2";
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, api, "equal dims and dtype",
                 cnnlCopy_v2(handle, a, in.get(), other_dims, out.get(), nullptr, 0));
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, api, "equal dims and dtype",
                 cnnlCopy_v2(handle, a, in.get(), other_dtype, out.get(), nullptr, 0));
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, api, "one address",
                 cnnlCopy_v2(handle, a, in.get(), aliased, out.get(), nullptr, 0));
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, api, "in-place",
                 cnnlCopy_v2(handle, a, in.get(), a, in.get(), nullptr, 0));
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, api, "not device memory",
                 cnnlCopy_v2(handle, a, in.get(), a, nullptr, nullptr, 0));
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, api, "not a live handle",
                 cnnlCopy_v2(nullptr, a, in.get(), a, out.get(), nullptr, 0));
}

TEST(CnnlTranspose, RefusesBadArguments) {
  Handle handle;
  Desc x(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_FLOAT, {4, 8});
  Desc y_bad(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_FLOAT, {4, 8});
  Desc y(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_FLOAT, {8, 4});
  DeviceBuffer<float> x_dev(32), y_dev(32);
  cnnlTransposeDescriptor_t trans = nullptr;
  ASSERT_EQ(cnnlCreateTransposeDescriptor(&trans), CNNL_STATUS_SUCCESS);
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, "cnnlTranspose_v2", "never set",
                 cnnlTranspose_v2(handle, trans, x, x_dev.get(), y, y_dev.get(), nullptr, 0));
  const int not_a_permutation[2] = {1, 1}, swap[2] = {1, 0}, three[3] = {2, 1, 0};
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, "cnnlSetTransposeDescriptor", "not a permutation",
                 cnnlSetTransposeDescriptor(trans, 2, not_a_permutation));
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, "cnnlSetTransposeDescriptor", "dims = 9",
                 cnnlSetTransposeDescriptor(trans, 9, swap));
  ASSERT_EQ(cnnlSetTransposeDescriptor(trans, 2, swap), CNNL_STATUS_SUCCESS);
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, "cnnlTranspose_v2", "permuted",
                 cnnlTranspose_v2(handle, trans, x, x_dev.get(), y_bad, y_dev.get(), nullptr, 0));
  ASSERT_EQ(cnnlSetTransposeDescriptor(trans, 3, three), CNNL_STATUS_SUCCESS);
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, "cnnlTranspose_v2", "has 2 dims",
                 cnnlTranspose_v2(handle, trans, x, x_dev.get(), y, y_dev.get(), nullptr, 0));
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, "cnnlGetTransposeWorkspaceSize", "size pointer is NULL",
                 cnnlGetTransposeWorkspaceSize(handle, x, trans, nullptr));
  ASSERT_EQ(cnnlDestroyTransposeDescriptor(trans), CNNL_STATUS_SUCCESS);
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, "cnnlDestroyTransposeDescriptor", "not a live",
                 cnnlDestroyTransposeDescriptor(trans));
}

}  // namespace
}  // namespace cnnl_test
