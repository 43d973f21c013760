// mluOpDeformRoiPoolForward refuses an output that shares bytes with an input
// (the kernel would read what it already overwrote): BAD_PARAM and one log
// line naming the two tensors, as the other operators do.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/deform_roi_pool_forward/deform_roi_pool_forward_test.h"

namespace mluop::deform_roi_pool_forward::test {
namespace {

constexpr int kB = 1, kH = 4, kW = 4, kC = 8, kR = 2, kPH = 2, kPW = 2;
constexpr size_t kInput = kB * kH * kW * kC, kRois = kR * 5, kOffset = kR * 2 * kPH * kPW,
                 kOutput = kR * kPH * kPW * kC;

class DeformRoiPoolForwardAliasing : public ::testing::Test {
 protected:
  // One allocation big enough for every tensor, so overlapping pointers are
  // all valid device memory and only the overlap is wrong.
  float *at(size_t offset_floats) { return arena_.get() + offset_floats; }

  mluOpStatus_t call(const float *input, const float *rois, const float *offset, float *output,
                     std::vector<std::string> *log_lines) {
    OpLogCapture log;
    const mluOpStatus_t status = mluOpDeformRoiPoolForward(
        handle_, input_d_, input, rois_d_, rois, offset_d_, offset, kPH, kPW, 1.0f, 1, 0.1f,
        output_d_, output);
    *log_lines = log.lines();
    return status;
  }

  void expect_refused(const float *input, const float *rois, const float *offset, float *output,
                      const std::string &tensor) {
    std::vector<std::string> lines;
    EXPECT_EQ(call(input, rois, offset, output, &lines), MLUOP_STATUS_BAD_PARAM);
    ASSERT_EQ(lines.size(), 1u);
    EXPECT_NE(lines[0].find("[mluOpDeformRoiPoolForward]"), std::string::npos) << lines[0];
    EXPECT_NE(lines[0].find(tensor + " and output overlap"), std::string::npos) << lines[0];
  }

  Handle handle_;
  TensorDesc input_d_{MLUOP_LAYOUT_NHWC, MLUOP_DTYPE_FLOAT, {kB, kH, kW, kC}};
  TensorDesc rois_d_{MLUOP_LAYOUT_ARRAY, MLUOP_DTYPE_FLOAT, {kR, 5}};
  TensorDesc offset_d_{MLUOP_LAYOUT_ARRAY, MLUOP_DTYPE_FLOAT, {kR, 2, kPH, kPW}};
  TensorDesc output_d_{MLUOP_LAYOUT_NHWC, MLUOP_DTYPE_FLOAT, {kR, kPH, kPW, kC}};
  DeviceBuffer<float> arena_{std::vector<float>(kInput + kRois + kOffset + kOutput, 0.0f)};
};

TEST_F(DeformRoiPoolForwardAliasing, DisjointTensorsInOneAllocationSucceed) {
  std::vector<std::string> lines;
  EXPECT_EQ(call(at(0), at(kInput), at(kInput + kRois), at(kInput + kRois + kOffset), &lines),
            MLUOP_STATUS_SUCCESS);
  EXPECT_TRUE(lines.empty());
}

TEST_F(DeformRoiPoolForwardAliasing, OutputOverlappingAnInputIsRefused) {
  const float *input = at(0), *rois = at(kInput), *offset = at(kInput + kRois);
  expect_refused(input, rois, offset, at(0), "input");                   // in place
  expect_refused(input, rois, offset, at(kInput - 1), "input");          // last float shared
  expect_refused(input, rois, offset, at(kInput + 2), "rois");
  expect_refused(input, rois, offset, at(kInput + kRois + 1), "offset");
}

}  // namespace
}  // namespace mluop::deform_roi_pool_forward::test
