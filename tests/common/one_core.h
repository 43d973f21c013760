// Runs a C++ test kernel (written with ops/common/kernel.h) as one BLOCK task.
#pragma once

#include <gtest/gtest.h>

#include "mlusim.h"
#include "runtime/launch.h"

namespace mlusim::harness {

// Launches `kernel` on one core; a launch error or fault fails the test.
template <typename... Params, typename... Args>
void run_on_one_core(void (*kernel)(Params...), Args... args) {
  const cnrtRet_t ret = mlusim::launch("intrinsic_test", cnrtDim3_t{1, 1, 1}, cnrtFuncTypeBlock,
                                       nullptr, kernel, args...);
  if (ret != cnrtSuccess) ADD_FAILURE() << mlusimGetLastError();
}

}  // namespace mlusim::harness
