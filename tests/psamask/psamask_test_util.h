// What the psamask tests share: running one call through mlu_op.h on fresh
// device buffers, and switching the simulated device for a scope.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ops/psamask/psamask_reference.h"
#include "harness/harness.h"

namespace psamask_test {

using mlusim::harness::DeviceBuffer;
using mlusim::harness::Handle;
using mlusim::harness::TensorDesc;
using Dims = psamask_reference::Dims;

inline std::vector<int> mask_shape(const Dims &d) {
  return {d.num, d.h_feature, d.w_feature, d.h_mask * d.w_mask};
}
inline std::vector<int> feature_shape(const Dims &d) {
  return {d.num, d.h_feature, d.w_feature, d.h_feature * d.w_feature};
}

inline std::string describe(const Dims &d, int psa_type, bool backward) {
  return std::string(backward ? "backward " : "forward ") +
         (psa_type == 0 ? "COLLECT " : "DISTRIBUTE ") + "[" + std::to_string(d.num) + "," +
         std::to_string(d.h_feature) + "," + std::to_string(d.w_feature) + "] mask " +
         std::to_string(d.h_mask) + "x" + std::to_string(d.w_mask);
}

struct Outcome {
  mluOpStatus_t status;
  std::vector<float> out;
};

// Runs forward (x -> y) or backward (dy -> dx) on `in`. The output buffer starts
// full of 7s, so every element the operator must zero is checked too.
inline Outcome run(const Handle &handle, bool backward, int psa_type, const Dims &d,
                   const std::vector<float> &in) {
  const auto in_shape = backward ? feature_shape(d) : mask_shape(d);
  const auto out_shape = backward ? mask_shape(d) : feature_shape(d);
  TensorDesc in_desc(MLUOP_LAYOUT_NHWC, MLUOP_DTYPE_FLOAT, in_shape);
  TensorDesc out_desc(MLUOP_LAYOUT_NHWC, MLUOP_DTYPE_FLOAT, out_shape);
  DeviceBuffer<float> in_dev(in);
  DeviceBuffer<float> out_dev(std::vector<float>(out_desc.elements(), 7.0f));
  const mluOpStatus_t status =
      backward ? mluOpPsamaskBackward(handle, psa_type, in_desc, in_dev.get(), d.h_mask, d.w_mask,
                                      out_desc, out_dev.get())
               : mluOpPsamaskForward(handle, psa_type, in_desc, in_dev.get(), d.h_mask, d.w_mask,
                                     out_desc, out_dev.get());
  return {status, out_dev.download()};
}

// Runs the call and expects mlu-ops' pure-IO standard against the CPU
// reference: diff3 = 0 (and so diff1 = diff2 = 0).
inline void expect_exact(const Handle &handle, bool backward, int psa_type, const Dims &d,
                         uint32_t seed) {
  SCOPED_TRACE(describe(d, psa_type, backward));
  mlusim::harness::Random random(seed);
  const auto in = random.floats(backward ? d.feature_elements() : d.mask_elements(), -10, 10);
  const Outcome got = run(handle, backward, psa_type, d, in);
  ASSERT_EQ(got.status, MLUOP_STATUS_SUCCESS) << mlusimGetLastError();
  const auto want = backward ? psamask_reference::backward(psa_type, in, d)
                             : psamask_reference::forward(psa_type, in, d);
  const auto diffs = mlusim::harness::compare(mlusim::harness::to_double(got.out),
                                              mlusim::harness::to_double(want),
                                              mlusim::harness::diff3_eps(MLUOP_DTYPE_FLOAT));
  EXPECT_EQ(diffs.diff3, 0.0) << "diff1 " << diffs.diff1 << " diff2 " << diffs.diff2;
}

// Forward and backward, COLLECT and DISTRIBUTE.
inline void expect_exact_all(const Handle &handle, const Dims &d, uint32_t seed) {
  for (int psa_type : {0, 1})
    for (bool backward : {false, true}) expect_exact(handle, backward, psa_type, d, seed++);
}

// Simulates another device until the end of the scope.
class DeviceScope {
 public:
  explicit DeviceScope(const mlusimDeviceSpec_t &spec) {
    mlusimGetDeviceSpec(&saved_);
    EXPECT_EQ(mlusimSetDeviceSpec(&spec), cnrtSuccess);
  }
  ~DeviceScope() { mlusimSetDeviceSpec(&saved_); }
  DeviceScope(const DeviceScope &) = delete;
  DeviceScope &operator=(const DeviceScope &) = delete;

 private:
  mlusimDeviceSpec_t saved_{};
};

// The default device with `clusters` clusters and `nram_kb` KB of usable NRAM.
inline mlusimDeviceSpec_t small_device(int clusters, size_t nram_kb) {
  mlusimDeviceSpec_t spec{};
  mlusimGetPreset(0, &spec);
  spec.clusters = clusters;
  spec.nram_bytes = spec.stack_reserve_bytes + nram_kb * 1024;
  return spec;
}

}  // namespace psamask_test
