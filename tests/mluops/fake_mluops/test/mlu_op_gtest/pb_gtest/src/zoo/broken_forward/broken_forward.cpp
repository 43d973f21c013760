// The test of broken_forward, whose kernel never builds.
#include "harness.h"

namespace fake_harness {

bool broken_forward(mluOpHandle_t handle, const Case &, Figures *figures) {
  figures->error = "broken_forward ran";
  return mluOpBrokenForward(handle, 1, nullptr) == MLUOP_STATUS_SUCCESS && false;
}

}  // namespace fake_harness
