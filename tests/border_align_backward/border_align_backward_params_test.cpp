// mluOpBorderAlignBackward's parameter checks (design doc 3.8, 1.1, 1.3/1.4):
// each bad call returns its status and logs one line naming the operator and
// the offending values; nothing is launched.
#include <gtest/gtest.h>


#include <algorithm>
#include <array>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "runtime/logging.h"
#include "tests/border_align_backward/border_align_backward_test.h"

namespace mluop::border_align_backward::test {
namespace {

struct TensorSpec {
  mluOpTensorLayout_t layout;
  mluOpDataType_t dtype;
  std::vector<int> dims;
};

// A valid call (N 1, H 2, W 3 so K 6, C 4, pool_size 2) that each case breaks once.
struct CallSpec {
  TensorSpec grad_output{MLUOP_LAYOUT_NHWC, MLUOP_DTYPE_FLOAT, {1, 6, 4, 4}};
  TensorSpec boxes{MLUOP_LAYOUT_ARRAY, MLUOP_DTYPE_FLOAT, {1, 6, 4}};
  TensorSpec argmax_idx{MLUOP_LAYOUT_NHWC, MLUOP_DTYPE_INT32, {1, 6, 4, 4}};
  TensorSpec grad_input{MLUOP_LAYOUT_NHWC, MLUOP_DTYPE_FLOAT, {1, 2, 3, 16}};
  int pool_size = 2;
  bool null_handle = false;
  std::array<bool, 4> null_desc{};  // grad_output, boxes, argmax_idx, grad_input
  std::array<bool, 4> null_data{};
  bool host_grad_input = false;     // grad_input given as host memory
};


class BorderAlignBackwardParams : public ::testing::Test {
 protected:
  mluOpStatus_t call(const CallSpec &s, std::vector<std::string> *log_lines) {
    TensorDesc grad_output(s.grad_output.layout, s.grad_output.dtype, s.grad_output.dims);
    TensorDesc boxes(s.boxes.layout, s.boxes.dtype, s.boxes.dims);
    TensorDesc argmax_idx(s.argmax_idx.layout, s.argmax_idx.dtype, s.argmax_idx.dims);
    TensorDesc grad_input(s.grad_input.layout, s.grad_input.dtype, s.grad_input.dims);
    const std::array<mluOpTensorDescriptor_t, 4> descs{grad_output, boxes, argmax_idx,
                                                       grad_input};
    std::array<void *, 4> data{grad_output_.get(), boxes_.get(), argmax_idx_.get(),
                               grad_input_.get()};
    if (s.host_grad_input) data[3] = host_memory_.data();
    auto desc = [&](int i) { return s.null_desc[i] ? nullptr : descs[i]; };
    auto ptr = [&](int i) { return s.null_data[i] ? nullptr : data[i]; };
    OpLogCapture log;
    const mluOpStatus_t status = mluOpBorderAlignBackward(
        s.null_handle ? nullptr : static_cast<mluOpHandle_t>(handle_), desc(0), ptr(0), desc(1),
        ptr(1), desc(2), ptr(2), s.pool_size, desc(3), ptr(3));
    *log_lines = log.lines();
    return status;
  }

  Handle handle_;
  DeviceBuffer<float> grad_output_{96}, boxes_{24};
  DeviceBuffer<int32_t> argmax_idx_{96};
  DeviceBuffer<float> grad_input_{96};
  std::vector<float> host_memory_ = std::vector<float>(96);
};

TEST_F(BorderAlignBackwardParams, TheValidBaseCallSucceedsSilently) {
  std::vector<std::string> log;
  EXPECT_EQ(call(CallSpec{}, &log), MLUOP_STATUS_SUCCESS) << mlusimGetLastError();
  EXPECT_TRUE(log.empty());
}

struct BadCase {
  const char *name;
  std::function<void(CallSpec &)> breaks;
  const char *logged;  // part of the log line: the offending values
  mluOpStatus_t status = MLUOP_STATUS_BAD_PARAM;
};

TEST_F(BorderAlignBackwardParams, RejectsEveryBadParameterWithOneLogLine) {
  const mluOpTensorLayout_t NCHW = MLUOP_LAYOUT_NCHW;
  const std::vector<BadCase> cases = {
      // 3.8 item 1 and 1.3: null handle, descriptors and data pointers
      {"null handle", [](CallSpec &s) { s.null_handle = true; }, "handle is NULL"},
      {"null grad_output_desc", [](CallSpec &s) { s.null_desc[0] = true; }, "grad_output_desc"},
      {"null boxes_desc", [](CallSpec &s) { s.null_desc[1] = true; }, "boxes_desc"},
      {"null argmax_idx_desc", [](CallSpec &s) { s.null_desc[2] = true; }, "argmax_idx_desc"},
      {"null grad_input_desc", [](CallSpec &s) { s.null_desc[3] = true; }, "grad_input_desc"},
      {"null grad_output", [](CallSpec &s) { s.null_data[0] = true; }, "grad_output = 0"},
      {"null boxes", [](CallSpec &s) { s.null_data[1] = true; }, "boxes = 0"},
      {"null argmax_idx", [](CallSpec &s) { s.null_data[2] = true; }, "argmax_idx = 0"},
      {"null grad_input", [](CallSpec &s) { s.null_data[3] = true; }, "grad_input = 0"},
      {"host grad_input", [](CallSpec &s) { s.host_grad_input = true; }, "not device memory"},
      // items 4-7: ranks
      {"grad_output rank 3", [](CallSpec &s) { s.grad_output.dims = {1, 6, 16}; },
       "grad_output has 3 dims"},
      {"boxes rank 2", [](CallSpec &s) { s.boxes.dims = {6, 4}; }, "boxes has 2 dims"},
      {"argmax_idx rank 5", [](CallSpec &s) { s.argmax_idx.dims = {1, 6, 4, 4, 1}; },
       "argmax_idx has 5 dims"},
      {"grad_input rank 3", [](CallSpec &s) { s.grad_input.dims = {2, 3, 16}; },
       "grad_input has 3 dims"},
      // item 3: dtypes
      {"grad_output int32", [](CallSpec &s) { s.grad_output.dtype = MLUOP_DTYPE_INT32; },
       "grad_output dtype is int32"},
      {"argmax_idx float", [](CallSpec &s) { s.argmax_idx.dtype = MLUOP_DTYPE_FLOAT; },
       "argmax_idx dtype is float"},
      {"boxes half", [](CallSpec &s) { s.boxes.dtype = MLUOP_DTYPE_HALF; }, "boxes dtype half"},
      {"grad_input half", [](CallSpec &s) { s.grad_input.dtype = MLUOP_DTYPE_HALF; },
       "grad_input dtype half"},
      // 1.3: layouts
      {"grad_output NCHW", [=](CallSpec &s) { s.grad_output.layout = NCHW; },
       "grad_output layout is NCHW"},
      {"argmax_idx NCHW", [=](CallSpec &s) { s.argmax_idx.layout = NCHW; },
       "argmax_idx layout is NCHW"},
      {"grad_input NCHW", [=](CallSpec &s) { s.grad_input.layout = NCHW; },
       "grad_input layout is NCHW"},
      // item 7: grad_input's last dim a multiple of 4
      {"grad_input 4C odd", [](CallSpec &s) { s.grad_input.dims = {1, 2, 3, 15}; },
       "last dim 15"},
      // mlu-ops: one box per pixel
      {"H*W != K", [](CallSpec &s) { s.grad_input.dims = {1, 3, 3, 16}; }, "3 * 3"},
      // item 4: boxes' last dim
      {"boxes last dim 5", [](CallSpec &s) { s.boxes.dims = {1, 6, 5}; }, "last dim is 5"},
      // pool_size
      {"pool_size 0", [](CallSpec &s) { s.pool_size = 0; }, "pool_size = 0"},
      {"pool_size -3", [](CallSpec &s) { s.pool_size = -3; }, "pool_size = -3"},
      // items 8 and 9: dims agree
      {"grad_output dim2 3", [](CallSpec &s) { s.grad_output.dims = {1, 6, 3, 4}; },
       "grad_output dims [1,6,3,4]"},
      {"grad_output C 5", [](CallSpec &s) { s.grad_output.dims = {1, 6, 4, 5}; },
       "grad_output dims [1,6,4,5]"},
      {"grad_output N 2", [](CallSpec &s) { s.grad_output.dims = {2, 6, 4, 4}; },
       "grad_output dims [2,6,4,4]"},
      {"boxes N 3 (doc 3.7's slip)", [](CallSpec &s) { s.boxes.dims = {3, 6, 4}; },
       "boxes dims [3,6,4]"},
      {"argmax_idx C 3", [](CallSpec &s) { s.argmax_idx.dims = {1, 6, 4, 3}; },
       "argmax_idx dims [1,6,4,3]"},
      // mlu-ops: tensors of 2^31 elements or more are not supported
      {"2^31 elements",
       [](CallSpec &s) {
         s.grad_output.dims = {1, 1 << 29, 4, 1};
         s.boxes.dims = {1, 1 << 29, 4};
         s.argmax_idx.dims = {1, 1 << 29, 4, 1};
         s.grad_input.dims = {1, 1 << 15, 1 << 14, 4};
       },
       "2147483648 elements", MLUOP_STATUS_NOT_SUPPORTED},
  };
  for (const BadCase &c : cases) {
    SCOPED_TRACE(c.name);
    CallSpec spec;
    c.breaks(spec);
    std::vector<std::string> log;
    EXPECT_EQ(call(spec, &log), c.status);
    ASSERT_EQ(log.size(), 1u);
    EXPECT_NE(log[0].find("mluOpBorderAlignBackward"), std::string::npos) << log[0];
    EXPECT_NE(log[0].find(c.logged), std::string::npos) << log[0];
  }
}

// Design doc 1.1: zero elements is BAD_PARAM, not an early success.
TEST_F(BorderAlignBackwardParams, ZeroElementsIsBadParam) {
  const std::vector<std::function<void(CallSpec &)>> empties = {
      [](CallSpec &s) {  // N = 0
        s.grad_output.dims[0] = s.boxes.dims[0] = s.argmax_idx.dims[0] = s.grad_input.dims[0] = 0;
      },
      [](CallSpec &s) {  // C = 0
        s.grad_output.dims[3] = s.argmax_idx.dims[3] = s.grad_input.dims[3] = 0;
      },
      [](CallSpec &s) {  // H = 0, so K = 0
        s.grad_input.dims[1] = 0;
        s.grad_output.dims[1] = s.boxes.dims[1] = s.argmax_idx.dims[1] = 0;
      },
      [](CallSpec &s) {  // K = 0 alone
        s.grad_output.dims[1] = s.boxes.dims[1] = s.argmax_idx.dims[1] = 0;
      },
  };
  for (size_t i = 0; i < empties.size(); ++i) {
    SCOPED_TRACE(i);
    CallSpec spec;
    empties[i](spec);
    std::vector<std::string> log;
    EXPECT_EQ(call(spec, &log), MLUOP_STATUS_BAD_PARAM);
    EXPECT_EQ(log.size(), 1u);
  }
}

}  // namespace
}  // namespace mluop::border_align_backward::test
