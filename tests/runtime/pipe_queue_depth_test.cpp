// A pipe holds a number of synchronous instructions before the stream stalls
// (docs/cost_model.md: an estimate, 16, at half and double it at the error
// bar's ends). One core's steps, replayed: 24 long vector instructions, then
// a GDRAM load on the IO pipe that depends on none of them. With room for all
// 24 the stream issues one a cycle and the load at cycle 24; with room for 16,
// the 24th waits for the 8th to end, and the load comes a cycle after it.
#include <gtest/gtest.h>

#include <vector>

#include "mlusim.h"
#include "mlusim/bang/detail/step_log.h"
#include "runtime/timing/prices.h"
#include "runtime/timing/replay.h"

namespace {

using mlusim::Step;
using mlusim::StepKind;
using mlusim::StepLog;
using mlusim::timing::CoreSteps;
using mlusim::timing::Prices;
using mlusim::timing::Replay;
using mlusim::timing::TraceEvent;

constexpr int kVectorSteps = 24;
constexpr uintptr_t kNram = 0x100000, kGdram = 0x40000000;
constexpr uint64_t kVectorBytes = 64 * 1024, kLoadBytes = 4096;

void log_steps(StepLog &log) {
  const auto push = [&log](const Step &s) {
    if (log.full()) log.add_chunk();
    log.push(s);
  };
  for (int i = 0; i < kVectorSteps; ++i) {  // each on buffers of its own
    const uintptr_t at = kNram + static_cast<uintptr_t>(i) * kVectorBytes;
    push(Step{.op = "__bang_add", .detail = "float",
              .access = {at, at + kVectorBytes, at, at + kVectorBytes, 0, 0},
              .amount = kVectorBytes});
  }
  const uintptr_t to = kNram + kVectorSteps * kVectorBytes;
  push(Step{.op = "__memcpy GDRAM2NRAM", .detail = "GDRAM2NRAM",
            .access = {to, to + kLoadBytes, kGdram, kGdram + kLoadBytes, 0, 0},
            .amount = kLoadBytes,
            .blocks = {.read = kLoadBytes / 64},
            .kind = StepKind::kGdramCopy,
            .pipe = mlusim::kIoPipe});
}

// The traced core's events under `prices`, in issue order.
std::vector<TraceEvent> replayed(const Prices &prices, const StepLog &log) {
  const std::vector<CoreSteps> cores{CoreSteps{&log, 0, true, {}, kNram}};
  Replay replay(cores, prices, true);
  const std::vector<uint8_t> complete{1};
  std::vector<mlusim::timing::CoreTiming> timing = replay.finish(complete);
  std::vector<TraceEvent> instructions;
  for (const TraceEvent &e : timing[0].events)
    if (e.lane != mlusim::kStreamLane) instructions.push_back(e);
  return instructions;
}

Prices prices_with_depth(uint32_t depth) {
  mlusimDeviceSpec_t spec;
  mlusimGetDeviceSpec(&spec);
  Prices p = mlusim::timing::prices_of(spec);
  p.pipe_queue_depth = depth;
  return p;
}

TEST(PipeQueueDepth, TheStreamStallsWhenAPipeHoldsAsManyAsItsDepth) {
  StepLog log;
  log_steps(log);
  const Prices roomy = prices_with_depth(32), shallow = prices_with_depth(16);

  const std::vector<TraceEvent> all_fit = replayed(roomy, log);
  ASSERT_EQ(all_fit.size(), kVectorSteps + 1u);
  EXPECT_DOUBLE_EQ(all_fit.back().issue, kVectorSteps * roomy.issue_cycles);

  const std::vector<TraceEvent> stalled = replayed(shallow, log);
  ASSERT_EQ(stalled.size(), kVectorSteps + 1u);
  const double eighth_ends = stalled[kVectorSteps - 16 - 1].end;
  EXPECT_GT(eighth_ends, kVectorSteps * shallow.issue_cycles);  // a stall, not a tie
  EXPECT_DOUBLE_EQ(stalled.back().issue, eighth_ends + shallow.issue_cycles);
}

TEST(PipeQueueDepth, TheErrorBarsEndsHalveAndDoubleIt) {
  mlusimDeviceSpec_t spec;
  mlusimGetDeviceSpec(&spec);
  using mlusim::timing::Estimates;
  EXPECT_EQ(mlusim::timing::prices_of(spec, Estimates::kAsFitted).pipe_queue_depth, 16u);
  EXPECT_EQ(mlusim::timing::prices_of(spec, Estimates::kLow).pipe_queue_depth, 32u);
  EXPECT_EQ(mlusim::timing::prices_of(spec, Estimates::kHigh).pipe_queue_depth, 8u);
}

}  // namespace
