// The order the cores run in (runtime/schedule.h): MLUSIM_SCHEDULE makes a
// schedule-dependent result reproducible and names itself in fault reports;
// MLUSIM_SCHEDULES re-runs a launch under several orders from the same inputs
// and fails when the outputs differ.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "runtime/schedule.h"
#include "tests/runtime/launch_fault.h"

namespace {

using mlusim::Schedule;
using mlusim::harness::DeviceBuffer;
using mlusim::harness::expect_mentions;
using mlusim::harness::ScopedEnv;

TEST(Schedule, ParsesEveryOrderAndRejectsTheRest) {
  Schedule s;
  ASSERT_TRUE(mlusim::parse_schedule("random:42", &s));
  EXPECT_EQ(s.order, Schedule::Order::kRandom);
  EXPECT_EQ(s.seed, 42u);
  EXPECT_EQ(s.name(), "random:42");
  ASSERT_TRUE(mlusim::parse_schedule("reverse", &s));
  EXPECT_EQ(s.name(), "reverse");
  ASSERT_TRUE(mlusim::parse_schedule("random", &s));  // draws a seed, and says which
  EXPECT_EQ(s.name(), "random:" + std::to_string(s.seed));
  for (const char *bad : {"", "random:", "random:12x", "Ordered", "random:-1"})
    EXPECT_FALSE(mlusim::parse_schedule(bad, &s)) << bad;
}

// Every task stores its id into one word: the last to run wins (a race).
__mlu_global__ void last_writer_wins(int *word) {
  __nram_buffer__(int, id, 32);
  id[0] = taskId;
  __memcpy(word, id, sizeof(int), NRAM2GDRAM);
}

int winner_under(const char *schedule) {
  ScopedEnv order("MLUSIM_SCHEDULE", schedule);
  DeviceBuffer<int> word(std::vector<int>{-1});
  EXPECT_EQ(MLUSIM_LAUNCH(last_writer_wins, (cnrtDim3_t{8, 1, 1}), cnrtFuncTypeBlock, nullptr,
                          word.get()),
            cnrtSuccess)
      << mlusimGetLastError();
  return word.download()[0];
}

TEST(Schedule, OrderedAndReverseDecideARaceTheirWay) {
  ScopedEnv races("MLUSIM_RACES", "off");
  EXPECT_EQ(winner_under("ordered"), 7);
  EXPECT_EQ(winner_under("reverse"), 0);
}

TEST(Schedule, ARandomOrderIsReproducibleFromItsSeed) {
  ScopedEnv races("MLUSIM_RACES", "off");
  std::set<int> winners;
  for (int seed = 1; seed <= 16; ++seed) {
    const std::string name = "random:" + std::to_string(seed);
    const int winner = winner_under(name.c_str());
    EXPECT_EQ(winner_under(name.c_str()), winner) << name;
    winners.insert(winner);
  }
  EXPECT_GT(winners.size(), 2u) << "16 seeds should not all pick the same last core";
}

// Core 1 reads, with scalar code the race check cannot see, what core 0 wrote;
// only __sync_cluster makes that an ordered hand-over.
template <bool kSyncCluster>
__mlu_global__ void core1_reads_what_core0_wrote(int *handed, int *seen) {
  if (coreId == 0) handed[0] = 42;
  if (kSyncCluster) __sync_cluster();
  if (coreId == 1) seen[0] = handed[0];
}

int seen_by_core1(void (*kernel)(int *, int *), const char *schedule) {
  ScopedEnv order("MLUSIM_SCHEDULE", schedule);
  DeviceBuffer<int> handed(std::vector<int>{-1}), seen(std::vector<int>{-1});
  EXPECT_EQ(MLUSIM_LAUNCH(kernel, (cnrtDim3_t{4, 1, 1}), cnrtFuncTypeUnion1, nullptr,
                          handed.get(), seen.get()),
            cnrtSuccess)
      << mlusimGetLastError();
  return seen.download()[0];
}

TEST(Schedule, ReverseOrderExposesAMissingSyncCluster) {
  EXPECT_EQ(seen_by_core1(core1_reads_what_core0_wrote<false>, "ordered"), 42);
  EXPECT_EQ(seen_by_core1(core1_reads_what_core0_wrote<false>, "reverse"), -1);
  EXPECT_EQ(seen_by_core1(core1_reads_what_core0_wrote<true>, "reverse"), 42);
  EXPECT_EQ(seen_by_core1(core1_reads_what_core0_wrote<true>, "random:5"), 42);
}

TEST(Schedule, FaultReportsNameTheScheduleThatReproducesThem) {
  ScopedEnv order("MLUSIM_SCHEDULE", "random:7");
  DeviceBuffer<int> word(1);
  EXPECT_EQ(MLUSIM_LAUNCH(last_writer_wins, (cnrtDim3_t{2, 1, 1}), cnrtFuncTypeBlock, nullptr,
                          word.get()),
            cnrtErrorKernelFault);
  expect_mentions(mlusimGetLastError(),
                  {"GDRAM race", "[schedule random:7: MLUSIM_SCHEDULE=random:7 runs it again]"});
}

TEST(Schedule, ComparedSchedulesReportOutputsThatDiffer) {
  ScopedEnv races("MLUSIM_RACES", "off");
  ScopedEnv compare("MLUSIM_SCHEDULES", "ordered,reverse");
  DeviceBuffer<int> word(std::vector<int>{-1});
  EXPECT_EQ(MLUSIM_LAUNCH(last_writer_wins, (cnrtDim3_t{4, 1, 1}), cnrtFuncTypeBlock, nullptr,
                          word.get()),
            cnrtErrorKernelFault);
  // Little-endian ints: 3 (the last of four tasks) under ordered, 0 under reverse.
  expect_mentions(mlusimGetLastError(),
                  {"outputs depend on the order the cores run in", "differs in 1 bytes",
                   "first at +0x0", "03000000 under ordered", "00000000 under reverse"});
}

// Each task adds 1 to its own element, in place: a race-free kernel whose
// result shows how many times it ran on the same inputs.
__mlu_global__ void increment_own_element(int *data) {
  if (__is_mpu()) return;
  __nram_buffer__(int, value, 32);
  __memcpy(value, data + taskId, sizeof(int), GDRAM2NRAM);
  value[0] += 1;
  __memcpy(data + taskId, value, sizeof(int), NRAM2GDRAM);
}

TEST(Schedule, ComparedSchedulesOfARaceFreeKernelAgreeAndRunFromTheSameInputs) {
  ScopedEnv compare("MLUSIM_SCHEDULES", "ordered,reverse,random:3,random:4");
  DeviceBuffer<int> data(std::vector<int>{10, 20, 30, 40, 50, 60, 70, 80});
  ASSERT_EQ(MLUSIM_LAUNCH(increment_own_element, (cnrtDim3_t{4, 2, 1}), cnrtFuncTypeUnion1,
                          nullptr, data.get()),
            cnrtSuccess)
      << mlusimGetLastError();
  EXPECT_EQ(data.download(), (std::vector<int>{11, 21, 31, 41, 51, 61, 71, 81}));
}

TEST(Schedule, AMalformedListIsIgnored) {
  ScopedEnv compare("MLUSIM_SCHEDULES", "ordered,sideways");
  DeviceBuffer<int> data(std::vector<int>{1, 2});
  ASSERT_EQ(MLUSIM_LAUNCH(increment_own_element, (cnrtDim3_t{2, 1, 1}), cnrtFuncTypeBlock, nullptr,
                          data.get()),
            cnrtSuccess)
      << mlusimGetLastError();
  EXPECT_EQ(data.download(), (std::vector<int>{2, 3}));
}

}  // namespace
