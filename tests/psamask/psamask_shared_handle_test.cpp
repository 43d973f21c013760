// Two host threads calling psamask on one shared handle (so one queue): each
// gets its own correct output and operator report, equal to the same call made
// alone.
#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <memory>
#include <thread>
#include <vector>

#include "tests/common/setting_scope.h"
#include "tests/psamask/psamask_test.h"

namespace mluop::psamask::test {
namespace {

bool same_report(const mlusimReport_t &a, const mlusimReport_t &b) {
  return std::strcmp(a.name, b.name) == 0 && a.launches == b.launches &&
         a.device_time_us == b.device_time_us && a.io_efficiency == b.io_efficiency;
}

TEST(PsamaskSharedHandle, EachThreadGetsItsOwnResultAndReport) {
  const mlusim::testing::TimingScope timed("on");  // the reports differ by device time
  Handle handle;
  // Forward COLLECT calls, their tensors allocated up front: device memory is
  // not freed while the other thread's launch runs (cnrtFree would refuse it).
  const Problem problems[2] = {cases::random_problem(false, 0, {1, 6, 6, 3, 3}, 7),
                               cases::random_problem(false, 0, {2, 12, 10, 5, 5}, 8)};
  std::unique_ptr<DeviceProblem> calls[2];
  std::vector<float> alone_out[2];
  mlusimReport_t alone_report[2];
  for (int t = 0; t < 2; ++t) {
    calls[t] = std::make_unique<DeviceProblem>(problems[t]);
    ASSERT_EQ(calls[t]->run(handle), MLUOP_STATUS_SUCCESS);
    alone_out[t] = calls[t]->output();
    alone_report[t] = handle.last_op_report();
  }
  ASSERT_NE(alone_report[0].device_time_us, alone_report[1].device_time_us);

  std::atomic<int> wrong_output{0}, wrong_report{0};
  auto worker = [&](int t) {
    for (int i = 0; i < 8; ++i) {
      const mluOpStatus_t status = calls[t]->run(handle);
      const mlusimReport_t r = handle.last_op_report();
      if (status != MLUOP_STATUS_SUCCESS || calls[t]->output() != alone_out[t]) ++wrong_output;
      if (!same_report(r, alone_report[t])) ++wrong_report;
    }
  };
  std::thread a(worker, 0), b(worker, 1);
  a.join();
  b.join();
  EXPECT_EQ(wrong_output.load(), 0);
  EXPECT_EQ(wrong_report.load(), 0);
}

}  // namespace
}  // namespace mluop::psamask::test
