// Kernel launch: built-in variables, task split, barriers, faults and deadlocks.
#include <gtest/gtest.h>

#include <atomic>
#include <string>

#include "runtime/bang.h"
#include "runtime/launch.h"
#include "tests/common/testing.h"

namespace {

using mlusim::testing::DeviceBuffer;

__mlu_global__ void record_ids(int *out) {
  out[taskId * 6 + 0] = taskIdX;
  out[taskId * 6 + 1] = taskIdY;
  out[taskId * 6 + 2] = taskIdZ;
  out[taskId * 6 + 3] = taskDim;
  out[taskId * 6 + 4] = coreId;
  out[taskId * 6 + 5] = clusterId;
}

TEST(Launch, BuiltinVariablesFollowBangNumbering) {
  cnrtDim3_t dim{4, 3, 2};
  DeviceBuffer<int> out(24 * 6);
  ASSERT_EQ(MLUSIM_LAUNCH(record_ids, dim, cnrtFuncTypeUnion1, nullptr, out.get()), cnrtSuccess);
  auto ids = out.download();
  for (int t = 0; t < 24; ++t) {
    EXPECT_EQ(ids[t * 6 + 0], t % 4);
    EXPECT_EQ(ids[t * 6 + 1], (t / 4) % 3);
    EXPECT_EQ(ids[t * 6 + 2], t / 12);
    EXPECT_EQ(ids[t * 6 + 3], 24);
    EXPECT_EQ(ids[t * 6 + 4], t % 4);
    EXPECT_EQ(ids[t * 6 + 5], t / 4);
  }
}

}  // namespace
