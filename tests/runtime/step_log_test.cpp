// A core's step log against a plain vector of the same steps: every step it
// still holds reads back as written, and the chunks released come back as
// room, so a log released as it goes stays a few chunks long.
#include <gtest/gtest.h>

#include <vector>

#include "mlusim/bang/detail/step_log.h"

namespace {

using mlusim::Step;
using mlusim::StepLog;

Step numbered(uint64_t i) { return Step{.op = "step", .detail = "", .amount = i * 7 + 1}; }

void record(StepLog &log, uint64_t i) {
  if (log.full()) log.add_chunk();
  log.push(numbered(i));
}

TEST(StepLog, ReadsBackWhatItHolds) {
  StepLog log;
  std::vector<Step> plain;
  const size_t steps = 5 * StepLog::kChunkSteps + 17;
  for (uint64_t i = 0; i < steps; ++i) {
    record(log, i);
    plain.push_back(numbered(i));
  }
  ASSERT_EQ(log.size(), plain.size());
  for (size_t i = 0; i < steps; ++i) ASSERT_EQ(log[i].amount, plain[i].amount) << i;
  log.release_before(2 * StepLog::kChunkSteps + 5);  // whole chunks only
  EXPECT_EQ(log.first_held(), 2 * StepLog::kChunkSteps);
  for (size_t i = log.first_held(); i < steps; ++i) ASSERT_EQ(log[i].amount, plain[i].amount) << i;
}

TEST(StepLog, KeepsTheChunkBeingWritten) {
  StepLog log;
  for (uint64_t i = 0; i < StepLog::kChunkSteps; ++i) record(log, i);
  log.release_before(log.size());  // the one chunk is full, and still the one at hand
  EXPECT_EQ(log.first_held(), 0u);
  record(log, StepLog::kChunkSteps);
  EXPECT_EQ(log[StepLog::kChunkSteps].amount, numbered(StepLog::kChunkSteps).amount);
}

TEST(StepLog, ReleasedChunksBecomeRoom) {
  StepLog log;
  for (uint64_t i = 0; i < 100 * StepLog::kChunkSteps; ++i) {
    record(log, i);
    if (i % StepLog::kChunkSteps == 0) log.release_before(log.size() - 1);
  }
  EXPECT_LE(log.chunks(), 3u);
  EXPECT_EQ(log[log.size() - 1].amount, numbered(log.size() - 1).amount);
  log.clear(1);
  EXPECT_EQ(log.size(), 0u);
  EXPECT_EQ(log.chunks(), 1u);
  record(log, 3);  // into the chunk kept at hand
  EXPECT_EQ(log[0].amount, numbered(3).amount);
  EXPECT_EQ(log.chunks(), 1u);
}

}  // namespace
