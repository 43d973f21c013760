// border_align_backward problems for the tests, the benchmark and the demo:
// host data (floats, already rounded to half for half runs), random generation
// and one device run through mlu_op.h.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "ops/border_align_backward/border_align_backward_reference.h"
#include "harness/harness.h"

namespace border_align_backward::testing {

using reference::Shape;

struct Problem {
  Shape shape;
  std::vector<float> grad_output;  // [N,K,4,C]
  std::vector<float> boxes;        // [N,K,4]
  std::vector<int32_t> argmax_idx; // [N,K,4,C]

  std::vector<double> reference() const {
    return reference::border_align_backward(shape, grad_output, boxes, argmax_idx);
  }
};

inline size_t grad_output_count(const Shape &s) {
  return static_cast<size_t>(s.N) * s.K() * 4 * s.C;
}

// Boxes whose corners are sorted uniform pairs over [lo, hi] times the map's
// width / height (lo < 0 or hi > 1 reaches outside the map); argmax uniform in
// [0, pool_size]; grad_output uniform in [-1, 1).
inline Problem random_problem(const Shape &s, uint32_t seed, float lo = 0.0f, float hi = 1.0f) {
  mlusim::harness::Random rng(seed);
  Problem p{s, rng.floats(grad_output_count(s), -1.0f, 1.0f), {}, {}};
  p.boxes.reserve(static_cast<size_t>(s.N) * s.K() * 4);
  for (int b = 0; b < s.N * s.K(); ++b) {
    float x0 = rng.uniform(lo, hi) * s.W, x1 = rng.uniform(lo, hi) * s.W;
    float y0 = rng.uniform(lo, hi) * s.H, y1 = rng.uniform(lo, hi) * s.H;
    if (x1 < x0) std::swap(x0, x1);
    if (y1 < y0) std::swap(y0, y1);
    p.boxes.insert(p.boxes.end(), {x0, y0, x1, y1});
  }
  const std::vector<int> idx = rng.ints(grad_output_count(s), 0, s.pool_size);
  p.argmax_idx.assign(idx.begin(), idx.end());
  return p;
}

// The values a half tensor holds, so the reference sees what the device sees.
inline Problem rounded_to_half(Problem p) {
  for (float &v : p.grad_output) v = mlusim::harness::round_to_half(v);
  for (float &v : p.boxes) v = mlusim::harness::round_to_half(v);
  return p;
}

template <typename T>
constexpr mluOpDataType_t dtype_of() {
  return sizeof(T) == 4 ? MLUOP_DTYPE_FLOAT : MLUOP_DTYPE_HALF;
}

template <typename T>
std::vector<T> to_device_type(const std::vector<float> &v) {
  return std::vector<T>(v.begin(), v.end());
}

// The values a T tensor holds: half runs round the float data first.
template <typename T>
Problem device_values(Problem p) {
  return sizeof(T) == 4 ? p : rounded_to_half(std::move(p));
}

// A problem on the device, callable repeatedly (the benchmark times the calls).
// grad_input may sit between two guard bands of `guard` elements, to show that
// nothing is written outside it.
template <typename T>
class DeviceProblem {
 public:
  explicit DeviceProblem(const Problem &p, size_t guard = 0)
      : shape_(p.shape),
        guard_(guard),
        grad_output_desc_(MLUOP_LAYOUT_NHWC, dtype_of<T>(), {s().N, s().K(), 4, s().C}),
        boxes_desc_(MLUOP_LAYOUT_ARRAY, dtype_of<T>(), {s().N, s().K(), 4}),
        argmax_desc_(MLUOP_LAYOUT_NHWC, MLUOP_DTYPE_INT32, {s().N, s().K(), 4, s().C}),
        grad_input_desc_(MLUOP_LAYOUT_NHWC, dtype_of<T>(), {s().N, s().H, s().W, 4 * s().C}),
        grad_output_(to_device_type<T>(p.grad_output)),
        boxes_(to_device_type<T>(p.boxes)),
        argmax_(p.argmax_idx),
        grad_input_(grad_output_count(s()) + 2 * guard) {}

  mluOpStatus_t run(mluOpHandle_t handle) {
    return mluOpBorderAlignBackward(handle, grad_output_desc_, grad_output_.get(), boxes_desc_,
                                    boxes_.get(), argmax_desc_, argmax_.get(), s().pool_size,
                                    grad_input_desc_, grad_input_.get() + guard_);
  }
  // Every element of the allocation, guard bands included, set to `value`.
  void fill(float value) {
    grad_input_.upload(std::vector<T>(grad_input_.size(), static_cast<T>(value)));
  }
  std::vector<double> grad_input() const { return slice(guard_, grad_output_count(s())); }
  std::vector<double> guard_bands() const {
    std::vector<double> bands = slice(0, guard_);
    const std::vector<double> tail = slice(guard_ + grad_output_count(s()), guard_);
    bands.insert(bands.end(), tail.begin(), tail.end());
    return bands;
  }

 private:
  const Shape &s() const { return shape_; }
  std::vector<double> slice(size_t from, size_t count) const {
    const std::vector<T> v = grad_input_.download();
    return std::vector<double>(v.begin() + from, v.begin() + from + count);
  }
  Shape shape_;
  size_t guard_;
  mlusim::harness::TensorDesc grad_output_desc_, boxes_desc_, argmax_desc_, grad_input_desc_;
  mlusim::harness::DeviceBuffer<T> grad_output_, boxes_;
  mlusim::harness::DeviceBuffer<int32_t> argmax_;
  mlusim::harness::DeviceBuffer<T> grad_input_;
};

// The accuracy bar: diff1 and diff2 at most 1e-5 (float) / 1e-3 (half).
inline double threshold(mluOpDataType_t dtype) { return dtype == MLUOP_DTYPE_HALF ? 1e-3 : 1e-5; }

}  // namespace border_align_backward::testing
