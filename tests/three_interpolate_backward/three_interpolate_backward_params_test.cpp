// mluOpThreeInterpolateBackward's parameter checks (design doc 1.1, 1.3, 1.4,
// 3.7): every bad call returns its status and logs one line naming the
// operator and the offending values; the doc's zero-element boundary cases
// (3.6, 11-15).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "tests/three_interpolate_backward/three_interpolate_backward_test.h"

namespace mluop::three_interpolate_backward::test {
namespace {

// A valid float call on small shapes; each test breaks one thing.
struct Args {
  mluOpHandle_t handle = nullptr;
  std::vector<int> grad_output_dims{2, 8, 16}, indices_dims{2, 16, 3}, weights_dims{2, 16, 3},
      grad_features_dims{2, 8, 5};
  mluOpDataType_t grad_output_dtype = MLUOP_DTYPE_FLOAT, indices_dtype = MLUOP_DTYPE_INT32,
                  weights_dtype = MLUOP_DTYPE_FLOAT, grad_features_dtype = MLUOP_DTYPE_FLOAT;
  mluOpTensorLayout_t grad_output_layout = MLUOP_LAYOUT_ARRAY;
  bool null_desc[4] = {false, false, false, false};
  const void *grad_output = nullptr, *indices = nullptr, *weights = nullptr;
  void *grad_features = nullptr;
};

class ThreeInterpolateBackwardBadParam : public ::testing::Test {
 protected:
  // Runs `call` (unset pointers point at valid device buffers) and checks the
  // status and that exactly one line naming the operator and `what` was logged.
  void expect(Args call, mluOpStatus_t status, const std::string &what) {
    TensorDesc go(call.grad_output_layout, call.grad_output_dtype, call.grad_output_dims);
    TensorDesc idx(MLUOP_LAYOUT_ARRAY, call.indices_dtype, call.indices_dims);
    TensorDesc w(MLUOP_LAYOUT_ARRAY, call.weights_dtype, call.weights_dims);
    TensorDesc gf(MLUOP_LAYOUT_ARRAY, call.grad_features_dtype, call.grad_features_dims);
    const mluOpTensorDescriptor_t descs[4] = {go, idx, w, gf};
    auto desc = [&](int i) { return call.null_desc[i] ? nullptr : descs[i]; };
    auto or_buffer = [](auto p, auto &buffer) { return p != nullptr ? p : buffer.get(); };
    OpLogCapture log;
    const mluOpStatus_t got = mluOpThreeInterpolateBackward(
        call.handle, desc(0), or_buffer(call.grad_output, grad_output_), desc(1),
        or_buffer(call.indices, indices_), desc(2), or_buffer(call.weights, weights_), desc(3),
        or_buffer(call.grad_features, grad_features_));
    EXPECT_EQ(got, status) << mluOpGetErrorString(got);
    const std::string text = log.text();
    EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 1) << text;
    EXPECT_NE(text.find("mluOpThreeInterpolateBackward"), std::string::npos) << text;
    EXPECT_NE(text.find(what), std::string::npos) << "expected '" << what << "' in: " << text;
  }
  Args valid() {
    Args c;
    c.handle = handle_;
    return c;
  }

  Handle handle_;
  DeviceBuffer<float> grad_output_{2 * 8 * 16}, weights_{2 * 16 * 3}, grad_features_{2 * 8 * 5};
  DeviceBuffer<int32_t> indices_{2 * 16 * 3};
};

TEST_F(ThreeInterpolateBackwardBadParam, NullHandleAndDescriptors) {
  Args c = valid();
  c.handle = nullptr;
  expect(c, MLUOP_STATUS_BAD_PARAM, "handle is NULL");
  const char *names[4] = {"grad_output_desc", "indices_desc", "weights_desc", "grad_features_desc"};
  for (int i = 0; i < 4; ++i) {
    Args d = valid();
    d.null_desc[i] = true;
    expect(d, MLUOP_STATUS_BAD_PARAM, std::string(names[i]) + " is NULL");
  }
}

TEST_F(ThreeInterpolateBackwardBadParam, RankAndLayout) {
  Args c = valid();
  c.grad_output_dims = {2, 8, 16, 1};
  expect(c, MLUOP_STATUS_BAD_PARAM, "grad_output is [2,8,16,1] ARRAY float: must have 3 dims");
  c = valid();
  c.indices_dims = {32, 3};
  expect(c, MLUOP_STATUS_BAD_PARAM, "indices is [32,3] ARRAY int32: must have 3 dims");
  c = valid();
  c.weights_dims = {2, 48};
  expect(c, MLUOP_STATUS_BAD_PARAM, "weights is [2,48] ARRAY float: must have 3 dims");
  c = valid();
  c.grad_features_dims = {80};
  expect(c, MLUOP_STATUS_BAD_PARAM, "grad_features is [80] ARRAY float: must have 3 dims");
  c = valid();
  c.grad_output_layout = MLUOP_LAYOUT_NCHW;
  expect(c, MLUOP_STATUS_BAD_PARAM, "grad_output layout is NCHW, must be ARRAY");
}

TEST_F(ThreeInterpolateBackwardBadParam, Dtypes) {
  Args c = valid();
  c.weights_dtype = MLUOP_DTYPE_HALF;
  expect(c, MLUOP_STATUS_BAD_PARAM, "grad_output dtype is float and weights dtype is half");
  c = valid();
  c.indices_dtype = MLUOP_DTYPE_INT64;
  expect(c, MLUOP_STATUS_BAD_PARAM, "indices dtype is int64, must be int32");
  c = valid();
  c.grad_features_dtype = MLUOP_DTYPE_HALF;
  expect(c, MLUOP_STATUS_BAD_PARAM, "weights dtype is float and grad_features dtype is half");
  c = valid();
  c.grad_output_dtype = c.weights_dtype = c.grad_features_dtype = MLUOP_DTYPE_INT32;
  expect(c, MLUOP_STATUS_BAD_PARAM, "grad_output dtype is int32, must be half or float");
}

TEST_F(ThreeInterpolateBackwardBadParam, Shapes) {
  Args c = valid();
  c.indices_dims = c.weights_dims = {3, 16, 3};
  expect(c, MLUOP_STATUS_BAD_PARAM, "B must be equal");
  c = valid();
  c.weights_dims = {2, 16, 4};
  expect(c, MLUOP_STATUS_BAD_PARAM, "indices is [2,16,3] ARRAY int32 and weights is [2,16,4]");
  c = valid();
  c.indices_dims = c.weights_dims = {2, 16, 2};
  expect(c, MLUOP_STATUS_BAD_PARAM, "weights is [2,16,2] ARRAY float: last dim must be 3");
  c = valid();
  c.grad_features_dims = {2, 9, 5};
  expect(c, MLUOP_STATUS_BAD_PARAM, "B and C must be equal");
  c = valid();
  c.indices_dims = c.weights_dims = {2, 17, 3};
  expect(c, MLUOP_STATUS_BAD_PARAM, "N must be equal");
}

TEST_F(ThreeInterpolateBackwardBadParam, LargeTensorIsNotSupported) {
  Args c = valid();
  c.grad_output_dims = {1024, 1024, 2048};
  c.indices_dims = c.weights_dims = {1024, 2048, 3};
  c.grad_features_dims = {1024, 1024, 5};
  expect(c, MLUOP_STATUS_NOT_SUPPORTED, "2147483648 elements, must be fewer than 2^31");
}

TEST_F(ThreeInterpolateBackwardBadParam, Pointers) {
  int host_memory[4] = {};
  Args c = valid();
  c.grad_output = host_memory;
  expect(c, MLUOP_STATUS_BAD_PARAM, "grad_output = ");
  c = valid();
  c.indices = host_memory;
  expect(c, MLUOP_STATUS_BAD_PARAM, "indices = ");
  c = valid();
  c.weights = host_memory;
  expect(c, MLUOP_STATUS_BAD_PARAM, "weights = ");
  c = valid();
  c.grad_features = host_memory;
  expect(c, MLUOP_STATUS_BAD_PARAM, "grad_features = ");
  // Device memory too small for the tensor.
  c = valid();
  c.grad_output = grad_features_.get();
  expect(c, MLUOP_STATUS_BAD_PARAM, "holding 1024 bytes");
}

TEST_F(ThreeInterpolateBackwardBadParam, InPlaceIsNotSupported) {
  DeviceBuffer<float> shared(2 * 8 * 16);
  Args c = valid();
  c.grad_output = shared.get();
  c.grad_features = shared.get();
  expect(c, MLUOP_STATUS_BAD_PARAM, "grad_output and grad_features overlap");
}

// The doc's zero-element boundary cases 11, 12, 14, 15: B, C or N zero.
TEST_F(ThreeInterpolateBackwardBadParam, ZeroElementCases) {
  struct Case {
    std::vector<int> grad_output, indices, grad_features;
    const char *what;
  };
  const Case cases[] = {
      {{0, 128, 128}, {0, 128, 3}, {0, 128, 128}, "B, C and N must be non-zero"},  // 11
      {{16, 0, 128}, {16, 128, 3}, {16, 128, 0}, "B and C must be equal"},         // 12
      {{16, 128, 0}, {16, 0, 3}, {16, 128, 128}, "B, C and N must be non-zero"},   // 14
      {{0, 0, 0}, {0, 0, 3}, {0, 0, 0}, "B, C and N must be non-zero"},            // 15
  };
  for (const Case &k : cases) {
    Args c = valid();
    c.grad_output_dims = k.grad_output;
    c.indices_dims = c.weights_dims = k.indices;
    c.grad_features_dims = k.grad_features;
    expect(c, MLUOP_STATUS_BAD_PARAM, k.what);
  }
}

// The doc's case 13, M = 0: SUCCESS and nothing written (mmcv and the released
// mlu-ops; the doc's table says BAD_PARAM).
TEST(ThreeInterpolateBackwardZeroM, Case13Succeeds) {
  const Call<float> call(random_problem<float>({16, 128, 128, 0}, 13, 0, 0));
  EXPECT_EQ(call.status, MLUOP_STATUS_SUCCESS);
  EXPECT_TRUE(call.device.guards_intact());
}

}  // namespace
}  // namespace mluop::three_interpolate_backward::test
