// A test that needs another choice of one of mlusim's settings (a
// mlusimSet* call taking a name, NULL restoring the environment's): chosen
// for the scope's life, the environment's restored after.
#pragma once

#include <gtest/gtest.h>

#include "mlusim.h"

namespace mlusim::testing {

template <cnrtRet_t (*Set)(const char *)>
class SettingScope {
 public:
  explicit SettingScope(const char *choice) { EXPECT_EQ(Set(choice), cnrtSuccess); }
  ~SettingScope() { Set(nullptr); }
  SettingScope(const SettingScope &) = delete;
  SettingScope &operator=(const SettingScope &) = delete;
};

// MLUSIM_HAZARDS (docs/finding_bugs.md).
using HazardModeScope = SettingScope<mlusimSetHazards>;
// MLUSIM_TIMING: a test that reads the error bar asks for "bars".
using TimingScope = SettingScope<mlusimSetTiming>;

}  // namespace mlusim::testing
