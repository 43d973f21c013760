// What the intrinsic tests share: launches and fault messages
// (tests/common/launch_error.h), and the comparison of a result with its
// double-precision reference by mlu-ops' diff metrics.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "harness/harness.h"
#include "tests/common/launch_error.h"
#include "tests/common/preset_scope.h"

namespace intrinsics_test {

using mlusim::harness::DeviceBuffer;
using mlusim::harness::FloatTag;
using mlusim::harness::HalfTag;

using mlusim::testing::expect_mentions;
using mlusim::testing::kOneCore;
using mlusim::testing::launch_error;
using mlusim::testing::kMlu200Preset;
using mlusim::testing::PresetScope;

// mlu-ops' accuracy bar for these intrinsics: diff1 and diff2 within 3e-3.
template <typename T>
void expect_close(const std::vector<T> &result, const std::vector<double> &reference) {
  auto d = mlusim::harness::compare(
      std::vector<double>(result.begin(), result.end()), reference,
      mlusim::harness::diff3_eps(sizeof(T) == 2 ? MLUOP_DTYPE_HALF : MLUOP_DTYPE_FLOAT));
  EXPECT_LE(d.diff1, 3e-3);
  EXPECT_LE(d.diff2, 3e-3);
}

// Random values of dtype T in [lo, hi], and the same values as doubles.
template <typename T>
struct Sample {
  std::vector<T> values;
  std::vector<double> exact;
};
template <typename T>
Sample<T> sample(size_t n, float lo, float hi, uint32_t seed) {
  mlusim::harness::Random random(seed);
  Sample<T> s;
  for (float v : random.floats(n, lo, hi)) {
    s.values.push_back(static_cast<T>(v));
    s.exact.push_back(static_cast<double>(s.values.back()));
  }
  return s;
}

using FloatAndHalf = ::testing::Types<FloatTag, HalfTag>;

}  // namespace intrinsics_test
