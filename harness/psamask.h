// A psamask case on the device for tests, benchmarks and the demo: its
// descriptors and device tensors, callable repeatedly through mlu_op.h.
#pragma once

#include <vector>

#include "harness/harness.h"
#include "ops/psamask/psamask_cases.h"

namespace mluop::psamask::harness {

class DeviceProblem {
 public:
  // The output starts full of 7s, so every element the operator must zero is checked too.
  explicit DeviceProblem(const cases::Problem &p)
      : backward_(p.backward),
        psa_type_(p.psa_type),
        h_mask_(p.dims.h_mask),
        w_mask_(p.dims.w_mask),
        in_desc_(MLUOP_LAYOUT_NHWC, MLUOP_DTYPE_FLOAT, p.input_shape()),
        out_desc_(MLUOP_LAYOUT_NHWC, MLUOP_DTYPE_FLOAT, p.output_shape()),
        in_(p.input),
        out_(std::vector<float>(out_desc_.elements(), 7.0f)) {}

  mluOpStatus_t run(mluOpHandle_t handle) {
    return backward_ ? mluOpPsamaskBackward(handle, psa_type_, in_desc_, in_.get(), h_mask_,
                                            w_mask_, out_desc_, out_.get())
                     : mluOpPsamaskForward(handle, psa_type_, in_desc_, in_.get(), h_mask_,
                                           w_mask_, out_desc_, out_.get());
  }
  std::vector<float> output() const { return out_.download(); }

 private:
  bool backward_;
  int psa_type_, h_mask_, w_mask_;
  mlusim::harness::TensorDesc in_desc_, out_desc_;
  mlusim::harness::DeviceBuffer<float> in_, out_;
};

}  // namespace mluop::psamask::harness
