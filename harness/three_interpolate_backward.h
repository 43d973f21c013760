// A three_interpolate_backward case on the device for tests, benchmarks and
// the demo: its descriptors and device tensors, callable repeatedly through
// mlu_op.h. grad_features sits between guard bands and starts as 0xFF bytes
// (NaN in half and float): an element the kernel misses stays NaN and fails a
// comparison, a stray write changes a guard band.
#pragma once

#include <vector>

#include "harness/harness.h"
#include "ops/three_interpolate_backward/three_interpolate_backward_cases.h"

namespace mluop::three_interpolate_backward::harness {

template <typename T>
class DeviceProblem {
 public:
  static constexpr size_t kGuard = 1024;  // elements on each side of grad_features

  explicit DeviceProblem(const cases::Problem<T> &p)
      : shape_(p.shape),
        grad_output_desc_(MLUOP_LAYOUT_ARRAY, dtype(), {s().b, s().c, s().n}),
        indices_desc_(MLUOP_LAYOUT_ARRAY, MLUOP_DTYPE_INT32, {s().b, s().n, kNeighbours}),
        weights_desc_(MLUOP_LAYOUT_ARRAY, dtype(), {s().b, s().n, kNeighbours}),
        grad_features_desc_(MLUOP_LAYOUT_ARRAY, dtype(), {s().b, s().c, s().m}),
        grad_output_(p.grad_output),
        weights_(p.weights),
        indices_(p.indices),
        grad_features_(size_t(s().b) * s().c * s().m, 0xFF, kGuard) {}

  mluOpStatus_t run(mluOpHandle_t handle) {
    return mluOpThreeInterpolateBackward(handle, grad_output_desc_, grad_output_.get(),
                                         indices_desc_, indices_.get(), weights_desc_,
                                         weights_.get(), grad_features_desc_, grad_features_.get());
  }
  std::vector<T> grad_features() const { return grad_features_.download(); }
  // grad_features[batch], [C, M].
  std::vector<T> batch(int b) const {
    const size_t count = size_t(s().c) * s().m;
    return grad_features_.download(b * count, count);
  }
  bool guards_intact() const { return grad_features_.guards_intact(); }

 private:
  static constexpr mluOpDataType_t dtype() { return mlusim::harness::dtype_of<T>(); }
  const Shape &s() const { return shape_; }

  Shape shape_;
  mlusim::harness::TensorDesc grad_output_desc_, indices_desc_, weights_desc_,
      grad_features_desc_;
  mlusim::harness::DeviceBuffer<T> grad_output_, weights_;
  mlusim::harness::DeviceBuffer<int32_t> indices_;
  mlusim::harness::GuardedBuffer<T> grad_features_;
};

}  // namespace mluop::three_interpolate_backward::harness
