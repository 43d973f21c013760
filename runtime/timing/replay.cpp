#include "runtime/timing/replay.h"

#include <algorithm>
#include <bit>
#include <functional>
#include <limits>
#include <memory_resource>
#include <queue>
#include <unordered_map>

#include "mlusim/bang/detail/steps.h"
#include "runtime/logging.h"
#include "runtime/timing/replay/atomics.h"
#include "runtime/timing/replay/bandwidth.h"
#include "runtime/timing/replay/core.h"
#include "runtime/timing/replay/costs.h"

namespace mlusim::timing {
namespace {

constexpr uint32_t kQueueDepth = kPipeQueueDepth;

bool is_instruction(StepKind k) {
  return k == StepKind::kVector || k == StepKind::kTensor || k == StepKind::kOnchipCopy ||
         k == StepKind::kGdramCopy || k == StepKind::kAtomic;
}

// The DMA queues keep several requests under way (Prices::dma_in_flight); the
// compute pipes run one instruction at a time.
bool is_dma(int pipe) { return pipe == kIoPipe || pipe == kMovePipe; }

// A core's stream runs next at `time`; of two at the same time, the lower
// core first. (The order a pair would give, without its three-way
// comparison: the ready queue compares at every turn.)
struct Turn {
  double time;
  int core;
  bool operator>(const Turn &o) const { return time != o.time ? time > o.time : core > o.core; }
};

struct Meeting {  // one barrier instance on its way to complete
  uint32_t arrived = 0;
  double latest = 0;
  std::vector<int> cores;
};

// The replay itself (internal, so that its one-call helpers are inlined:
// the per-step work is spread over them).
class Model {
 public:
  // Only the cores with an instruction to place (or a trace to keep) get a
  // replay state of their own, numbered in the launch's order (a lower
  // number still goes first at a tie). A core still recording may yet have
  // one.
  Model(const std::vector<CoreSteps> &input, const std::vector<uint8_t> &complete,
        const Prices &prices, bool keeps_trace)
      : prices_(prices),
        out_(input.size()),
        replayed_(input.size(), -1),
        bandwidth_(prices, clusters_of(input)) {
    cores_.reserve(input.size());  // one allocation, touched only as far as used
    for (size_t i = 0; i < input.size(); ++i) {
      const CoreSteps &c = input[i];
      const bool traced = c.traced && keeps_trace;
      if (complete[i] && !traced && ends_without_instructions(c, out_[i])) continue;
      replayed_[i] = static_cast<int>(cores_.size());
      launch_index_.push_back(i);
      cores_.emplace_back();
      Core &k = cores_.back();
      k.log = c.steps;
      k.count = 0;
      k.complete = false;
      k.cluster = c.cluster;
      k.traced = traced;
      k.has_scratch = has_scratch(c);
      std::copy(std::begin(c.scratch), std::end(c.scratch), k.scratch);
    }
    dirty_.assign((cores_.size() + 63) / 64, 0);
    schedule_all();
  }

  // Places what the steps recorded so far allow, from where the last call
  // stopped: the core it stopped at goes on first, as it would have then.
  // Stops after about `rounds` rounds of the clock (false: more to place).
  bool place(const std::vector<uint8_t> &complete, size_t rounds) {
    for (size_t i = 0; i < cores_.size(); ++i) {
      Core &k = cores_[i];
      recorded_ += k.log->size() - k.count;
      k.count = k.log->size();
      k.steps = k.log->reader();
      k.complete = complete[launch_index_[i]] != 0;
    }
    if (starved_ >= 0) {
      const Core &k = cores_[static_cast<size_t>(starved_)];
      if (k.next == k.count && !k.complete) return true;
      const int core = starved_;
      starved_ = -1;
      run_core(core);
    }
    // Every round of advance() moves a core or a transfer on; far more rounds
    // than steps can only be a fault of the model itself: stop, say so.
    for (size_t left = rounds; starved_ < 0 && !gave_up_;) {
      if (left-- == 0) return false;
      if (!advance()) return true;
      if (++rounds_ > 64 * recorded_ + 4096) {
        log::runtime().error("timing model: no progress after {} rounds on {} steps; the "
                             "launch's device time is what was reached",
                             rounds_, recorded_);
        for (Core &k : cores_) k.out.finish = std::max(k.out.finish, std::max(k.now, now_));
        gave_up_ = true;
      }
    }
    return true;
  }

  // A traced core's events point at every step of it: its log is kept whole.
  size_t first_needed(size_t core) const {
    if (replayed_[core] < 0) return std::numeric_limits<size_t>::max();
    const Core &k = cores_[static_cast<size_t>(replayed_[core])];
    if (k.traced) return 0;
    size_t first = k.next;
    for (const PipeRing &q : k.pipe)
      if (q.head() < q.tail()) first = std::min<size_t>(first, q.at(q.head()).index);
    return first;
  }

  std::vector<CoreTiming> results() {
    for (size_t i = 0; i < cores_.size(); ++i)
      if (cores_[i].state != Core::kDone)
        log::runtime().error("timing model: core {} stopped at step {} of {} ({})",
                             launch_index_[i], cores_[i].next, cores_[i].count,
                             cores_[i].state == Core::kAtBarrier ? "at a barrier" : "waiting");
    for (size_t i = 0; i < cores_.size(); ++i) out_[launch_index_[i]] = std::move(cores_[i].out);
    return std::move(out_);
  }

 private:
  // ---- the global clock ------------------------------------------------------

  // Moves to the next moment something happens; false when nothing is left.
  bool advance() {
    const double t_core = ready_.empty() ? kNever : ready_.top().time;
    const double next = std::min({t_core, bandwidth_.next_begin(), bandwidth_.next_done(now_)});
    if (next == kNever) return false;
    const double t = std::max(next, now_);  // a core queued earlier runs now
    bandwidth_.elapse(now_, t);
    now_ = t;
    if (complete_transfers()) resolve_dirty();
    if (t_core <= now_ && !ready_.empty() && ready_.top().time <= now_) {
      const int core = ready_.top().core;
      ready_.pop();
      run_core(core);
    }
    return true;
  }

  void schedule(int core) { ready_.push({std::max(cores_[core].now, now_), core}); }

  // Every stream starts at 0: in the order of the cores, a heap already
  // (pushed one by one, a launch of many cores would grow the queue's
  // storage step by step).
  void schedule_all() {
    std::vector<Turn> start;
    start.reserve(cores_.size());
    for (size_t i = 0; i < cores_.size(); ++i) start.push_back(Turn{0.0, static_cast<int>(i)});
    ready_ = ReadyQueue(std::greater<>{}, std::move(start));
  }

  // A core whose steps are all fences (a memory core that returned at once,
  // a kernel with nothing to do) ends when its stream has run its scalar
  // code: nothing it waits for takes time, and nothing of it holds another
  // core. The same sum, in the same order, as run_core() would reach. (Not
  // for a traced core: its trace shows the scalar code.)
  bool ends_without_instructions(const CoreSteps &c, CoreTiming &out) const {
    const bool scratch = has_scratch(c);
    double end = 0;
    for (size_t i = 0; i < c.steps->size(); ++i) {
      const Step &s = (*c.steps)[i];
      if (s.kind != StepKind::kFence) {  // a fence touches no memory: never skipped
        if (scratch && skipped(c.scratch, s)) continue;
        return false;
      }
      if (s.scalar_cycles > 0) end += s.scalar_cycles * prices_.scalar_scale;
    }
    out.finish = end;
    return true;
  }

  // How many clusters the launch's cores belong to (each has its bandwidth cap).
  static int clusters_of(const std::vector<CoreSteps> &input) {
    int clusters = 1;
    for (const CoreSteps &c : input) clusters = std::max(clusters, c.cluster + 1);
    return clusters;
  }

  // The transfers that moved their last byte now end their requests; true if any did.
  bool complete_transfers() {
    if (!bandwidth_.any_done(now_)) return false;  // the common case: none ends now
    const std::vector<Transfer> &done = bandwidth_.take_done(now_);
    for (const Transfer &x : done) complete(x.core, x.pipe, x.seq, now_);
    return !done.empty();
  }

  // A GDRAM request's last byte moved at `end`: the next request of its queue
  // may move its bytes now.
  void complete(int core, Pipe p, uint64_t seq, double end) {
    Core &k = cores_[core];
    Node &n = k.pipe[p].at(seq);
    finish_node(k, n, end);
    mark_dirty(core);
    if (n.atomic_cell >= 0) {  // the next atomic to its block may start now
      if (const int waiter = atomics_.ended(n); waiter >= 0) mark_dirty(waiter);
    }
    if (seq + 1 >= k.placed[p]) return;  // the next one is not placed yet: it will see this end
    Node &next = k.pipe[p].at(seq + 1);
    if (!next.behind) return;
    next.behind = false;
    move_bytes(core, k, p, seq + 1, next, std::max(next.bytes_from, end));
  }

  // ---- one core's instructions -----------------------------------------------

  void finish_node(Core &k, Node &n, double end) {
    const Pipe p = n.step->pipe;
    n.end = end;
    double &busy_until = k.busy_until[p];  // a pipe's ends come in order
    k.out.pipe_busy[p] += end - std::max(n.start, busy_until);
    busy_until = end;
    ++k.ended[p];
    k.latest_end[p] = std::max(k.latest_end[p], end);
    if (k.traced) trace(k, TraceEvent{n.step, p, n.issue, n.ready, n.start, end, false});
  }

  // Forgets pipe p's instructions that ended by the stream's time, and before
  // any instruction not placed yet was issued (it may wait for them).
  void retire(Core &k, Pipe p) {
    double horizon = k.now;
    for (int o = 0; o < kPipeCount; ++o)
      if (k.placed[o] < k.pipe[o].tail()) horizon = std::min(horizon, k.pipe[o].at(k.placed[o]).issue);
    PipeRing &q = k.pipe[p];
    while (q.head() < k.placed[p]) {
      const Node &n = q.at(q.head());
      if (n.end == kUnknown || n.end > horizon) break;
      q.pop();
    }
  }

  // The end of what `n` waits for, or kUnknown while any of it is unknown.
  double ends_waited_for(const Core &k, Node &n) {
    for (; n.waiting != 0; n.waiting &= n.waiting - 1) {
      const int p = std::countr_zero(n.waiting);
      const uint64_t seq = n.waits_for[p];
      const PipeRing &q = k.pipe[p];
      if (q.holds(seq)) {  // retired ones ended before it was issued
        const double end = q.at(seq).end;
        if (end == kUnknown) return kUnknown;
        n.after = std::max(n.after, end);
      }
    }
    if (n.atomic_before >= 0 && !atomics_.before_ended(n)) return kUnknown;
    return n.after;
  }

  // Places what can be placed on every pipe of the core: an instruction placed
  // on one pipe may be what another pipe's next one waits for.
  void place_all(int core) {
    const Core &k = cores_[core];
    for (bool moved = true; moved;) {
      moved = false;
      for (int p = 0; p < kPipeCount; ++p)  // most pipes have nothing left to place
        if (k.placed[p] < k.pipe[p].tail()) moved |= place(core, static_cast<Pipe>(p));
    }
  }

  // Places the next instructions of pipe p while their starts can be known;
  // true if it placed any.
  bool place(int core, Pipe p) {
    Core &k = cores_[core];
    bool any = false;
    while (k.placed[p] < k.pipe[p].tail() && place_next(core, k, p)) any = true;
    return any;
  }

  // Places pipe p's first instruction not placed yet, if its start can be
  // known; true if it did. Inlined in place()'s loop as in issue(): a call per
  // placed instruction costs more than placing it.
  [[gnu::always_inline]] bool place_next(int core, Core &k, Pipe p) {
    PipeRing &q = k.pipe[p];
    const uint64_t seq = k.placed[p];
    Node &n = q.at(seq);
    const double taken = taken_at(q, p, seq);
    if (taken == kUnknown) return false;
    const double after = ends_waited_for(k, n);
    if (after == kUnknown) return false;
    n.ready = std::max(n.issue, taken);
    n.start = std::max(n.ready, after);
    ++k.placed[p];
    price(core, k, p, seq, n);
    return true;
  }

  // When pipe p can take its instruction seq (kUnknown: not known yet). A
  // compute pipe runs one at a time: when the one before it ends. A DMA queue
  // takes requests in order while fewer than dma_in_flight are under way:
  // once the one before it started and the one dma_in_flight back ended.
  // Instructions no longer held ended before seq was issued.
  double taken_at(const PipeRing &q, Pipe p, uint64_t seq) const {
    const bool after_another = seq > q.head();
    if (!is_dma(p)) return after_another ? q.at(seq - 1).end : 0.0;
    const uint64_t depth = prices_.dma_in_flight;
    const double window = seq >= depth && q.holds(seq - depth) ? q.at(seq - depth).end : 0.0;
    if (window == kUnknown) return kUnknown;
    return std::max(window, after_another ? q.at(seq - 1).start : 0.0);
  }

  void price(int core, Core &k, Pipe p, uint64_t seq, Node &n) {
    const Step &s = *n.step;
    switch (s.kind) {
      case StepKind::kVector:
        return finish_node(k, n, n.start + prices_.vector_latency + vector_cycles(prices_, s));
      case StepKind::kTensor:
        return finish_node(k, n, n.start + prices_.vector_latency + tensor_cycles(prices_, s));
      case StepKind::kOnchipCopy: {  // after the latency, its bytes follow the request before
        const double from = std::max(n.start + prices_.onchip_latency, end_before(k.pipe[p], seq));
        return finish_node(k, n, from + onchip_cycles(prices_, s));
      }
      default: {  // GDRAM: after the latency its bytes share the bandwidth
        n.end = kUnknown;
        n.bytes_from = n.start + (s.kind == StepKind::kAtomic ? prices_.atomic_latency
                                                              : prices_.gdram_latency);
        const double before = end_before(k.pipe[p], seq);
        if (before == kUnknown) {
          n.behind = true;  // complete() moves its bytes when the one before has moved its own
          return;
        }
        move_bytes(core, k, p, seq, n, std::max(n.bytes_from, before));
      }
    }
  }

  // The end of the request before seq on its queue (0 when it is no longer held).
  static double end_before(const PipeRing &q, uint64_t seq) {
    return seq > q.head() ? q.at(seq - 1).end : 0.0;
  }

  // A request's GDRAM bytes start to share the bandwidth at `from`.
  void move_bytes(int core, Core &k, Pipe p, uint64_t seq, Node &n, double from) {
    const double bytes = gdram_bytes(prices_, *n.step);
    if (bytes <= 0) return complete(core, p, seq, from);
    bandwidth_.begin(Transfer{core, p, seq, k.cluster, bytes}, from, now_);
  }

  // An end the core may wait for became known: resolve_dirty() places what
  // it can.
  void mark_dirty(int core) { dirty_[static_cast<size_t>(core) >> 6] |= uint64_t{1} << (core & 63); }

  // The first dirty core from `from` on, or cores_.size().
  size_t next_dirty(size_t from) const {
    for (size_t w = from >> 6; w < dirty_.size(); ++w) {
      uint64_t bits = dirty_[w];
      if (w == from >> 6) bits &= ~uint64_t{0} << (from & 63);
      if (bits != 0) return (w << 6) + static_cast<size_t>(std::countr_zero(bits));
    }
    return cores_.size();
  }

  // The dirty cores in order, as a loop over every core would: one made dirty
  // meanwhile is resolved now if it comes after the one being resolved, at the
  // next call otherwise.
  void resolve_dirty() {
    for (size_t i = next_dirty(0); i < cores_.size(); i = next_dirty(i + 1)) {
      Core &k = cores_[i];
      dirty_[i >> 6] &= ~(uint64_t{1} << (i & 63));
      place_all(static_cast<int>(i));
      if (k.state == Core::kBlocked) {  // it retries the step it stopped at
        k.state = Core::kRunning;
        schedule(static_cast<int>(i));
      }
    }
  }

  // ---- the stream ------------------------------------------------------------

  // Runs the core's stream from its time on until it needs what is not known
  // yet (an end still moving: blocked) or meets a barrier. A stream reads
  // only ends already final and leaves its transfers to the global clock at
  // their own times, so it may run ahead of the other cores; only an atomic
  // waits until nothing another core or a transfer does could come first,
  // since atomics to one block run in the order they are issued.
  void run_core(int core) {
    Core &k = cores_[core];
    while (k.state == Core::kRunning) {
      if (k.next == k.count) {
        if (k.complete) {
          finish(k);
        } else {
          starved_ = core;  // place() goes on from here once the core recorded more
        }
        return;
      }
      const Step &s = k.steps[k.next];
      if (k.has_scratch && skipped(k.scratch, s)) {
        ++k.next;
        continue;
      }
      run_scalar_code(k, s);
      if (s.kind == StepKind::kAtomic && others_first(core, k.now)) {
        schedule(core);
        return;
      }
      if (is_instruction(s.kind)) {
        issue(core, k, s);
      } else if (s.kind == StepKind::kFence) {
        fence(k, s);
      } else if (s.kind == StepKind::kBarrier) {
        arrive(core, s);
      } else {
        ++k.next;
      }
    }
  }

  // Whether something could still come before an atomic the core issues at
  // t: a transfer beginning or ending by then (it may free a core), a stream
  // running earlier, or one running at t on a lower-numbered core. So atomics
  // to one block at one cycle go in the order of their cores, whatever order
  // the replay reached them in.
  bool others_first(int core, double t) {
    if (bandwidth_.next_done(now_) <= t || bandwidth_.next_begin() <= t) return true;
    if (ready_.empty()) return false;
    const Turn &next = ready_.top();
    return next.time < t || (next.time == t && next.core < core);
  }

  // The stream waits from its time until `until` at step s (a fence, a
  // barrier, or an instruction whose pipe is full: the trace tells them apart
  // by the step).
  void wait(Core &k, const Step &s, double until) {
    if (until <= k.now) return;
    if (k.traced) trace(k, TraceEvent{&s, kStreamLane, k.now, k.now, k.now, until, false});
    k.now = until;
  }

  // The scalar code the run recorded before step s: the stream is busy with
  // it (other pipes go on with what it issued before). Once per step, however
  // often the stream comes back to the step (a fence or a full pipe blocks it).
  void run_scalar_code(Core &k, const Step &s) {
    if (s.scalar_cycles <= 0 || k.scalar_done == k.next + 1) return;
    k.scalar_done = k.next + 1;
    const double end = k.now + s.scalar_cycles * prices_.scalar_scale;
    if (k.traced) trace(k, TraceEvent{&s, kStreamLane, k.now, k.now, k.now, end, true});
    k.now = end;
  }

  void issue(int core, Core &k, const Step &s) {
    if (!s.async && !has_room(k, s)) return;  // run_core goes on from there
    PipeRing &own = k.pipe[s.pipe];
    // Retiring only makes room: an ended instruction still held gives the
    // same waits as one retired (it ended before anything not placed was
    // issued), so it runs when the ring is full.
    if (own.full()) retire(k, s.pipe);
    const bool rest_placed = k.placed[s.pipe] == own.tail();
    Node &n = own.push(ring_arena_);
    n.reset(s, k.next, k.now, k.sync_issued[s.pipe]);
    if (!s.async || s.ordered) find_dependencies(k, s, n);
    if (!s.async) {
      ++k.sync_issued[s.pipe];
      k.syncs_running |= 1u << s.pipe;
    }
    if (s.kind == StepKind::kAtomic) atomics_.serialise(core, n);
    ++k.next;
    if (rest_placed) {  // the common case: the new one is the only one left to place
      place_next(core, k, s.pipe);
    } else {
      place(core, s.pipe);
    }
    k.now += prices_.issue_cycles;
  }

  // Whether the pipe of synchronous step s takes it now. A full pipe stalls
  // the stream until the oldest synchronous instruction still running on it
  // ends (blocked while that end is unknown); then it has room, but an atomic
  // goes back to run_core, which holds it while anything could come first.
  bool has_room(Core &k, const Step &s) {
    const PipeRing &own = k.pipe[s.pipe];
    const uint64_t oldest = oldest_running_sync(k, s.pipe);
    if (oldest == own.tail() || k.sync_issued[s.pipe] - own.at(oldest).sync_before < kQueueDepth)
      return true;
    const double end = own.at(oldest).end;
    if (end == kUnknown) {
      k.state = Core::kBlocked;
      return false;
    }
    wait(k, s, end);
    return s.kind != StepKind::kAtomic;
  }

  // What synchronous step s, issued as n, waits for on the other pipes: the
  // latest synchronous instruction of each it depends on through memory (its
  // pipe runs in order: that one ends last). The synchronous ones before the
  // oldest still running ended by the stream's time and cannot hold s back
  // (it starts after its issue): the search stops there, and skips the pipes
  // where none runs (most steps of most kernels keep one or two pipes busy).
  // A step of a resolved pipe hazard (Step::ordered, rare) also waits for
  // async copies: it looks at every instruction each other pipe still holds
  // (the rest ended before it was issued).
  void find_dependencies(Core &k, const Step &s, Node &n) {
    const uint32_t pipes = s.ordered ? (1u << kPipeCount) - 1 : k.syncs_running;
    for (uint32_t others = pipes & ~(1u << s.pipe); others != 0; others &= others - 1) {
      const int p = std::countr_zero(others);
      const PipeRing &q = k.pipe[p];
      const uint64_t oldest = s.ordered ? q.head() : oldest_running_sync(k, static_cast<Pipe>(p));
      for (uint64_t seq = q.tail(); seq-- > oldest;) {
        const Node &other = q.at(seq);
        if ((other.async && !s.ordered) || !depends_on(s.access, other.step->access)) continue;
        if (other.end == kUnknown) {
          n.waits_for[p] = seq;
          n.waiting |= 1u << p;
        } else {
          n.after = std::max(n.after, other.end);
        }
        break;
      }
    }
  }

  // The oldest synchronous instruction of pipe p that has not ended by the
  // stream's time (the pipe's tail if none). A pipe's ends come in issue
  // order, an unknown end followed only by unknown ones, so every synchronous
  // one from it on still runs; and the stream's time only grows, so the
  // search goes on from where the last one stopped.
  uint64_t oldest_running_sync(Core &k, Pipe p) {
    const PipeRing &q = k.pipe[p];
    uint64_t &seq = k.running_from[p];
    for (seq = std::max(seq, q.head()); seq < q.tail(); ++seq) {
      const Node &n = q.at(seq);
      if (!n.async && (n.end == kUnknown || n.end > k.now)) return seq;
    }
    k.syncs_running &= ~(1u << p);
    return seq;
  }

  // Whether every instruction issued on the pipes in `mask` has a known end;
  // if so, `until` becomes the latest of them (those retired ended by the
  // stream's time, where `until` starts).
  static bool drained(const Core &k, uint32_t mask, double &until) {
    for (int p = 0; p < kPipeCount; ++p) {
      if (((mask >> p) & 1u) == 0) continue;
      if (k.ended[p] < k.pipe[p].tail()) return false;
      until = std::max(until, k.latest_end[p]);
    }
    return true;
  }

  void fence(Core &k, const Step &s) {
    double until = k.now;
    if (!drained(k, s.count, until)) {
      k.state = Core::kBlocked;
      return;
    }
    wait(k, s, until);
    ++k.next;
  }

  void arrive(int core, const Step &s) {
    Core &k = cores_[core];
    ++k.next;
    Meeting &m = meetings_[s.amount];
    ++m.arrived;
    m.latest = std::max(m.latest, k.now);
    m.cores.push_back(core);
    k.state = Core::kAtBarrier;
    if (m.arrived < s.count) return;
    const auto scope = static_cast<BarrierScope>(s.amount & 0xff);
    const double release =
        m.latest + (scope == BarrierScope::kTaskEnd ? 0 : prices_.barrier_latency);
    for (int c : m.cores) {
      Core &other = cores_[c];
      other.state = Core::kRunning;
      wait(other, s, release);
      if (c != core) schedule(c);
    }
    meetings_.erase(s.amount);
  }

  void finish(Core &k) {
    double end = k.now;
    if (!drained(k, (1u << kPipeCount) - 1, end)) {
      k.state = Core::kBlocked;
      return;
    }
    k.out.finish = end;
    k.state = Core::kDone;
  }

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
  Bandwidth bandwidth_;
  std::unordered_map<uint64_t, Meeting> meetings_;
  AtomicOrder atomics_;
};

}  // namespace

class ReplayState : public Model {
 public:
  using Model::Model;
};

Replay::Replay(const std::vector<CoreSteps> &cores, const Prices &prices, bool keeps_trace)
    : cores_(&cores), prices_(prices), keeps_trace_(keeps_trace) {}

Replay::~Replay() = default;
Replay::Replay(Replay &&) noexcept = default;

bool Replay::place(const std::vector<uint8_t> &complete, size_t rounds) {
  if (state_ == nullptr)
    state_ = std::make_unique<ReplayState>(*cores_, complete, prices_, keeps_trace_);
  return state_->place(complete, rounds);
}

size_t Replay::first_needed(size_t core) const {
  return state_ == nullptr ? 0 : state_->first_needed(core);
}

std::vector<CoreTiming> Replay::finish(const std::vector<uint8_t> &complete) {
  place(complete, std::numeric_limits<size_t>::max());
  return state_->results();
}

}  // namespace mlusim::timing
