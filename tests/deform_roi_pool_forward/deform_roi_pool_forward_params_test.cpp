// mluOpDeformRoiPoolForward on bad input: every check of the design doc's 3.8
// and of its 1.1/1.3/1.4 tables fails with one log line naming the operator and
// the offending values; zero elements follow 1.1; data out of range (batch
// indices, boxes off the map) neither faults nor writes outside the output.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <memory>
#include <sstream>
#include <string>
#include <vector>


#include "runtime/logging.h"
#include "tests/deform_roi_pool_forward/deform_roi_pool_forward_test.h"

namespace mluop::deform_roi_pool_forward::test {
namespace {


constexpr int kB = 2, kH = 6, kW = 7, kC = 8, kR = 3, kPH = 2, kPW = 3;

// A valid call (input [2,6,7,8], rois [3,5], offset [3,2,2,3], output
// [3,2,3,8], float) that each test breaks in one place.
class DeformRoiPoolForwardBadParam : public ::testing::Test {
 protected:
  static std::unique_ptr<TensorDesc> desc(mluOpTensorLayout_t layout, mluOpDataType_t dtype,
                                          std::vector<int> dims) {
    return std::make_unique<TensorDesc>(layout, dtype, dims);
  }
  mluOpStatus_t call() {
    return mluOpDeformRoiPoolForward(handle_arg, input_desc, input, rois_desc, rois, offset_desc,
                                     offset, pooled_height, pooled_width, 0.5f, 2, 0.1f,
                                     output_desc, output);
  }
  // The call fails with `status` and one log line that contains every fragment.
  void expect_rejected(mluOpStatus_t status, std::vector<std::string> fragments) {
    OpLogCapture log;
    EXPECT_EQ(call(), status);
    const auto lines = log.lines();
    ASSERT_EQ(lines.size(), 1u);
    EXPECT_NE(lines[0].find("[mluOpDeformRoiPoolForward]"), std::string::npos) << lines[0];
    for (const auto &f : fragments) EXPECT_NE(lines[0].find(f), std::string::npos) << lines[0];
  }

  Handle handle;
  TensorDesc input_d{MLUOP_LAYOUT_NHWC, MLUOP_DTYPE_FLOAT, {kB, kH, kW, kC}};
  TensorDesc rois_d{MLUOP_LAYOUT_ARRAY, MLUOP_DTYPE_FLOAT, {kR, 5}};
  TensorDesc offset_d{MLUOP_LAYOUT_ARRAY, MLUOP_DTYPE_FLOAT, {kR, 2, kPH, kPW}};
  TensorDesc output_d{MLUOP_LAYOUT_NHWC, MLUOP_DTYPE_FLOAT, {kR, kPH, kPW, kC}};
  DeviceBuffer<float> input_buf{std::vector<float>(kB * kH * kW * kC, 1.0f)};
  DeviceBuffer<float> rois_buf{std::vector<float>{0, 0, 0, 8, 8, 1, 2, 2, 10, 12, 0, 4, 4, 6, 6}};
  DeviceBuffer<float> offset_buf{std::vector<float>(kR * 2 * kPH * kPW, 0.1f)};
  DeviceBuffer<float> output_buf{size_t{kR} * kPH * kPW * kC};

  mluOpHandle_t handle_arg = handle;
  mluOpTensorDescriptor_t input_desc = input_d, rois_desc = rois_d, offset_desc = offset_d,
                          output_desc = output_d;
  const void *input = input_buf.get(), *rois = rois_buf.get(), *offset = offset_buf.get();
  void *output = output_buf.get();
  int pooled_height = kPH, pooled_width = kPW;
};

TEST_F(DeformRoiPoolForwardBadParam, ValidCallSucceeds) { EXPECT_EQ(call(), MLUOP_STATUS_SUCCESS); }

TEST_F(DeformRoiPoolForwardBadParam, NullHandleAndDescriptors) {
  handle_arg = nullptr;
  expect_rejected(MLUOP_STATUS_BAD_PARAM, {"handle"});
  handle_arg = handle;
  input_desc = nullptr;
  expect_rejected(MLUOP_STATUS_BAD_PARAM, {"input_desc"});
  input_desc = input_d;
  rois_desc = nullptr;
  expect_rejected(MLUOP_STATUS_BAD_PARAM, {"rois_desc"});
  rois_desc = rois_d;
  output_desc = nullptr;
  expect_rejected(MLUOP_STATUS_BAD_PARAM, {"output_desc"});
}

TEST_F(DeformRoiPoolForwardBadParam, Ranks) {
  auto in3 = desc(MLUOP_LAYOUT_NHWC, MLUOP_DTYPE_FLOAT, {kB, kH, kW * kC});
  input_desc = *in3;
  expect_rejected(MLUOP_STATUS_BAD_PARAM, {"input rank", "3"});
  input_desc = input_d;
  auto out5 = desc(MLUOP_LAYOUT_NHWC, MLUOP_DTYPE_FLOAT, {kR, kPH, kPW, kC, 1});
  output_desc = *out5;
  expect_rejected(MLUOP_STATUS_BAD_PARAM, {"output rank", "5"});
  output_desc = output_d;
  auto rois3 = desc(MLUOP_LAYOUT_ARRAY, MLUOP_DTYPE_FLOAT, {kR, 5, 1});
  rois_desc = *rois3;
  expect_rejected(MLUOP_STATUS_BAD_PARAM, {"rois rank", "3"});
}

TEST_F(DeformRoiPoolForwardBadParam, Layouts) {
  auto in = desc(MLUOP_LAYOUT_NCHW, MLUOP_DTYPE_FLOAT, {kB, kH, kW, kC});
  input_desc = *in;
  expect_rejected(MLUOP_STATUS_BAD_PARAM, {"input layout", "NCHW"});
  input_desc = input_d;
  auto out = desc(MLUOP_LAYOUT_ARRAY, MLUOP_DTYPE_FLOAT, {kR, kPH, kPW, kC});
  output_desc = *out;
  expect_rejected(MLUOP_STATUS_BAD_PARAM, {"output layout", "ARRAY"});
}

TEST_F(DeformRoiPoolForwardBadParam, Dtypes) {
  auto in = desc(MLUOP_LAYOUT_NHWC, MLUOP_DTYPE_INT32, {kB, kH, kW, kC});
  input_desc = *in;
  expect_rejected(MLUOP_STATUS_BAD_PARAM, {"input dtype", "int32"});
  input_desc = input_d;
  auto rois_h = desc(MLUOP_LAYOUT_ARRAY, MLUOP_DTYPE_HALF, {kR, 5});
  rois_desc = *rois_h;
  expect_rejected(MLUOP_STATUS_BAD_PARAM, {"rois dtype", "half"});
  rois_desc = rois_d;
  auto out_h = desc(MLUOP_LAYOUT_NHWC, MLUOP_DTYPE_HALF, {kR, kPH, kPW, kC});
  output_desc = *out_h;
  expect_rejected(MLUOP_STATUS_BAD_PARAM, {"output dtype", "half"});
}

TEST_F(DeformRoiPoolForwardBadParam, RoisShape) {
  auto rois4 = desc(MLUOP_LAYOUT_ARRAY, MLUOP_DTYPE_FLOAT, {kR, 4});
  rois_desc = *rois4;
  expect_rejected(MLUOP_STATUS_BAD_PARAM, {"rois dims[1]", "4"});
  auto rois_more = desc(MLUOP_LAYOUT_ARRAY, MLUOP_DTYPE_FLOAT, {kR + 1, 5});
  rois_desc = *rois_more;
  offset_desc = nullptr, offset = nullptr;
  expect_rejected(MLUOP_STATUS_BAD_PARAM, {"rois number", "4", "3"});
}

TEST_F(DeformRoiPoolForwardBadParam, PooledSizes) {
  pooled_height = 0;
  expect_rejected(MLUOP_STATUS_BAD_PARAM, {"pooled_height", "0"});
  pooled_height = kPH, pooled_width = -1;
  expect_rejected(MLUOP_STATUS_BAD_PARAM, {"pooled_width", "-1"});
  pooled_width = kPW;
  auto out_h = desc(MLUOP_LAYOUT_NHWC, MLUOP_DTYPE_FLOAT, {kR, kPH + 1, kPW, kC});
  output_desc = *out_h;
  expect_rejected(MLUOP_STATUS_BAD_PARAM, {"output dims[1]", "3", "2"});
  auto out_w = desc(MLUOP_LAYOUT_NHWC, MLUOP_DTYPE_FLOAT, {kR, kPH, kPW + 2, kC});
  output_desc = *out_w;
  expect_rejected(MLUOP_STATUS_BAD_PARAM, {"output dims[2]", "5", "3"});
}

TEST_F(DeformRoiPoolForwardBadParam, Channels) {
  auto out = desc(MLUOP_LAYOUT_NHWC, MLUOP_DTYPE_FLOAT, {kR, kPH, kPW, kC + 1});
  output_desc = *out;
  expect_rejected(MLUOP_STATUS_BAD_PARAM, {"channels", "8", "9"});
}

TEST_F(DeformRoiPoolForwardBadParam, Offset) {
  auto half = desc(MLUOP_LAYOUT_ARRAY, MLUOP_DTYPE_HALF, {kR, 2, kPH, kPW});
  offset_desc = *half;
  expect_rejected(MLUOP_STATUS_BAD_PARAM, {"offset dtype", "half"});
  auto rank3 = desc(MLUOP_LAYOUT_ARRAY, MLUOP_DTYPE_FLOAT, {kR, 2, kPH * kPW});
  offset_desc = *rank3;
  expect_rejected(MLUOP_STATUS_BAD_PARAM, {"offset rank", "3"});
  const std::vector<std::pair<std::vector<int>, std::string>> dims = {
      {{kR + 1, 2, kPH, kPW}, "offset dims[0]"},
      {{kR, 3, kPH, kPW}, "offset dims[1]"},
      {{kR, 2, kPH + 1, kPW}, "offset dims[2]"},
      {{kR, 2, kPH, kPW - 1}, "offset dims[3]"}};
  for (const auto &[shape, what] : dims) {
    auto d = desc(MLUOP_LAYOUT_ARRAY, MLUOP_DTYPE_FLOAT, shape);
    offset_desc = *d;
    expect_rejected(MLUOP_STATUS_BAD_PARAM, {what});
  }
  offset_desc = offset_d, offset = nullptr;
  expect_rejected(MLUOP_STATUS_BAD_PARAM, {"offset_desc is set but offset is NULL"});
  offset_desc = nullptr, offset = offset_buf.get();
  expect_rejected(MLUOP_STATUS_BAD_PARAM, {"offset_desc is NULL but offset is set"});
}

// Tensors of 2^31 elements or more are NOT_SUPPORTED (mlu-ops' TENSOR_NUM_CHECK).
TEST_F(DeformRoiPoolForwardBadParam, LargeTensors) {
  auto in = desc(MLUOP_LAYOUT_NHWC, MLUOP_DTYPE_FLOAT, {2, 32768, 32768, 1});
  auto out = desc(MLUOP_LAYOUT_NHWC, MLUOP_DTYPE_FLOAT, {kR, kPH, kPW, 1});
  input_desc = *in, output_desc = *out;
  expect_rejected(MLUOP_STATUS_NOT_SUPPORTED, {"2147483648", "limit is 2^31"});
  auto out_big = desc(MLUOP_LAYOUT_NHWC, MLUOP_DTYPE_FLOAT, {65536, 128, 128, 2});
  auto in_2 = desc(MLUOP_LAYOUT_NHWC, MLUOP_DTYPE_FLOAT, {1, 1, 1, 2});
  auto rois_big = desc(MLUOP_LAYOUT_ARRAY, MLUOP_DTYPE_FLOAT, {65536, 5});
  auto offset_big = desc(MLUOP_LAYOUT_ARRAY, MLUOP_DTYPE_FLOAT, {65536, 2, 128, 128});
  input_desc = *in_2, rois_desc = *rois_big, output_desc = *out_big, offset_desc = *offset_big;
  pooled_height = pooled_width = 128;
  expect_rejected(MLUOP_STATUS_NOT_SUPPORTED, {"offset has 2147483648 elements"});
  offset_desc = nullptr, offset = nullptr;
  expect_rejected(MLUOP_STATUS_NOT_SUPPORTED, {"2147483648"});
}

// The kernel's strided copies take int byte strides: a 2 GB input row is refused.
TEST_F(DeformRoiPoolForwardBadParam, RowTooLongForStridedCopies) {
  auto in = desc(MLUOP_LAYOUT_NHWC, MLUOP_DTYPE_FLOAT, {1, 1, 2, 1 << 28});
  auto out = desc(MLUOP_LAYOUT_NHWC, MLUOP_DTYPE_FLOAT, {kR, 1, 1, 1 << 28});
  input_desc = *in, output_desc = *out;
  offset_desc = nullptr, offset = nullptr;
  pooled_height = pooled_width = 1;
  expect_rejected(MLUOP_STATUS_NOT_SUPPORTED, {"input row (2147483648 bytes)"});
}

// Zero elements (1.1): empty batch, rois or channels are BAD_PARAM.
TEST_F(DeformRoiPoolForwardBadParam, ZeroElements) {
  auto in0 = desc(MLUOP_LAYOUT_NHWC, MLUOP_DTYPE_FLOAT, {0, kH, kW, kC});
  input_desc = *in0;
  expect_rejected(MLUOP_STATUS_BAD_PARAM, {"input batches is 0"});
  input_desc = input_d;
  auto rois0 = desc(MLUOP_LAYOUT_ARRAY, MLUOP_DTYPE_FLOAT, {0, 5});
  auto out0 = desc(MLUOP_LAYOUT_NHWC, MLUOP_DTYPE_FLOAT, {0, kPH, kPW, kC});
  rois_desc = *rois0, output_desc = *out0, offset_desc = nullptr, offset = nullptr;
  expect_rejected(MLUOP_STATUS_BAD_PARAM, {"rois has no elements", "[0,5]"});
  rois_desc = rois_d;
  auto in_c0 = desc(MLUOP_LAYOUT_NHWC, MLUOP_DTYPE_FLOAT, {kB, kH, kW, 0});
  auto out_c0 = desc(MLUOP_LAYOUT_NHWC, MLUOP_DTYPE_FLOAT, {kR, kPH, kPW, 0});
  input_desc = *in_c0, output_desc = *out_c0;
  expect_rejected(MLUOP_STATUS_BAD_PARAM, {"output has no elements", "[3,2,3,0]"});
}

TEST_F(DeformRoiPoolForwardBadParam, Pointers) {
  input = nullptr;
  expect_rejected(MLUOP_STATUS_BAD_PARAM, {"input = "});
  input = input_buf.get();
  std::vector<float> host_rois(kR * 5);
  rois = host_rois.data();  // host memory, not from cnrtMalloc
  expect_rejected(MLUOP_STATUS_BAD_PARAM, {"rois = ", "60 bytes"});
  rois = rois_buf.get();
  DeviceBuffer<float> small(kR * kPH * kPW * kC - 1);
  output = small.get();
  expect_rejected(MLUOP_STATUS_BAD_PARAM, {"output = ", "576 bytes"});
  output = output_buf.get();
  offset = static_cast<const float *>(offset_buf.get()) + 1;  // runs past its allocation
  expect_rejected(MLUOP_STATUS_BAD_PARAM, {"offset = ", "144 bytes"});
}

// An empty feature map (H or W 0) runs normally (1.1): no sample is on the map,
// every output is 0, and the input is never read (its pointer may be NULL).
TEST(DeformRoiPoolForward, EmptyFeatureMapGivesZeros) {
  for (const std::vector<int> dims :
       {std::vector<int>{2, 0, 5, 16}, std::vector<int>{2, 5, 0, 16}}) {
    Handle handle;
    TensorDesc in(MLUOP_LAYOUT_NHWC, MLUOP_DTYPE_FLOAT, dims);
    TensorDesc rois_d(MLUOP_LAYOUT_ARRAY, MLUOP_DTYPE_FLOAT, {2, 5});
    TensorDesc out_d(MLUOP_LAYOUT_NHWC, MLUOP_DTYPE_FLOAT, {2, 3, 3, 16});
    DeviceBuffer<float> rois(std::vector<float>{0, -1, -1, 1, 1, 1, 0, 0, 4, 4});
    DeviceBuffer<float> out(std::vector<float>(2 * 3 * 3 * 16, 7.0f));
    ASSERT_EQ(mluOpDeformRoiPoolForward(handle, in, nullptr, rois_d, rois.get(), nullptr, nullptr,
                                        3, 3, 1.0f, 2, 0.1f, out_d, out.get()),
              MLUOP_STATUS_SUCCESS)
        << mlusimGetLastError();
    for (float v : out.download()) ASSERT_EQ(v, 0.0f);
  }
}

// Batch indices that do not truncate into [0, B) (negative, B, huge, NaN) give
// zeros without a read; -0.5 and B - 0.5 truncate to 0 and B - 1 as in mmcv.
// The output sits between guard bands that must come back untouched.
TEST(DeformRoiPoolForward, BatchIndexOutOfRangeGivesZerosAndNoStrayWrites) {
  for (mluOpDataType_t dtype : {MLUOP_DTYPE_FLOAT, MLUOP_DTYPE_HALF}) {
    Problem p;
    p.dtype = dtype;
    p.batches = 2, p.height = 8, p.width = 9, p.channels = 40;
    p.pooled_height = 3, p.pooled_width = 2, p.sampling_ratio = 2, p.spatial_scale = 1.0f;
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const std::vector<float> batches = {-1, 2, 1e9f, nan, -0.5f, 1.5f, 1, -1e9f};
    p.num_rois = static_cast<int>(batches.size());
    Random rng(11);
    p.input = rng.floats(p.input_count(), 0.5f, 1.5f);  // every pooled value of a read is > 0
    for (float b : batches) p.rois.insert(p.rois.end(), {b, 1, 1, 7, 6});
    p.offset = rng.floats(p.offset_count(), -0.2f, 0.2f);
    cases::round_for_dtype(p);

    const size_t guard = 64, n = p.output_count();
    auto check = [&](auto zero) {
      using T = decltype(zero);
      Handle handle;
      const T sentinel = static_cast<T>(-12345.0f);
      DeviceBuffer<T> framed(std::vector<T>(n + 2 * guard, sentinel));
      TensorDesc out_d(MLUOP_LAYOUT_NHWC, dtype, {p.num_rois, 3, 2, p.channels});
      TensorDesc in_d(MLUOP_LAYOUT_NHWC, dtype, {2, 8, 9, 40});
      TensorDesc rois_d(MLUOP_LAYOUT_ARRAY, dtype, {p.num_rois, 5});
      TensorDesc off_d(MLUOP_LAYOUT_ARRAY, dtype, {p.num_rois, 2, 3, 2});
      DeviceBuffer<T> in(std::vector<T>(p.input.begin(), p.input.end()));
      DeviceBuffer<T> rois(std::vector<T>(p.rois.begin(), p.rois.end()));
      DeviceBuffer<T> off(std::vector<T>(p.offset.begin(), p.offset.end()));
      ASSERT_EQ(mluOpDeformRoiPoolForward(handle, in_d, in.get(), rois_d, rois.get(), off_d,
                                          off.get(), 3, 2, 1.0f, 2, 0.1f, out_d,
                                          framed.get() + guard),
                MLUOP_STATUS_SUCCESS)
          << mlusimGetLastError();
      const auto all = framed.download();
      for (size_t i = 0; i < guard; ++i) {
        ASSERT_EQ(all[i], sentinel) << "guard before output, element " << i;
        ASSERT_EQ(all[guard + n + i], sentinel) << "guard after output, element " << i;
      }
      const std::vector<double> got(all.begin() + guard, all.begin() + guard + n);
      const auto want = p.expected();
      const size_t per_roi = n / p.num_rois;
      for (int r = 0; r < p.num_rois; ++r) {
        const bool readable = r >= 4 && r <= 6;  // -0.5, 1.5 and 1
        for (size_t i = r * per_roi; i < (r + 1) * per_roi; ++i) {
          if (readable) {
            ASSERT_GT(want[i], 0.0) << "roi " << r;
            ASSERT_NEAR(got[i], want[i], 3e-3 * want[i]) << "roi " << r << " element " << i;
          } else {
            ASSERT_EQ(got[i], 0.0) << "roi " << r << " element " << i;
          }
        }
      }
    };
    if (dtype == MLUOP_DTYPE_HALF)
      check(_Float16{});
    else
      check(0.0f);
  }
}

// Boxes wholly off the map give zeros, boxes across its border read only the
// border pixels mmcv's rule allows; both against the reference.
TEST(DeformRoiPoolForward, BoxesOffTheMap) {
  Problem p;
  p.batches = 1, p.height = 5, p.width = 6, p.channels = 24;
  p.pooled_height = 2, p.pooled_width = 2, p.sampling_ratio = 0, p.with_offset = false;
  p.rois = {0, -40, -40, -10, -10,  // wholly above-left: zeros
            0, 30, 30, 60, 60,      // wholly below-right: zeros
            0, -3, -3, 3, 3,        // across the top-left corner
            0, 4, 3, 7, 6.5f,       // across the bottom-right corner
            0, -1.5f, 1, 7.5f, 2};  // wider than the map
  p.num_rois = 5;
  Random rng(3);
  p.input = rng.floats(p.input_count(), 0.5f, 1.5f);
  const auto run = harness::run(p);
  ASSERT_EQ(run.status, MLUOP_STATUS_SUCCESS) << mlusimGetLastError();
  const auto want = p.expected();
  const size_t per_roi = 2 * 2 * 24;
  for (size_t i = 0; i < 2 * per_roi; ++i) ASSERT_EQ(run.output[i], 0.0) << i;
  for (size_t i = 2 * per_roi; i < run.output.size(); ++i) {
    ASSERT_GT(want[i], 0.0) << i;
    ASSERT_NEAR(run.output[i], want[i], 1e-5 * want[i]) << i;
  }
}

}  // namespace
}  // namespace mluop::deform_roi_pool_forward::test
