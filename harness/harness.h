// What tests, benchmarks and the demo share: RAII wrappers over the C API,
// seeded random data, mlu-ops' accuracy metrics, device memory between guard
// bands and a scoped switch of the simulated device. Nothing here is
// test-only: the shipped `mlusim demo` runs its cases through it. Each
// operator adds harness/<op>.h: its cases (ops/<op>/<op>_cases.h) on the device.
#pragma once

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "mlu_op.h"
#include "mlusim.h"
#include "ops/common/cases.h"

namespace mlusim::harness {

// mlu-ops' accuracy metrics, as its gtest evaluator computes them (in double):
// diff1 = sum|r-b| / sum|b|; diff2 = sqrt(sum (r-b)^2 / sum b^2);
// diff3 = max relative error (absolute where |b| < eps).
struct Diffs {
  double diff1 = 0, diff2 = 0, diff3 = 0;
};
Diffs compare(const std::vector<double> &result, const std::vector<double> &baseline,
              double eps);
inline double diff3_eps(mluOpDataType_t dtype) { return dtype == MLUOP_DTYPE_HALF ? 1e-4 : 1e-6; }

// The mlu-ops dtype of a host element type: float, or half (_Float16).
template <typename T>
constexpr mluOpDataType_t dtype_of() {
  return sizeof(T) == 2 ? MLUOP_DTYPE_HALF : MLUOP_DTYPE_FLOAT;
}

template <typename T>
std::vector<double> to_double(const std::vector<T> &v) {
  return std::vector<double>(v.begin(), v.end());
}

// Throws std::runtime_error when a CNRT call fails; tests treat that as a failure.
void check_cnrt(cnrtRet_t ret, const char *what);

template <typename T>
class DeviceBuffer {
 public:
  explicit DeviceBuffer(size_t count) : count_(count) {
    check_cnrt(cnrtMalloc(&ptr_, bytes() == 0 ? 1 : bytes()), "cnrtMalloc");
  }
  explicit DeviceBuffer(const std::vector<T> &host) : DeviceBuffer(host.size()) { upload(host); }
  ~DeviceBuffer() { cnrtFree(ptr_); }
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &operator=(const DeviceBuffer &) = delete;

  T *get() const { return static_cast<T *>(ptr_); }
  size_t size() const { return count_; }
  size_t bytes() const { return count_ * sizeof(T); }
  void upload(const std::vector<T> &host) {
    if (host.size() != count_) throw std::runtime_error("DeviceBuffer::upload: size mismatch");
    if (count_ != 0)
      check_cnrt(cnrtMemcpy(ptr_, const_cast<T *>(host.data()), bytes(), cnrtMemcpyHostToDev),
                 "cnrtMemcpy H2D");
  }
  std::vector<T> download() const {
    std::vector<T> host(count_);
    if (count_ != 0)
      check_cnrt(cnrtMemcpy(host.data(), ptr_, bytes(), cnrtMemcpyDevToHost), "cnrtMemcpy D2H");
    return host;
  }

 private:
  size_t count_;
  void *ptr_ = nullptr;
};

class TensorDesc {
 public:
  TensorDesc(mluOpTensorLayout_t layout, mluOpDataType_t dtype, const std::vector<int> &dims);
  ~TensorDesc() { mluOpDestroyTensorDescriptor(desc_); }
  TensorDesc(const TensorDesc &) = delete;
  TensorDesc &operator=(const TensorDesc &) = delete;
  operator mluOpTensorDescriptor_t() const { return desc_; }
  size_t elements() const { return mluOpGetTensorElementNum(desc_); }

 private:
  mluOpTensorDescriptor_t desc_ = nullptr;
};

// A handle on a queue of its own, so reports and notifiers are not shared.
class Handle {
 public:
  Handle();
  ~Handle();
  Handle(const Handle &) = delete;
  Handle &operator=(const Handle &) = delete;
  operator mluOpHandle_t() const { return handle_; }
  cnrtQueue_t queue() const { return queue_; }
  mlusimReport_t last_op_report() const;

 private:
  mluOpHandle_t handle_ = nullptr;
  cnrtQueue_t queue_ = nullptr;
};

// `count` elements of device memory between two guard bands of `guard`
// elements, the whole allocation filled with a byte pattern first (0xFF: NaN in
// half and float) or with fill(value): a write outside the elements changes a
// guard band, an element the operator misses keeps the fill.
template <typename T>
class GuardedBuffer {
 public:
  explicit GuardedBuffer(size_t count, uint8_t pattern = 0xFF, size_t guard = 256)
      : count_(count), guard_(guard), buffer_(count + 2 * guard) {
    check_cnrt(cnrtMemset(buffer_.get(), pattern, buffer_.bytes()), "cnrtMemset");
    std::memset(static_cast<void *>(&fill_), pattern, sizeof(T));
  }
  // Every element of the allocation, guard bands included, set to `value`.
  void fill(T value) {
    buffer_.upload(std::vector<T>(buffer_.size(), value));
    fill_ = value;
  }

  T *get() const { return buffer_.get() + guard_; }
  size_t size() const { return count_; }
  std::vector<T> download() const { return read(guard_, count_); }
  // Elements [first, first + count) of the buffer (guard bands excluded).
  std::vector<T> download(size_t first, size_t count) const { return read(guard_ + first, count); }
  // True when neither guard band changed.
  bool guards_intact() const {
    return all_fill(read(0, guard_)) && all_fill(read(guard_ + count_, guard_));
  }
  // True when nothing at all changed.
  bool untouched() const { return all_fill(read(0, buffer_.size())); }

 private:
  std::vector<T> read(size_t first, size_t count) const {
    std::vector<T> host(count);
    if (count != 0)
      check_cnrt(cnrtMemcpy(host.data(), buffer_.get() + first, count * sizeof(T),
                            cnrtMemcpyDevToHost),
                 "cnrtMemcpy D2H");
    return host;
  }
  bool all_fill(const std::vector<T> &v) const {
    for (const T &x : v)
      if (std::memcmp(&x, &fill_, sizeof(T)) != 0) return false;
    return true;
  }

  size_t count_, guard_;
  DeviceBuffer<T> buffer_;
  T fill_;
};

// Simulates another device until the end of the scope (throws if it is refused).
class ScopedDevice {
 public:
  explicit ScopedDevice(const mlusimDeviceSpec_t &spec);
  ~ScopedDevice() { mlusimSetDeviceSpec(&saved_); }
  ScopedDevice(const ScopedDevice &) = delete;
  ScopedDevice &operator=(const ScopedDevice &) = delete;

 private:
  mlusimDeviceSpec_t saved_{};
};

// The random source and half rounding of the operators' cases (ops/common/cases.h).
using Random = ::mluop::Random;
using ::mluop::round_to_half;

// The dtypes as gtest type parameters: gtest needs typeid of a type parameter
// and this libstdc++ has no typeinfo for _Float16, so each is wrapped.
struct FloatTag {
  using T = float;
};
struct HalfTag {
  using T = _Float16;
};

std::vector<_Float16> to_half(const std::vector<float> &v);

}  // namespace mlusim::harness
