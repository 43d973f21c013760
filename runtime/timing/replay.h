// The timing model: places the steps every core of a launch recorded
// (include/mlusim/bang/detail/steps.h) in simulated time, all cores together,
// as docs/cost_model.md describes. Each core's stream issues one step per
// cycle; each pipe runs its instructions in order, an instruction starting once
// its pipe takes it and the synchronous instructions of other pipes it depends
// on through memory have ended; fences and barriers hold the stream; GDRAM
// transfers share the device's and their cluster's bandwidth with whatever
// else moves GDRAM data at the same moment. Deterministic: the same steps and
// prices give the same times, however the host ran the cores.
#pragma once

#include <memory>
#include <vector>

#include "mlusim/bang/detail/core.h"

namespace mlusim::timing {

// The model's prices, in cycles of the core clock (runtime/timing/prices.h
// derives them from the device).
struct Prices {
  double gdram_bytes_per_cycle = 0;    // the whole device
  double cluster_bytes_per_cycle = 0;  // the most one cluster draws
  double onchip_bytes_per_cycle = 0;
  double sram_bytes_per_cycle = 0;  // a cluster's SRAM port
  double vector_bytes_per_cycle = 0;
  double matrix_macs_per_cycle[kMatrixRates] = {};
  double gdram_latency = 0, atomic_latency = 0, onchip_latency = 0, vector_latency = 0;
  double barrier_latency = 0;
  double atomic_hold = 0;  // an atomic holds each 64-byte block it covers this long
  double issue_cycles = 1;
  // The cores of a launch start one after another, this far apart, in the
  // order of their index (DeviceSpec::dispatch_cycles).
  double dispatch_cycles = 0;
  // Synchronous instructions one pipe holds before the stream stalls (an
  // estimate; the run's hazard window keeps kPipeQueueDepth whatever it is).
  uint32_t pipe_queue_depth = kPipeQueueDepth;
  // The DMA queues' rules (guide 5.3.3): requests one queue has under way at
  // once (their latencies overlap, their bytes move one request after
  // another); the bandwidth a written GDRAM byte takes beyond a read one; what
  // each segment of a strided GDRAM access costs beyond its blocks, in bytes
  // of bandwidth.
  uint32_t dma_in_flight = 1;
  double gdram_write_extra = 0;
  double gdram_segment_bytes = 0;
  double scalar_scale = 1;  // the steps' scalar cycles are at the fitted prices
  // Which core goes first at a tie (two atomics reaching one block at one
  // cycle): the lower-numbered, or with this the higher. The board's
  // arbitration is not documented; the error bar takes both.
  bool higher_core_first = false;
};

// One instruction (or stretch of waiting) of a traced core, in cycles.
struct TraceEvent {
  const Step *step;  // what it was; the stream's own waits name the step that waited
  uint8_t lane;      // a Pipe, or kStreamLane
  double issue;      // when the stream issued it
  double ready;      // when its pipe took it, or scalar code could run (start > ready: it
                     // waited on a dependency)
  double start, end;
  bool scalar;  // on the stream's lane: scalar code before `step`
};

struct CoreSteps {
  const StepLog *steps;
  int cluster;  // whose bandwidth cap its GDRAM transfers count against
  bool traced;
  // A memory core's NRAM and WRAM scratch: its steps there were skipped
  // (runtime/memory_core.h) and take no time. Empty on a compute core.
  AddressRange scratch[2];
  uintptr_t nram = 0;  // the core's NRAM, where its steps' scalar spans count from
};

struct CoreTiming {
  double finish = 0;  // its last step done and every pipe drained
  double pipe_busy[kPipeCount] = {};
  std::vector<TraceEvent> events;  // traced cores only
};

class ReplayState;

// Places the steps of a launch's cores while they are being recorded: each
// place() goes as far as the steps recorded so far allow and stops where it
// needs a core's next step, which it takes up from that very point at the
// next call. The times are those of one replay of all the steps at once,
// however they came in.
class Replay {
 public:
  // `cores` outlives the replay; only a replay that keeps_trace keeps the
  // traced cores' events.
  Replay(const std::vector<CoreSteps> &cores, const Prices &prices, bool keeps_trace);
  ~Replay();
  Replay(Replay &&) noexcept;
  Replay(const Replay &) = delete;
  Replay &operator=(const Replay &) = delete;

  // complete[i]: core i records no more steps. Stops after about `rounds`
  // rounds of the model's clock; false if there is more to place then.
  bool place(const std::vector<uint8_t> &complete, size_t rounds);
  // The first step of core i the replay may still read (a trace's events
  // point at every step of their core: traced cores' logs are kept whole).
  size_t first_needed(size_t core) const;
  // Once every core is complete (all of `complete` set): each core's timing.
  std::vector<CoreTiming> finish(const std::vector<uint8_t> &complete);

 private:
  const std::vector<CoreSteps> *cores_;
  Prices prices_;
  bool keeps_trace_;
  std::unique_ptr<ReplayState> state_;  // from the first place() on
};

}  // namespace mlusim::timing
