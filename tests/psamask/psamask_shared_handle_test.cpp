// Two host threads calling psamask on one shared handle (so one queue): each
// gets its own correct output and operator report, equal to the same call made
// alone.
#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <memory>
#include <thread>
#include <vector>

#include "tests/psamask/psamask_test_util.h"

namespace psamask_test {
namespace {

// One forward COLLECT call's tensors, allocated up front: device memory is not
// freed while the other thread's launch runs (cnrtFree would refuse it).
struct Call {
  Dims d;
  TensorDesc x_desc, y_desc;
  DeviceBuffer<float> x, y;
  Call(const Dims &dims, const std::vector<float> &input)
      : d(dims),
        x_desc(MLUOP_LAYOUT_NHWC, MLUOP_DTYPE_FLOAT, mask_shape(dims)),
        y_desc(MLUOP_LAYOUT_NHWC, MLUOP_DTYPE_FLOAT, feature_shape(dims)),
        x(input),
        y(y_desc.elements()) {}
  mluOpStatus_t run(mluOpHandle_t handle) {
    return mluOpPsamaskForward(handle, 0, x_desc, x.get(), d.h_mask, d.w_mask, y_desc, y.get());
  }
};

bool same_report(const mlusimReport_t &a, const mlusimReport_t &b) {
  return std::strcmp(a.name, b.name) == 0 && a.launches == b.launches &&
         a.device_time_us == b.device_time_us && a.io_efficiency == b.io_efficiency;
}

TEST(PsamaskSharedHandle, EachThreadGetsItsOwnResultAndReport) {
  Handle handle;
  const Dims dims[2] = {{1, 6, 6, 3, 3}, {2, 12, 10, 5, 5}};
  mlusim::harness::Random rng(7);
  std::unique_ptr<Call> calls[2];
  std::vector<float> alone_out[2];
  mlusimReport_t alone_report[2];
  for (int t = 0; t < 2; ++t) {
    const Dims &d = dims[t];
    calls[t] = std::make_unique<Call>(
        d, rng.floats(size_t(d.num) * d.h_feature * d.w_feature * d.h_mask * d.w_mask, -1, 1));
    ASSERT_EQ(calls[t]->run(handle), MLUOP_STATUS_SUCCESS);
    alone_out[t] = calls[t]->y.download();
    alone_report[t] = handle.last_op_report();
  }
  ASSERT_NE(alone_report[0].device_time_us, alone_report[1].device_time_us);

  std::atomic<int> wrong_output{0}, wrong_report{0};
  auto worker = [&](int t) {
    for (int i = 0; i < 8; ++i) {
      const mluOpStatus_t status = calls[t]->run(handle);
      const mlusimReport_t r = handle.last_op_report();
      if (status != MLUOP_STATUS_SUCCESS || calls[t]->y.download() != alone_out[t]) ++wrong_output;
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
}  // namespace psamask_test
