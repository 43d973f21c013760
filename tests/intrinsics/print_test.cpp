// __bang_printf writes what printf would, half arguments included.
#include <cstdio>

#include "tests/intrinsics/support.h"

namespace intrinsics_test {
namespace {

__mlu_global__ void say(half h) {
  __bang_printf("core %d\n", coreId);
  __bang_printf("half %.3f float %.1f\n", h, 2.5f);
  __bang_printf("done\n");
  std::fflush(stdout);
}

TEST(Print, BangPrintfFormatsLikePrintf) {
  ::testing::internal::CaptureStdout();
  run_on_one_core(say, half(0.375));
  EXPECT_EQ(::testing::internal::GetCapturedStdout(), "core 0\nhalf 0.375 float 2.5\ndone\n");
}

}  // namespace
}  // namespace intrinsics_test
