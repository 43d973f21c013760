// What the CNNL stand-in's tests share: RAII over cnnl.h's handle and tensor
// descriptors, device buffers and mlu-ops' accuracy metrics from the harness,
// and the log line a failed call writes.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "cnnl.h"
#include "harness/harness.h"
#include "tests/common/op_log_capture.h"
#include "tests/common/preset_scope.h"

namespace cnnl_test {

using mlusim::harness::DeviceBuffer;
using mlusim::harness::Random;

// A handle on a queue of its own, so operator reports are not shared.
class Handle {
 public:
  Handle() {
    mlusim::harness::check_cnrt(cnrtQueueCreate(&queue_), "cnrtQueueCreate");
    if (cnnlCreate(&handle_) != CNNL_STATUS_SUCCESS ||
        cnnlSetQueue(handle_, queue_) != CNNL_STATUS_SUCCESS)
      throw std::runtime_error("cnnlCreate/cnnlSetQueue failed");
  }
  ~Handle() {
    cnnlDestroy(handle_);
    cnrtQueueDestroy(queue_);
  }
  Handle(const Handle &) = delete;
  Handle &operator=(const Handle &) = delete;
  operator cnnlHandle_t() const { return handle_; }
  cnrtQueue_t queue() const { return queue_; }
  mlusimReport_t last_op_report() const {
    mlusimReport_t r{};
    mlusim::harness::check_cnrt(mlusimGetLastOpReport(queue_, &r), "mlusimGetLastOpReport");
    return r;
  }

 private:
  cnnlHandle_t handle_ = nullptr;
  cnrtQueue_t queue_ = nullptr;
};

// Runs the scope on another simulated device preset ("MLU270", "MLU290"),
// whose NRAM, cores and alignments the operators' plans must follow.
using DevicePreset = mlusim::testing::PresetScope;

// A tensor descriptor; dense unless strides are given, never set if `unset`.
class Desc {
 public:
  Desc(cnnlTensorLayout_t layout, cnnlDataType_t dtype, const std::vector<int64_t> &dims,
       const std::vector<int64_t> &strides = {}) {
    cnnlCreateTensorDescriptor(&desc_);
    const cnnlStatus_t status =
        strides.empty()
            ? cnnlSetTensorDescriptor_v2(desc_, layout, dtype, static_cast<int>(dims.size()),
                                         dims.data())
            : cnnlSetTensorDescriptorEx_v2(desc_, layout, dtype, static_cast<int>(dims.size()),
                                           dims.data(), strides.data());
    if (status != CNNL_STATUS_SUCCESS) throw std::runtime_error("Desc: descriptor rejected");
  }
  struct Unset {};
  explicit Desc(Unset) { cnnlCreateTensorDescriptor(&desc_); }
  ~Desc() { cnnlDestroyTensorDescriptor(desc_); }
  Desc(const Desc &) = delete;
  Desc &operator=(const Desc &) = delete;
  operator cnnlTensorDescriptor_t() const { return desc_; }

 private:
  cnnlTensorDescriptor_t desc_ = nullptr;
};

// A float or half tensor on the device; the test holds it as floats (half
// values are rounded on the way up).
class DeviceTensor {
 public:
  DeviceTensor(cnnlTensorLayout_t layout, cnnlDataType_t dtype, const std::vector<int64_t> &dims,
               const std::vector<float> &values)
      : desc_(layout, dtype, dims),
        half_(dtype == CNNL_DTYPE_HALF),
        f_(half_ ? std::vector<float>{} : values),
        h_(half_ ? mlusim::harness::to_half(values) : std::vector<_Float16>{}) {}
  cnnlTensorDescriptor_t desc() const { return desc_; }
  void *ptr() const { return half_ ? static_cast<void *>(h_.get()) : static_cast<void *>(f_.get()); }
  std::vector<float> download() const {
    if (!half_) return f_.download();
    const auto h = h_.download();
    return std::vector<float>(h.begin(), h.end());
  }

 private:
  Desc desc_;
  bool half_;
  DeviceBuffer<float> f_;
  DeviceBuffer<_Float16> h_;
};

inline size_t count_of(const std::vector<int64_t> &dims) {
  size_t n = 1;
  for (int64_t d : dims) n *= static_cast<size_t>(d);
  return n;
}

// mlu-ops' accuracy bar for these operators' float cases: diff1 and diff2
// at most 3e-3 (the prototxt cases' thresholds).
inline void expect_close(const std::vector<float> &result, const std::vector<double> &baseline,
                         double threshold = 3e-3) {
  ASSERT_EQ(result.size(), baseline.size());
  const auto d = mlusim::harness::compare(mlusim::harness::to_double(result), baseline, 1e-6);
  // The measured accuracy, in the test's XML report (--gtest_output=xml).
  static int comparisons = 0;
  ::testing::Test::RecordProperty(
      "diffs_" + std::to_string(++comparisons),
      ::testing::PrintToString(std::vector<double>{d.diff1, d.diff2, d.diff3}));
  EXPECT_LE(d.diff1, threshold) << "diff2 " << d.diff2 << " diff3 " << d.diff3;
  EXPECT_LE(d.diff2, threshold) << "diff1 " << d.diff1 << " diff3 " << d.diff3;
}

// Runs `call` with the op logger captured: its status and the lines it logged.
template <typename Call>
std::pair<cnnlStatus_t, std::string> status_and_log(Call call) {
  mlusim::testing::OpLogCapture capture;
  const cnnlStatus_t status = call();
  return {status, capture.text()};
}

// The call fails with `status` and one log line naming `api` and `needle`.
#define EXPECT_REFUSED(expected_status, api, needle, call)                        \
  do {                                                                            \
    const auto [status_, log_] = ::cnnl_test::status_and_log([&] { return call; }); \
    EXPECT_EQ(status_, expected_status) << log_;                                  \
    EXPECT_NE(log_.find(std::string("[") + api + "]"), std::string::npos) << log_; \
    EXPECT_NE(log_.find(needle), std::string::npos) << log_;                      \
  } while (0)

}  // namespace cnnl_test
