// mlusim demo three_interpolate_backward: the gradient of a PointNet++ feature
// propagation layer (the design doc's network case 9: batch 16, 128 channels,
// 256 points interpolated up to 512), in float and half, each against the CPU
// reference with mlu-ops' diff1 / diff2 and the thresholds.
#include <cstdio>
#include <string>
#include <type_traits>
#include <vector>

#include "ops/three_interpolate_backward/three_interpolate_backward_reference.h"
#include "harness/harness.h"
#include "tools/demo.h"

namespace {

using namespace mlusim::harness;

constexpr int kB = 16, kC = 128, kN = 512, kM = 256;

template <typename T>
mlusim::demo::Row run_case(uint32_t seed) {
  constexpr bool is_float = std::is_same_v<T, float>;
  constexpr mluOpDataType_t dtype = is_float ? MLUOP_DTYPE_FLOAT : MLUOP_DTYPE_HALF;
  Random random(seed);
  // Half inputs are drawn in float and rounded, so the reference sees the device's values.
  auto values = [&random](size_t count, float lo, float hi) {
    const std::vector<float> v = random.floats(count, lo, hi);
    return std::vector<T>(v.begin(), v.end());
  };
  const std::vector<T> grad_output = values(size_t(kB) * kC * kN, -1.0f, 1.0f);
  const std::vector<T> weights = values(size_t(kB) * kN * 3, 0.0f, 1.0f);
  const std::vector<int32_t> indices = random.ints(size_t(kB) * kN * 3, 0, kM - 1);

  Handle handle;
  TensorDesc grad_output_desc(MLUOP_LAYOUT_ARRAY, dtype, {kB, kC, kN});
  TensorDesc indices_desc(MLUOP_LAYOUT_ARRAY, MLUOP_DTYPE_INT32, {kB, kN, 3});
  TensorDesc weights_desc(MLUOP_LAYOUT_ARRAY, dtype, {kB, kN, 3});
  TensorDesc grad_features_desc(MLUOP_LAYOUT_ARRAY, dtype, {kB, kC, kM});
  DeviceBuffer<T> d_grad_output(grad_output), d_weights(weights);
  DeviceBuffer<int32_t> d_indices(indices);
  DeviceBuffer<T> d_grad_features(size_t(kB) * kC * kM);

  mlusim::demo::Row row{"three_interpolate_backward",
                        "[16,128,512]->M256 PointNet++ FP",
                        is_float ? "float" : "half",
                        {},
                        "",
                        false,
                        0};
  const bool ran = mlusim::demo::run_timed(row, handle, [&] {
    return mluOpThreeInterpolateBackward(handle, grad_output_desc, d_grad_output.get(),
                                         indices_desc, d_indices.get(), weights_desc,
                                         d_weights.get(), grad_features_desc,
                                         d_grad_features.get());
  });
  if (!ran) return row;
  const Diffs d =
      compare(to_double(d_grad_features.download()),
              three_interpolate_backward::reference(grad_output, indices, weights, kB, kC, kN, kM),
              diff3_eps(dtype));
  char text[48];
  std::snprintf(text, sizeof(text), "diff1=%.2g diff2=%.2g", d.diff1, d.diff2);
  row.accuracy = text;
  const double threshold = is_float ? 1e-5 : 3e-3;
  row.passed = d.diff1 <= threshold && d.diff2 <= threshold;
  return row;
}

std::vector<mlusim::demo::Row> run() { return {run_case<float>(9), run_case<_Float16>(9)}; }

}  // namespace

MLUSIM_DEMO(three_interpolate_backward, run);
