// Two host threads calling psamask on one shared handle (so one queue): each
// gets its own correct output and operator report, equal to the same call made
// alone.
#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <thread>
#include <vector>

#include "tests/psamask/psamask_test_util.h"

namespace psamask_test {
namespace {

TEST(PsamaskSharedHandle, EachThreadGetsItsOwnResultAndReport) {
  Handle handle;
  const Dims dims[2] = {{1, 6, 6, 3, 3}, {2, 12, 10, 5, 5}};
  std::vector<float> inputs[2];
  Outcome alone[2];
  mlusimReport_t alone_report[2];
  mlusim::testing::Random rng(7);
  for (int t = 0; t < 2; ++t) {
    const Dims &d = dims[t];
    inputs[t] = rng.floats(size_t(d.num) * d.h_feature * d.w_feature * d.h_mask * d.w_mask, -1, 1);
    alone[t] = run(handle, false, t, d, inputs[t]);
    ASSERT_EQ(alone[t].status, MLUOP_STATUS_SUCCESS);
    alone_report[t] = handle.last_op_report();
  }
  ASSERT_NE(alone_report[0].device_time_us, alone_report[1].device_time_us);

  std::atomic<int> wrong_output{0}, wrong_report{0};
  auto worker = [&](int t) {
    for (int i = 0; i < 8; ++i) {
      const Outcome o = run(handle, false, t, dims[t], inputs[t]);
      const mlusimReport_t r = handle.last_op_report();
      if (o.status != MLUOP_STATUS_SUCCESS || o.out != alone[t].out) ++wrong_output;
      if (std::strcmp(r.name, alone_report[t].name) != 0 ||
          r.launches != alone_report[t].launches ||
          r.device_time_us != alone_report[t].device_time_us ||
          r.io_efficiency != alone_report[t].io_efficiency)
        ++wrong_report;
    }
  };
  std::thread a(worker, 0), b(worker, 1);
  a.join();
  b.join();
  EXPECT_EQ(wrong_output.load(), 0);
  EXPECT_EQ(wrong_report.load(), 0);
}

}  // namespace
}  // namespace psamask_test
