// A test that needs another MLUSIM_HAZARDS mode: set for the scope's life,
// the environment's restored after.
#pragma once

#include <gtest/gtest.h>

#include "mlusim.h"

namespace mlusim::testing {

class HazardModeScope {
 public:
  explicit HazardModeScope(const char *mode) { EXPECT_EQ(mlusimSetHazards(mode), cnrtSuccess); }
  ~HazardModeScope() { mlusimSetHazards(nullptr); }
  HazardModeScope(const HazardModeScope &) = delete;
  HazardModeScope &operator=(const HazardModeScope &) = delete;
};

}  // namespace mlusim::testing
