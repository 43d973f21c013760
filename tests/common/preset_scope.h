// A test that needs another device preset: selected for the scope's life,
// the device before it restored after.
#pragma once

#include <gtest/gtest.h>

#include "mlusim.h"

namespace mlusim::testing {

class PresetScope {
 public:
  explicit PresetScope(const char *name) {
    mlusimGetDeviceSpec(&saved_);
    EXPECT_EQ(mlusimSetDevicePreset(name), cnrtSuccess);
  }
  ~PresetScope() { mlusimSetDeviceSpec(&saved_); }
  PresetScope(const PresetScope &) = delete;
  PresetScope &operator=(const PresetScope &) = delete;

 private:
  mlusimDeviceSpec_t saved_{};
};

// The MLU270 keeps the MLU200 operand rules (vector operands 64-byte aligned
// in whole 128-byte granules), which MLU300 cores do not have.
inline const char *const kMlu200Preset = "MLU270";

}  // namespace mlusim::testing
