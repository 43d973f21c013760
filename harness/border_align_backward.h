// A border_align_backward case on the device for tests, benchmarks and the
// demo: its descriptors and device tensors, callable repeatedly through
// mlu_op.h. grad_input may sit between two guard bands, to show that nothing
// is written outside it.
#pragma once

#include <vector>

#include "harness/harness.h"
#include "ops/border_align_backward/border_align_backward_cases.h"

namespace mluop::border_align_backward::harness {

// T: float or _Float16; the problem's data already what a T tensor holds
// (cases::device_values).
template <typename T>
class DeviceProblem {
 public:
  explicit DeviceProblem(const cases::Problem &p, size_t guard = 0)
      : shape_(p.shape),
        grad_output_desc_(MLUOP_LAYOUT_NHWC, dtype(), {s().N, s().K(), 4, s().C}),
        boxes_desc_(MLUOP_LAYOUT_ARRAY, dtype(), {s().N, s().K(), 4}),
        argmax_desc_(MLUOP_LAYOUT_NHWC, MLUOP_DTYPE_INT32, {s().N, s().K(), 4, s().C}),
        grad_input_desc_(MLUOP_LAYOUT_NHWC, dtype(), {s().N, s().H, s().W, 4 * s().C}),
        grad_output_(std::vector<T>(p.grad_output.begin(), p.grad_output.end())),
        boxes_(std::vector<T>(p.boxes.begin(), p.boxes.end())),
        argmax_(p.argmax_idx),
        grad_input_(cases::grad_output_count(s()), 0xFF, guard) {}

  mluOpStatus_t run(mluOpHandle_t handle) {
    return mluOpBorderAlignBackward(handle, grad_output_desc_, grad_output_.get(), boxes_desc_,
                                    boxes_.get(), argmax_desc_, argmax_.get(), s().pool_size,
                                    grad_input_desc_, grad_input_.get());
  }
  // Every element of grad_input's allocation, guard bands included, set to `value`.
  void fill(float value) { grad_input_.fill(static_cast<T>(value)); }
  std::vector<double> grad_input() const {
    return mlusim::harness::to_double(grad_input_.download());
  }
  bool guards_intact() const { return grad_input_.guards_intact(); }

 private:
  static constexpr mluOpDataType_t dtype() { return mlusim::harness::dtype_of<T>(); }
  const cases::Shape &s() const { return shape_; }

  cases::Shape shape_;
  mlusim::harness::TensorDesc grad_output_desc_, boxes_desc_, argmax_desc_, grad_input_desc_;
  mlusim::harness::DeviceBuffer<T> grad_output_, boxes_;
  mlusim::harness::DeviceBuffer<int32_t> argmax_;
  mlusim::harness::GuardedBuffer<T> grad_input_;
};

}  // namespace mluop::border_align_backward::harness
