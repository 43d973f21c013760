// The replay's model: every core's stream and pipes and the GDRAM transfers on
// one clock. Its parts define its functions, one concern a header: clock.h
// (the clock, which core or transfer moves next), pipes.h (placing a core's
// instructions on its pipes), stream.h (a core's stream: issue, fences,
// barriers, scalar code); it keeps its bandwidth (bandwidth.h) and atomics
// (atomics.h) in objects of their own. runtime/timing/replay.cpp defines its
// entry points.
//
// Internal to the replay: included by runtime/timing/replay.cpp only (see
// runtime/timing/replay/core.h).
#pragma once

#include <cstdint>
#include <functional>
#include <memory_resource>
#include <queue>
#include <unordered_map>
#include <vector>

#include "mlusim/bang/detail/steps.h"
#include "runtime/timing/replay.h"
#include "runtime/timing/replay/atomics.h"
#include "runtime/timing/replay/bandwidth.h"
#include "runtime/timing/replay/core.h"

namespace mlusim::timing {
namespace {

// A core's stream runs next at `time`; of two at the same time, the lower
// rank first (Model::rank: the lower or the higher core, Prices). (The order
// a pair would give, without its three-way comparison: the ready queue
// compares at every turn.)
struct Turn {
  double time;
  int rank;
  int core;
  bool operator>(const Turn &o) const { return time != o.time ? time > o.time : rank > o.rank; }
};

// A core at a barrier, with its own barrier step: at the release each core's
// wait names its own step (TraceEvent), never the last arrival's, which an
// untraced core's log may have released by the time the trace reads it. Only
// a traced core's step is read, and its log is kept whole (first_needed).
struct Arrival {
  int core;
  const Step *step;
};

struct Meeting {  // one barrier instance on its way to complete
  uint32_t arrived = 0;
  double latest = 0;
  std::vector<Arrival> arrivals;
};

// The replay itself. Its functions are all inline, in one translation unit:
// the per-step work is spread over them.
class Model {
 public:
  // Only the cores with an instruction to place (or a trace to keep) get a
  // replay state of their own, numbered in the launch's order (a lower
  // number still goes first at a tie). A core still recording may yet have
  // one.
  Model(const std::vector<CoreSteps> &input, const std::vector<uint8_t> &complete,
        const Prices &prices, bool keeps_trace);
  // Places what the steps recorded so far allow, from where the last call
  // stopped: the core it stopped at goes on first, as it would have then.
  // Stops after about `rounds` rounds of the clock (false: more to place).
  bool place(const std::vector<uint8_t> &complete, size_t rounds);
  // A traced core's events point at every step of it: its log is kept whole.
  size_t first_needed(size_t core) const;
  std::vector<CoreTiming> results();

 private:
  // ---- the entry points' own steps (replay.cpp) --------------------------------
  static int clusters_of(const std::vector<CoreSteps> &input);
  void add_core(size_t launch_index, const CoreSteps &c, bool traced);
  // When core `launch_index` starts: the dispatcher reaches the cores one
  // after another (Prices::dispatch_cycles).
  double dispatched_at(size_t launch_index) const {
    return prices_.dispatch_cycles * static_cast<double>(launch_index);
  }
  void take_recorded(const std::vector<uint8_t> &complete);
  void give_up();

  // ---- the global clock (clock.h) ------------------------------------------------
  bool advance();
  void schedule(int core);
  void schedule_all();
  bool others_first(int core, double t);
  int rank(int core) const { return prices_.higher_core_first ? -core : core; }
  bool complete_transfers();
  bool complete_transfers(Bandwidth &transfers);
  void mark_dirty(int core);
  size_t next_dirty(size_t from) const;
  void resolve_dirty();

  // ---- one core's instructions on its pipes (pipes.h) ----------------------------
  void place_all(int core);
  bool place(int core, Pipe p);
  [[gnu::always_inline]] inline bool place_next(int core, Core &k, Pipe p);
  double taken_at(const PipeRing &q, Pipe p, uint64_t seq) const;
  double ends_waited_for(const Core &k, Node &n);
  void price(int core, Core &k, Pipe p, uint64_t seq, Node &n);
  double take_blocks(const Node &n);
  void move_bytes(int core, Core &k, Pipe p, uint64_t seq, Node &n, double from);
  void move_next_behind(int core, Core &k, Pipe p, uint64_t seq, double end);
  void complete(int core, Pipe p, uint64_t seq, double end);
  void finish_node(Core &k, Node &n, double end);
  void retire(Core &k, Pipe p);

  // ---- one core's stream (stream.h) ----------------------------------------------
  bool ends_without_instructions(const CoreSteps &c, double start, CoreTiming &out) const;
  void run_core(int core);
  bool run_scalar_code(Core &k, const Step &s);
  double scalar_code_start(Core &k, const Step &s);
  void wait(Core &k, const Step &s, double until);
  void issue(int core, Core &k, const Step &s);
  bool has_room(Core &k, const Step &s);
  void find_dependencies(Core &k, const Step &s, Node &n);
  uint64_t oldest_running_sync(Core &k, Pipe p);
  void fence(Core &k, const Step &s);
  void arrive(int core, const Step &s);
  void finish(Core &k);

  const Prices prices_;
  size_t recorded_ = 0, rounds_ = 0;  // steps given to place(), rounds of advance()
  bool gave_up_ = false;
  int starved_ = -1;  // the core whose next step place() waits for, or -1
  // The pipe rings' room (declared before the cores, so it outlives them).
  std::pmr::monotonic_buffer_resource ring_arena_;
  std::vector<CoreTiming> out_;       // per core of the launch
  std::vector<size_t> launch_index_;  // per replayed core, its index in the launch
  std::vector<int> replayed_;         // per core of the launch, its replayed index or -1
  std::vector<Core> cores_;           // the cores with an instruction to place
  std::vector<uint64_t> dirty_;  // a bit per core (a scan over the bits skips the clean ones)
  double now_ = 0;
  using ReadyQueue = std::priority_queue<Turn, std::vector<Turn>, std::greater<>>;
  ReadyQueue ready_;  // cores whose stream runs next, by time
  Bandwidth bandwidth_;  // GDRAM's
  Bandwidth sram_;       // the clusters' SRAM ports
  std::unordered_map<uint64_t, Meeting> meetings_;
  AtomicOrder atomics_;
};

}  // namespace
}  // namespace mlusim::timing
