// Shared by the runtime's check tests (memory guard, fill, watchdog, races,
// schedules): set a check's environment for one test, and see that the device
// still works after a fault (kernels launch as tests/common/launch_error.h
// reads them).
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "harness/harness.h"
#include "tests/common/launch_error.h"

namespace mlusim::harness {

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

// After a fault, the device still works: a correct UNION1 launch succeeds and
// is right (tests/runtime/launch_fault.mlu).
void expect_device_works();

}  // namespace mlusim::harness
