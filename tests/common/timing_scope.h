// A test that reads the error bar asks for it (MLUSIM_TIMING=bars) for the
// scope's life; the environment's choice is restored after.
#pragma once

#include <gtest/gtest.h>

#include "mlusim.h"

namespace mlusim::testing {

class TimingScope {
 public:
  explicit TimingScope(const char *mode) { EXPECT_EQ(mlusimSetTiming(mode), cnrtSuccess); }
  ~TimingScope() { mlusimSetTiming(nullptr); }
  TimingScope(const TimingScope &) = delete;
  TimingScope &operator=(const TimingScope &) = delete;
};

}  // namespace mlusim::testing
