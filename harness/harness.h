// What tests, benchmarks and the demo share: RAII wrappers over the C API,
// seeded random data, and mlu-ops' accuracy metrics. Nothing here is test-only:
// the shipped `mlusim demo` runs its cases through it.
#pragma once

#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "mlu_op.h"
#include "mlusim.h"

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

class Random {
 public:
  explicit Random(uint32_t seed) : gen_(seed) {}
  float uniform(float lo, float hi) { return std::uniform_real_distribution<float>(lo, hi)(gen_); }
  int integer(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(gen_); }
  std::vector<float> floats(size_t n, float lo, float hi);
  std::vector<int> ints(size_t n, int lo, int hi);

 private:
  std::mt19937 gen_;
};

// The dtypes as gtest type parameters: gtest needs typeid of a type parameter
// and this libstdc++ has no typeinfo for _Float16, so each is wrapped.
struct FloatTag {
  using T = float;
};
struct HalfTag {
  using T = _Float16;
};

// Rounds through IEEE binary16, as a half tensor stores a value.
inline float round_to_half(float x) { return static_cast<float>(static_cast<_Float16>(x)); }
std::vector<_Float16> to_half(const std::vector<float> &v);

}  // namespace mlusim::harness
