// mluOpBorderAlignBackward refuses a grad_input that shares bytes with an
// input (grad_input is zeroed first, which would destroy the input): BAD_PARAM
// and one log line naming the two tensors, as the other operators do.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/border_align_backward/border_align_backward_test.h"

namespace mluop::border_align_backward::test {
namespace {

// N 1, H 2, W 3 (K 6), C 4: grad_output and argmax_idx [1,6,4,4], boxes
// [1,6,4], grad_input [1,2,3,16]; every tensor element is 4 bytes.
constexpr size_t kGradOutput = 96, kBoxes = 24, kArgmax = 96, kGradInput = 96;

class BorderAlignBackwardAliasing : public ::testing::Test {
 protected:
  // One allocation big enough for every tensor: overlapping pointers are all
  // valid device memory, so only the overlap is wrong.
  float *at(size_t offset_words) { return arena_.get() + offset_words; }

  mluOpStatus_t call(const void *grad_output, const void *boxes, const void *argmax_idx,
                     void *grad_input, std::vector<std::string> *log_lines) {
    OpLogCapture log;
    const mluOpStatus_t status =
        mluOpBorderAlignBackward(handle_, grad_output_d_, grad_output, boxes_d_, boxes,
                                 argmax_d_, argmax_idx, 2, grad_input_d_, grad_input);
    *log_lines = log.lines();
    return status;
  }

  void expect_refused(void *grad_input, const std::string &tensor) {
    std::vector<std::string> lines;
    EXPECT_EQ(call(at(0), at(kGradOutput), at(kGradOutput + kBoxes), grad_input, &lines),
              MLUOP_STATUS_BAD_PARAM);
    ASSERT_EQ(lines.size(), 1u);
    EXPECT_NE(lines[0].find("[mluOpBorderAlignBackward]"), std::string::npos) << lines[0];
    EXPECT_NE(lines[0].find(tensor + " and grad_input overlap"), std::string::npos) << lines[0];
  }

  Handle handle_;
  TensorDesc grad_output_d_{MLUOP_LAYOUT_NHWC, MLUOP_DTYPE_FLOAT, {1, 6, 4, 4}};
  TensorDesc boxes_d_{MLUOP_LAYOUT_ARRAY, MLUOP_DTYPE_FLOAT, {1, 6, 4}};
  TensorDesc argmax_d_{MLUOP_LAYOUT_NHWC, MLUOP_DTYPE_INT32, {1, 6, 4, 4}};
  TensorDesc grad_input_d_{MLUOP_LAYOUT_NHWC, MLUOP_DTYPE_FLOAT, {1, 2, 3, 16}};
  DeviceBuffer<float> arena_{std::vector<float>(kGradOutput + kBoxes + kArgmax + kGradInput, 0)};
};

TEST_F(BorderAlignBackwardAliasing, DisjointTensorsInOneAllocationSucceed) {
  std::vector<std::string> lines;
  EXPECT_EQ(call(at(0), at(kGradOutput), at(kGradOutput + kBoxes),
                 at(kGradOutput + kBoxes + kArgmax), &lines),
            MLUOP_STATUS_SUCCESS)
      << mlusimGetLastError();
  EXPECT_TRUE(lines.empty());
}

TEST_F(BorderAlignBackwardAliasing, GradInputOverlappingAnInputIsRefused) {
  expect_refused(at(0), "grad_output");  // in place
  expect_refused(at(kGradOutput - 1), "grad_output");
  expect_refused(at(kGradOutput + 1), "boxes");
  expect_refused(at(kGradOutput + kBoxes + kArgmax - 1), "argmax_idx");
}

}  // namespace
}  // namespace mluop::border_align_backward::test
