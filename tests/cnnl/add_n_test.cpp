// cnnlAddN_v2 against a host sum in double: two inputs into one of them, as
// mlu-ops' indice_convolution_backward_data calls it, several half inputs
// into a separate output, and refused arguments.
#include <gtest/gtest.h>

#include "tests/cnnl/cnnl_test_util.h"

namespace cnnl_test {
namespace {

std::vector<float> random_values(size_t n, uint64_t seed) {
  Random rng(seed);
  std::vector<float> v(n);
  for (float &x : v) x = static_cast<float>(rng.integer(-4000, 4000)) / 1000;
  return v;
}

TEST(CnnlAddN, AddsIntoOneOfItsInputs) {
  Handle handle;
  const std::vector<int64_t> dims = {1000, 123};  // more than one NRAM block per core
  const size_t n = count_of(dims);
  const std::vector<float> a = random_values(n, 1), b = random_values(n, 2);
  std::vector<double> want(n);
  for (size_t i = 0; i < n; ++i) want[i] = double{a[i]} + b[i];
  DeviceTensor ta(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_FLOAT, dims, a);
  DeviceTensor tb(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_FLOAT, dims, b);
  const cnnlTensorDescriptor_t descs[] = {ta.desc(), tb.desc()};
  const void *inputs[] = {ta.ptr(), tb.ptr()};
  size_t workspace = 7;
  ASSERT_EQ(cnnlGetAddNWorkspaceSize(handle, descs, 2, tb.desc(), &workspace),
            CNNL_STATUS_SUCCESS);
  EXPECT_EQ(workspace, 0u);
  ASSERT_EQ(cnnlAddN_v2(handle, descs, inputs, 2, tb.desc(), tb.ptr(), nullptr, 0),
            CNNL_STATUS_SUCCESS);
  expect_close(tb.download(), want);
  EXPECT_EQ(ta.download(), a);
  EXPECT_GT(handle.last_op_report().device_time_us, 0);
}

TEST(CnnlAddN, AddsFiveHalfInputs) {
  Handle handle;
  const std::vector<int64_t> dims = {3, 333};
  const size_t n = count_of(dims);
  std::vector<std::vector<float>> values;
  std::vector<double> want(n, 0.0);
  for (int k = 0; k < 5; ++k) {
    values.push_back(random_values(n, 10 + k));
    for (size_t i = 0; i < n; ++i) want[i] += static_cast<_Float16>(values[k][i]);
  }
  std::vector<std::unique_ptr<DeviceTensor>> tensors;
  std::vector<cnnlTensorDescriptor_t> descs;
  std::vector<const void *> inputs;
  for (const auto &v : values) {
    tensors.push_back(std::make_unique<DeviceTensor>(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_HALF, dims, v));
    descs.push_back(tensors.back()->desc());
    inputs.push_back(tensors.back()->ptr());
  }
  DeviceTensor out(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_HALF, dims, std::vector<float>(n, -9));
  ASSERT_EQ(cnnlAddN_v2(handle, descs.data(), inputs.data(), 5, out.desc(), out.ptr(), nullptr, 0),
            CNNL_STATUS_SUCCESS);
  expect_close(out.download(), want);
}

TEST(CnnlAddN, RefusesMismatchedInputsAndPartialOverlap) {
  Handle handle;
  DeviceTensor a(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_FLOAT, {64}, std::vector<float>(64, 1));
  DeviceTensor b(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_FLOAT, {32}, std::vector<float>(32, 1));
  const cnnlTensorDescriptor_t mismatched[] = {a.desc(), b.desc()};
  const void *ab[] = {a.ptr(), b.ptr()};
  EXPECT_REFUSED(CNNL_STATUS_NOT_SUPPORTED, "cnnlAddN_v2", "input 1 is [32]",
                 cnnlAddN_v2(handle, mismatched, ab, 2, a.desc(), a.ptr(), nullptr, 0));
  Desc shifted(CNNL_LAYOUT_ARRAY, CNNL_DTYPE_FLOAT, {32});
  const cnnlTensorDescriptor_t halves[] = {shifted, shifted};
  const void *overlapping[] = {b.ptr(), static_cast<const float *>(a.ptr()) + 16};
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, "cnnlAddN_v2", "overlaps the output",
                 cnnlAddN_v2(handle, halves, overlapping, 2, shifted, a.ptr(), nullptr, 0));
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, "cnnlAddN_v2", "input_num is 0",
                 cnnlAddN_v2(handle, halves, overlapping, 0, shifted, a.ptr(), nullptr, 0));
  EXPECT_REFUSED(CNNL_STATUS_BAD_PARAM, "cnnlAddN_v2", "handle",
                 cnnlAddN_v2(nullptr, nullptr, nullptr, 2, nullptr, nullptr, nullptr, 0));
}

}  // namespace
}  // namespace cnnl_test
