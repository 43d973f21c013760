// mlu-ops' border_align_backward accepts any pool_size > 0 (its design sets no
// upper limit) and visits pool_size + 1 points per border: pool_size 2.4e7
// would run for hours. The watchdog ends the call with EXECUTION_FAILED and a
// report naming the intrinsic in the loop; the next call works.
#include <gtest/gtest.h>

#include <string>

#include "tests/border_align_backward/border_align_backward_test.h"

namespace mluop::border_align_backward::test {
namespace {

TEST(BorderAlignBackwardWatchdog, HugePoolSizeIsStoppedNotHung) {
  const double saved = mlusimGetWatchdogSeconds();
  ASSERT_EQ(mlusimSetWatchdogSeconds(0.5), cnrtSuccess);
  Handle handle;
  DeviceProblem<float> huge(random_problem({1, 2, 2, 8, 24000000}, 7));
  EXPECT_EQ(huge.run(handle), MLUOP_STATUS_EXECUTION_FAILED);
  const std::string report = mlusimGetLastError();
  EXPECT_NE(report.find("watchdog: kernel 'MLUKernelBorderAlignBackward<T>' did not finish"),
            std::string::npos)
      << report;
  EXPECT_NE(report.find("last intrinsic __bang"), std::string::npos) << report;
  DeviceProblem<float> usual(random_problem({1, 2, 2, 8, 10}, 7));
  EXPECT_EQ(usual.run(handle), MLUOP_STATUS_SUCCESS) << mlusimGetLastError();
  mlusimSetWatchdogSeconds(saved);
}

}  // namespace
}  // namespace mluop::border_align_backward::test
