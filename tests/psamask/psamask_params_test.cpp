// psamask's parameter checks: every check of the design doc (1.3, 1.4, 3.4)
// and of mlu-ops' host code returns its status with one log line naming the
// operator and the offending values, launches nothing and writes nothing.
#include <gtest/gtest.h>


#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "runtime/logging.h"
#include "tests/psamask/psamask_test.h"

namespace mluop::psamask::test {
namespace {

// One call with every argument spelled out; by default a valid forward
// COLLECT call on [2, 3, 4] with a 3 x 5 mask.
struct Call {
  bool backward = false;
  bool null_handle = false;
  int psa_type = 0;
  int h_mask = 3, w_mask = 5;
  std::vector<int> in_dims, out_dims;
  mluOpTensorLayout_t in_layout = MLUOP_LAYOUT_NHWC, out_layout = MLUOP_LAYOUT_NHWC;
  mluOpDataType_t in_dtype = MLUOP_DTYPE_FLOAT, out_dtype = MLUOP_DTYPE_FLOAT;
  bool null_in_desc = false, null_out_desc = false;
  // Pointers: device buffers of the right size unless replaced.
  const void *in_ptr_override = nullptr;
  void *out_ptr_override = nullptr;
  bool use_in_override = false, use_out_override = false;
};

Call valid_call(bool backward) {
  Call c;
  c.backward = backward;
  const std::vector<int> mask = {2, 3, 4, 15}, feature = {2, 3, 4, 12};
  c.in_dims = backward ? feature : mask;
  c.out_dims = backward ? mask : feature;
  return c;
}

struct Result {
  mluOpStatus_t status;
  std::vector<std::string> log;
  bool output_untouched;
  int launches;
};

size_t count(const std::vector<int> &dims) {
  size_t n = 1;
  for (int d : dims) n *= static_cast<size_t>(d);
  return n;
}

Result invoke(const Call &c) {
  Handle handle;
  TensorDesc in_desc(c.in_layout, c.in_dtype, c.in_dims);
  TensorDesc out_desc(c.out_layout, c.out_dtype, c.out_dims);
  // Small buffers when the shapes are absurd: the checks must not reach them.
  const size_t in_n = std::min<size_t>(count(c.in_dims), 1 << 20);
  const size_t out_n = std::min<size_t>(count(c.out_dims), 1 << 20);
  DeviceBuffer<float> in(std::vector<float>(in_n, 1.0f));
  DeviceBuffer<float> out(std::vector<float>(out_n, 7.0f));
  const void *in_ptr = c.use_in_override ? c.in_ptr_override : in.get();
  void *out_ptr = c.use_out_override ? c.out_ptr_override : out.get();
  mluOpHandle_t h = c.null_handle ? nullptr : static_cast<mluOpHandle_t>(handle);
  mluOpTensorDescriptor_t id = c.null_in_desc ? nullptr : static_cast<mluOpTensorDescriptor_t>(in_desc);
  mluOpTensorDescriptor_t od = c.null_out_desc ? nullptr : static_cast<mluOpTensorDescriptor_t>(out_desc);
  OpLogCapture capture;
  const mluOpStatus_t status =
      c.backward ? mluOpPsamaskBackward(h, c.psa_type, id, in_ptr, c.h_mask, c.w_mask, od, out_ptr)
                 : mluOpPsamaskForward(h, c.psa_type, id, in_ptr, c.h_mask, c.w_mask, od, out_ptr);
  const auto after = out.download();
  const bool untouched = std::all_of(after.begin(), after.end(), [](float v) { return v == 7.0f; });
  return {status, capture.lines(), untouched, handle.last_op_report().launches};
}

// Expects `status`, exactly one log line naming the operator and containing
// every fragment, no launch and an untouched output.
void expect_rejected(const Call &c, mluOpStatus_t status, const std::vector<std::string> &fragments) {
  const Result r = invoke(c);
  EXPECT_EQ(r.status, status);
  ASSERT_EQ(r.log.size(), 1u);
  const std::string &line = r.log[0];
  EXPECT_NE(line.find(c.backward ? "mluOpPsamaskBackward" : "mluOpPsamaskForward"),
            std::string::npos)
      << line;
  for (const std::string &f : fragments) EXPECT_NE(line.find(f), std::string::npos) << line;
  EXPECT_EQ(r.launches, 0);
  EXPECT_TRUE(r.output_untouched);
}

class PsamaskParams : public ::testing::TestWithParam<bool> {
 protected:
  bool backward() const { return GetParam(); }
  Call call() const { return valid_call(backward()); }
  std::string in() const { return backward() ? "dy" : "x"; }
  std::string out() const { return backward() ? "dx" : "y"; }
  // The tensor with h_mask * w_mask channels and the one with H * W channels.
  std::vector<int> &mask_dims(Call &c) const { return backward() ? c.out_dims : c.in_dims; }
  std::vector<int> &feature_dims(Call &c) const { return backward() ? c.in_dims : c.out_dims; }
};

TEST_P(PsamaskParams, ValidCallSucceeds) {
  const Result r = invoke(call());
  EXPECT_EQ(r.status, MLUOP_STATUS_SUCCESS);
  EXPECT_TRUE(r.log.empty());
  EXPECT_EQ(r.launches, 1);
}

TEST_P(PsamaskParams, NullHandleAndDescriptors) {
  Call c = call();
  c.null_handle = true;
  expect_rejected(c, MLUOP_STATUS_BAD_PARAM, {"handle is NULL"});
  c = call();
  c.null_in_desc = true;
  expect_rejected(c, MLUOP_STATUS_BAD_PARAM, {in() + "_desc is NULL"});
  c = call();
  c.null_out_desc = true;
  expect_rejected(c, MLUOP_STATUS_BAD_PARAM, {out() + "_desc is NULL"});
}

TEST_P(PsamaskParams, PsaTypeMustBeCollectOrDistribute) {
  for (int type : {2, -1}) {
    Call c = call();
    c.psa_type = type;
    expect_rejected(c, MLUOP_STATUS_BAD_PARAM, {"psa_type is " + std::to_string(type)});
  }
}

TEST_P(PsamaskParams, RankLayoutDtype) {
  Call c = call();
  c.in_dims = {2, 3, 4 * (backward() ? 12 : 15)};
  expect_rejected(c, MLUOP_STATUS_BAD_PARAM, {in() + " is [2,3,", "4 dims"});
  c = call();
  c.out_dims.push_back(1);
  expect_rejected(c, MLUOP_STATUS_BAD_PARAM, {out() + " is [", "4 dims"});
  c = call();
  c.in_layout = MLUOP_LAYOUT_NCHW;
  expect_rejected(c, MLUOP_STATUS_BAD_PARAM, {in() + " layout is NCHW"});
  c = call();
  c.out_layout = MLUOP_LAYOUT_ARRAY;
  expect_rejected(c, MLUOP_STATUS_BAD_PARAM, {out() + " layout is ARRAY"});
  c = call();
  c.in_dtype = MLUOP_DTYPE_HALF;
  expect_rejected(c, MLUOP_STATUS_BAD_PARAM, {in() + " dtype is half"});
  c = call();
  c.out_dtype = MLUOP_DTYPE_INT32;
  expect_rejected(c, MLUOP_STATUS_BAD_PARAM, {out() + " dtype is int32"});
}

TEST_P(PsamaskParams, NHWMustMatch) {
  for (int axis = 0; axis < 3; ++axis) {
    Call c = call();
    c.out_dims[axis] += 1;
    if (axis > 0 && !backward()) c.out_dims[3] = c.out_dims[1] * c.out_dims[2];
    expect_rejected(c, MLUOP_STATUS_BAD_PARAM, {"N, H, W must be equal"});
  }
}

TEST_P(PsamaskParams, MaskSizes) {
  Call c = call();
  c.h_mask = -3;
  c.w_mask = -5;  // the product still matches the 15 channels
  expect_rejected(c, MLUOP_STATUS_BAD_PARAM, {"h_mask = -3, w_mask = -5"});
  c = call();
  c.h_mask = 0;
  expect_rejected(c, MLUOP_STATUS_BAD_PARAM, {"h_mask = 0"});
  c = call();
  c.w_mask = 4;
  expect_rejected(c, MLUOP_STATUS_BAD_PARAM, {"has 15 channels", "h_mask * w_mask = 3 * 4"});
  c = call();
  mask_dims(c)[3] = 16;
  expect_rejected(c, MLUOP_STATUS_BAD_PARAM, {"has 16 channels", "h_mask * w_mask = 3 * 5"});
  c = call();  // a product that overflows int must not wrap onto the channel count
  c.h_mask = 65536;
  c.w_mask = 65536;
  expect_rejected(c, MLUOP_STATUS_BAD_PARAM, {"h_mask * w_mask = 65536 * 65536"});
}

TEST_P(PsamaskParams, FeatureChannelsMustBeHW) {
  Call c = call();
  feature_dims(c)[3] = 13;
  expect_rejected(c, MLUOP_STATUS_BAD_PARAM, {"has 13 channels", "H * W = 3 * 4"});
}

TEST_P(PsamaskParams, LargeTensors) {
  Call c = call();  // 2^31 elements
  mask_dims(c) = {1 << 27, 1, 1, 16};
  feature_dims(c) = {1 << 27, 1, 1, 1};
  c.h_mask = c.w_mask = 4;
  expect_rejected(c, MLUOP_STATUS_BAD_PARAM, {"must be fewer than 2^31"});
  c = call();  // a product that wraps to 0 in 64 bits
  c.in_dims = {1 << 30, 1 << 30, 1 << 30, 1 << 30};
  expect_rejected(c, MLUOP_STATUS_BAD_PARAM, {"must be fewer than 2^31"});
}

TEST_P(PsamaskParams, DataPointers) {
  Call c = call();
  c.use_in_override = true;
  expect_rejected(c, MLUOP_STATUS_BAD_PARAM, {"is not device memory"});
  c = call();
  c.use_out_override = true;
  expect_rejected(c, MLUOP_STATUS_BAD_PARAM, {"is not device memory"});
  std::vector<float> host(1024);
  c = call();
  c.use_in_override = true;
  c.in_ptr_override = host.data();
  expect_rejected(c, MLUOP_STATUS_BAD_PARAM, {"is not device memory"});
  DeviceBuffer<float> small(10);
  c = call();
  c.use_out_override = true;
  c.out_ptr_override = small.get();
  expect_rejected(c, MLUOP_STATUS_BAD_PARAM, {"is not device memory", "holding"});
}

TEST_P(PsamaskParams, InPlaceIsRejected) {
  Call c = call();
  DeviceBuffer<float> shared(count(c.in_dims) + count(c.out_dims));
  c.use_in_override = c.use_out_override = true;
  c.in_ptr_override = shared.get();
  c.out_ptr_override = shared.get() + 4;
  expect_rejected(c, MLUOP_STATUS_BAD_PARAM, {"overlap"});
}

TEST_P(PsamaskParams, ZeroElementsSucceedWithoutLaunch) {
  for (int axis = 0; axis < 3; ++axis) {
    Call c = call();
    c.in_dims[axis] = c.out_dims[axis] = 0;
    if (axis > 0) feature_dims(c)[3] = 0;
    c.use_in_override = c.use_out_override = true;  // null pointers are fine: nothing is read
    const Result r = invoke(c);
    EXPECT_EQ(r.status, MLUOP_STATUS_SUCCESS);
    EXPECT_TRUE(r.log.empty());
    EXPECT_EQ(r.launches, 0);
  }
}

// One point's mask row plus its feature row(s) must fit NRAM.
TEST_P(PsamaskParams, PointTooLargeForNram) {
  Call c = call();  // 450 x 450 mask cells: 810 KB for one point
  mask_dims(c) = {1, 1, 1, 450 * 450};
  feature_dims(c) = {1, 1, 1, 1};
  c.h_mask = c.w_mask = 450;
  expect_rejected(c, MLUOP_STATUS_NOT_SUPPORTED, {"one point needs", "too large"});
}

// DISTRIBUTE needs two transposable feature tiles of 16 points: on 16 KB of
// NRAM a 12 x 12 feature map is too much for it but not for COLLECT.
TEST_P(PsamaskParams, DistributeNeedsMoreNramThanCollect) {
  ScopedDevice device(small_device(2, 16));
  Call c = call();
  mask_dims(c) = {1, 12, 12, 9};
  feature_dims(c) = {1, 12, 12, 144};
  c.h_mask = c.w_mask = 3;
  EXPECT_EQ(invoke(c).status, MLUOP_STATUS_SUCCESS);
  c.psa_type = 1;
  expect_rejected(c, MLUOP_STATUS_NOT_SUPPORTED, {"one point needs 18560 bytes"});
}

INSTANTIATE_TEST_SUITE_P(Psamask, PsamaskParams, ::testing::Bool(),
                         [](const ::testing::TestParamInfo<bool> &info) {
                           return info.param ? "Backward" : "Forward";
                         });

}  // namespace
}  // namespace mluop::psamask::test
