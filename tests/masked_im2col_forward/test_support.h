// What the masked_im2col_forward, permute and fill tests share: a scoped
// device switch, output buffers with guard bands, bit-exact comparison.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <functional>
#include <vector>

#include "mlusim.h"
#include "harness/harness.h"

namespace mif_test {

// Switches the simulated device for one test, restores it on exit.
class ScopedDevice {
 public:
  explicit ScopedDevice(const std::function<void(mlusimDeviceSpec_t &)> &change) {
    mlusimGetDeviceSpec(&saved_);
    mlusimDeviceSpec_t spec = saved_;
    change(spec);
    EXPECT_EQ(mlusimSetDeviceSpec(&spec), cnrtSuccess);
  }
  ~ScopedDevice() { mlusimSetDeviceSpec(&saved_); }
  ScopedDevice(const ScopedDevice &) = delete;
  ScopedDevice &operator=(const ScopedDevice &) = delete;

 private:
  mlusimDeviceSpec_t saved_;
};

// One cluster with 8 KB of usable NRAM: every NRAM split of the kernels runs.
inline void tiny_nram(mlusimDeviceSpec_t &s) {
  s.clusters = 1;
  s.nram_bytes = s.stack_reserve_bytes + 8 * 1024;
}

// `count` elements of device memory between two guard bands, all of it
// filled with a byte pattern first (0xFF: NaN in half and float).
template <typename T>
class GuardedBuffer {
 public:
  static constexpr size_t kGuard = 256;

  explicit GuardedBuffer(size_t count, uint8_t pattern = 0xFF)
      : count_(count), buffer_(count + 2 * kGuard) {
    std::vector<T> init(buffer_.size());
    std::memset(static_cast<void *>(init.data()), pattern, init.size() * sizeof(T));
    buffer_.upload(init);
    initial_ = init;
  }
  T *get() const { return buffer_.get() + kGuard; }
  size_t size() const { return count_; }
  std::vector<T> download() const {
    std::vector<T> all = buffer_.download();
    return std::vector<T>(all.begin() + kGuard, all.begin() + kGuard + count_);
  }
  // True when neither guard band changed.
  bool guards_intact() const {
    std::vector<T> all = buffer_.download();
    const size_t tail = kGuard + count_;
    return std::memcmp(all.data(), initial_.data(), kGuard * sizeof(T)) == 0 &&
           std::memcmp(all.data() + tail, initial_.data() + tail, kGuard * sizeof(T)) == 0;
  }
  // True when nothing at all changed.
  bool untouched() const {
    std::vector<T> all = buffer_.download();
    return std::memcmp(all.data(), initial_.data(), all.size() * sizeof(T)) == 0;
  }

 private:
  size_t count_;
  mlusim::harness::DeviceBuffer<T> buffer_;
  std::vector<T> initial_;
};

// Index of the first element whose bits differ, -1 when all agree.
template <typename T>
long first_bit_difference(const std::vector<T> &a, const std::vector<T> &b) {
  if (a.size() != b.size()) return 0;
  for (size_t i = 0; i < a.size(); ++i)
    if (std::memcmp(&a[i], &b[i], sizeof(T)) != 0) return static_cast<long>(i);
  return -1;
}

// Whether anything was ever launched on this queue.
inline bool anything_launched(cnrtQueue_t queue) {
  mlusimReport_t r{};
  mlusimGetLastLaunchReport(queue, &r);
  return r.launches != 0;
}

}  // namespace mif_test
