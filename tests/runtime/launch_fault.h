// Shared by the runtime's check tests (memory guard, fill, watchdog, races,
// schedules): launch a kernel on one cluster and get its fault message, and
// set a check's environment for one test.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <initializer_list>
#include <string>

#include "ops/common/kernel.h"
#include "runtime/launch.h"
#include "harness/harness.h"

namespace mlusim::harness {

// Launches `kernel` on the four cores of one cluster (UNION1; the memory core
// runs nothing, as with mlu-ops' `if (__is_mpu()) return;`); returns the fault
// message, or "" if the launch succeeded.
template <typename... Params, typename... Args>
std::string fault_of(void (*kernel)(Params...), Args... args) {
  const cnrtRet_t ret =
      mlusim::launch_kernel("kernel_under_test", cnrtDim3_t{4, 1, 1}, cnrtFuncTypeUnion1, nullptr,
                            [&] {
                              if (!__is_mpu()) kernel(args...);
                            });
  EXPECT_TRUE(ret == cnrtSuccess || ret == cnrtErrorKernelFault) << "launch returned " << ret;
  return ret == cnrtErrorKernelFault ? mlusimGetLastError() : "";
}

inline void expect_mentions(const std::string &msg, std::initializer_list<const char *> parts) {
  ASSERT_FALSE(msg.empty()) << "the launch did not fault";
  for (const char *p : parts) EXPECT_NE(msg.find(p), std::string::npos) << p << " not in: " << msg;
}

// Sets an environment variable for one test (ctest runs each test in a
// process of its own), unset after.
class ScopedEnv {
 public:
  ScopedEnv(const char *name, const char *value) : name_(name) { setenv(name, value, 1); }
  ~ScopedEnv() { unsetenv(name_); }
  ScopedEnv(const ScopedEnv &) = delete;
  ScopedEnv &operator=(const ScopedEnv &) = delete;

 private:
  const char *name_;
};

// Sets the fill pattern and the GDRAM guard for one test, the previous ones after,
// so that tests do not depend on MLUSIM_FILL or MLUSIM_GDRAM_GUARD.
class CheckSettings {
 public:
  CheckSettings(const char *fill, bool gdram_guard)
      : fill_(mlusimGetMemoryFill()), guard_(mlusimGetGdramGuard()) {
    EXPECT_EQ(mlusimSetMemoryFill(fill), cnrtSuccess);
    mlusimSetGdramGuard(gdram_guard);
  }
  ~CheckSettings() {
    const std::string fill = fill_ < 0 ? "off" : std::to_string(fill_);
    mlusimSetMemoryFill(fill.c_str());
    mlusimSetGdramGuard(guard_);
  }
  CheckSettings(const CheckSettings &) = delete;
  CheckSettings &operator=(const CheckSettings &) = delete;

 private:
  int fill_, guard_;
};

// A correct kernel: task t stores t + 1 in out[t] through NRAM.
__mlu_global__ inline void stores_task_ids(float *out) {
  __nram_buffer__(float, value, 32);
  __bang_write_value(value, 32, static_cast<float>(taskId + 1));
  __memcpy(out + taskId, value, sizeof(float), NRAM2GDRAM);
}

// After a fault, the device still works: a correct launch succeeds and is right.
inline void expect_device_works() {
  DeviceBuffer<float> out(4);
  EXPECT_EQ(fault_of(stores_task_ids, out.get()), "");
  EXPECT_EQ(out.download(), (std::vector<float>{1, 2, 3, 4}));
}

}  // namespace mlusim::harness
