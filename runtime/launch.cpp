#include "runtime/launch.h"

#include <algorithm>
#include <cstdlib>
#include <mutex>
#include <optional>

#include <spdlog/fmt/fmt.h>

#include "mlusim/bang/detail/scalar_code.h"
#include "mlusim/bang/memory.h"
#include "runtime/bang/onchip_layout.h"
#include "runtime/bang/print.h"
#include "runtime/devices.h"
#include "runtime/gdram.h"
#include "runtime/gdram_image.h"
#include "runtime/last_error.h"
#include "runtime/launch_history.h"
#include "runtime/logging.h"
#include "runtime/memory_core.h"
#include "runtime/memory_fault.h"
#include "runtime/onchip_memory.h"
#include "runtime/pipe_hazards.h"
#include "runtime/queue.h"
#include "runtime/race_check.h"
#include "runtime/core_order.h"
#include "runtime/scalar_marks.h"
#include "runtime/scheduler.h"
#include "runtime/settings.h"
#include "runtime/timing/launch_timing.h"
#include "runtime/timing/prices.h"
#include "runtime/timing/timing_mode.h"
#include "runtime/trace/trace.h"
#include "runtime/watchdog.h"

namespace mlusim {
namespace {

std::mutex g_launch_mutex;  // one kernel on the device at a time
// Runs of kernels on the device since the process started (each schedule a
// launch is compared under is a run of its own): the on-chip layout, the cores
// and the GDRAM table's messages are told which run is current.
uint64_t g_runs = 0;  // under g_launch_mutex

// The cores' step logs, lent to each timed launch and taken back after it, so
// that recording a step writes memory already paged in (under
// g_launch_mutex); an untimed launch records none and borrows none. A log
// keeps at most kKeptChunks of room for good: twice what a core records
// between two checkpoints (a traced core's log, which holds every step, or
// one a replay lags behind give the rest back).
constexpr size_t kKeptChunks = 32;
std::vector<StepLog> g_step_logs;

class LentStepLogs {
 public:
  LentStepLogs(std::vector<CoreContext> &cores, bool timed) : cores_(timed ? &cores : nullptr) {
    if (!timed) return;
    if (g_step_logs.size() < cores.size()) g_step_logs.resize(cores.size());
    for (size_t i = 0; i < cores.size(); ++i) cores[i].steps.swap(g_step_logs[i]);
  }
  ~LentStepLogs() {
    if (cores_ == nullptr) return;
    for (size_t i = 0; i < cores_->size(); ++i) {
      StepLog &log = (*cores_)[i].steps;
      log.clear(kKeptChunks);
      g_step_logs[i].swap(log);
    }
  }
  LentStepLogs(const LentStepLogs &) = delete;
  LentStepLogs &operator=(const LentStepLogs &) = delete;

 private:
  std::vector<CoreContext> *cores_;
};

// MLU300 cores: no alignment rule (mlu-ops' kernels that pass on MLU370
// boards write 8 bytes at NRAM +0x78 and transpose 20-byte rows; an operand
// under 128 B takes a whole cycle, guide 5.3.4, which the timing charges).
OperandRules rules_of(const DeviceSpec &s) {
  if (any_operand_shape(s)) return OperandRules{0, 0, 1};
  return OperandRules{static_cast<uintptr_t>(s.nram_align_bytes - 1),
                      static_cast<size_t>(s.vector_count_align_bytes - 1),
                      static_cast<size_t>(s.transpose_align_bytes)};
}

// Clusters a UNIONn task gangs together; 0 for BLOCK, -1 for an unknown type.
int union_clusters(cnrtFunctionType_t type) {
  switch (type) {
    case cnrtFuncTypeBlock: return 0;
    case cnrtFuncTypeUnion1: return 1;
    case cnrtFuncTypeUnion2: return 2;
    case cnrtFuncTypeUnion4: return 4;
    case cnrtFuncTypeUnion8: return 8;
    case cnrtFuncTypeUnion16: return 16;
    case cnrtFuncTypeMutable: break;  // CNRT names it; no launch takes it
  }
  return -1;
}

std::string check_dims(const DeviceSpec &spec, cnrtDim3_t dim, int gang) {
  const size_t tasks = size_t{dim.x} * dim.y * dim.z;
  if (gang < 0) return "unknown function type";
  if (tasks == 0) return fmt::format("empty dimension ({}, {}, {})", dim.x, dim.y, dim.z);
  if (tasks > (size_t{1} << 31)) return fmt::format("{} tasks is more than 2^31", tasks);
  if (gang == 0) return "";
  if (gang > spec.clusters)
    return fmt::format("UNION{} needs {} clusters (N is a power of two no larger than the "
                       "cluster count); {} has {}",
                       gang, gang, spec.name, spec.clusters);
  const unsigned group = static_cast<unsigned>(gang * spec.cores_per_cluster);
  if (dim.x % group != 0)
    return fmt::format("UNION{} needs dim.x a multiple of {} ({} cores x {} clusters); dim.x is {}",
                       gang, group, spec.cores_per_cluster, gang, dim.x);
  return "";
}

// The BANG built-in variables of `task`. A UnionN task is N clusters of
// consecutive task ids: clusterId counts within it and clusterDim is N. A BLOCK
// task is a lone core in no cluster: clusterDim 0 (Cambricon's
// bang_device_functions.h takes clusterDim == 0 for a BLOCK task in every
// barrier; mlu-ops' generate_proposals_v2 tests it), clusterId 0, coreId 0,
// coreDim 1 (docs/bang_c.md). The memory core sees its cluster's first task
// with coreId 0x80. mlusim's own code reads the launch's shape, never these.
void set_task(CoreContext &c, size_t task, size_t tasks, cnrtDim3_t dim, int gang,
              int cores_per_cluster) {
  c.task_id = static_cast<int>(task);
  c.task_dim = static_cast<int>(tasks);
  c.task_dim_x = static_cast<int>(dim.x);
  c.task_dim_y = static_cast<int>(dim.y);
  c.task_dim_z = static_cast<int>(dim.z);
  c.task_id_x = static_cast<int>(task % dim.x);
  c.task_id_y = static_cast<int>((task / dim.x) % dim.y);
  c.task_id_z = static_cast<int>(task / (size_t{dim.x} * dim.y));
  const bool is_union = gang > 0;
  const size_t group = static_cast<size_t>(gang) * cores_per_cluster;
  c.core_id = c.is_mpu ? kMpuCoreId : is_union ? static_cast<int>(task % cores_per_cluster) : 0;
  c.core_dim = is_union ? cores_per_cluster : 1;
  c.cluster_id = is_union ? static_cast<int>(task % group / cores_per_cluster) : 0;
  c.cluster_dim = is_union ? gang : 0;
  c.issued = 0;  // fault messages number the instructions of the task
}

// Which cores each worker claims together: a cluster and its memory core for
// UNION launches (they meet at __sync_cluster), one core for BLOCK.
std::vector<std::vector<int>> make_units(int compute_cores, int memory_cores, int per_cluster) {
  std::vector<std::vector<int>> units;
  if (memory_cores == 0) {
    units.reserve(static_cast<size_t>(compute_cores));
    for (int i = 0; i < compute_cores; ++i) units.push_back({i});
    return units;
  }
  units.reserve(static_cast<size_t>(memory_cores));
  for (int k = 0; k < memory_cores; ++k) {
    units.emplace_back().reserve(static_cast<size_t>(per_cluster) + 1);
    for (int i = k * per_cluster; i < std::min(compute_cores, (k + 1) * per_cluster); ++i)
      units.back().push_back(i);
    units.back().push_back(compute_cores + k);
  }
  return units;
}

mlusimReport_t make_report(const char *name, const DeviceSpec &spec,
                           const std::vector<CoreContext> &cores,
                           const timing::LaunchTiming &timing) {
  const std::vector<timing::CoreTiming> &timings = timing.cores;
  mlusimReport_t r{};
  std::snprintf(r.name, sizeof(r.name), "%s", name);
  r.launches = 1;
  // Compute cores first, then the memory cores, as the launch lays them out.
  const size_t memory_cores = static_cast<size_t>(
      std::count_if(cores.begin(), cores.end(), [](const CoreContext &c) { return c.is_mpu; }));
  const size_t listed = std::min<size_t>(cores.size(), MLUSIM_MAX_CORES);
  r.cores = static_cast<int>(std::min(cores.size() - memory_cores, listed));
  r.memory_cores = static_cast<int>(listed - r.cores);
  const double cycles_per_us = spec.clock_ghz * 1e3;
  for (size_t i = 0; i < cores.size(); ++i) {
    const CoreContext &c = cores[i];
    for (int d = 0; d < MLUSIM_DIRECTION_COUNT; ++d) r.bytes_moved[d] += c.bytes_moved[d];
    r.gdram_bytes += c.gdram_traffic + 64.0 * static_cast<double>(c.scalar_gdram_blocks);
    r.vector_ops_float += c.vector_elems_float;
    r.vector_ops_half += c.vector_elems_half;
    r.vector_ops_int += c.vector_elems_int;
    r.atomic_elements += c.atomic_elems;
    r.hazards_resolved += static_cast<int>(c.hazards_resolved);
    if (i < listed) {
      for (int p = 0; p < kPipeCount; ++p)
        r.core_pipe_busy_us[i][p] = timings[i].pipe_busy[p] / cycles_per_us;
      r.core_io_busy_us[i] = r.core_pipe_busy_us[i][kIoPipe] + r.core_pipe_busy_us[i][kMovePipe];
      r.core_compute_busy_us[i] =
          r.core_pipe_busy_us[i][kVectorPipe] + r.core_pipe_busy_us[i][kTensorPipe];
    }
  }
  r.device_time_us = timing.us;
  r.device_time_us_low = timing.low_us;
  r.device_time_us_high = timing.high_us;
  r.timed = timing.timed ? 1 : 0;
  r.error_bars = timing.error_bars ? 1 : 0;
  compute_efficiency(r);
  return r;
}

// What the timing model replays: every core's steps, its cluster, whether it
// traces, and a memory core's scratch (its steps there were skipped).
std::vector<timing::CoreSteps> steps_of(const char *name, const std::vector<CoreContext> &cores) {
  std::vector<timing::CoreSteps> steps;
  steps.reserve(cores.size());
  const bool tracing = trace::active();
  for (const CoreContext &c : cores) {
    timing::CoreSteps &s = steps.emplace_back(timing::CoreSteps{
        &c.steps, c.physical_cluster,
        tracing && trace::wants(name, c.physical_cluster, c.core_in_cluster),
        {}, reinterpret_cast<uintptr_t>(c.nram)});
    if (!c.is_mpu) continue;
    s.scratch[0] = AddressRange{reinterpret_cast<uintptr_t>(c.nram), c.nram_capacity};
    s.scratch[1] = AddressRange{reinterpret_cast<uintptr_t>(c.wram), c.wram_capacity};
  }
  return steps;
}

// A core stops for the replays after this many steps (1.75 MB of them): the
// logs then hold a few dozen chunks per core however long the launch runs.
// Every checkpoint waits for the slowest core; at 4,096 steps
// three_interpolate_backward's case 7 took 8 % longer, at 16,384 as long as
// before checkpoints.
constexpr size_t kStepsBetweenCheckpoints = 16 * StepLog::kChunkSteps;

// The scheduler's checkpoints in a timed launch: the replays place the steps
// recorded so far (side by side on the workers), then each core's log gives
// back the chunks no replay reads again.
class ReplayCheckpoint final : public Checkpoint {
 public:
  ReplayCheckpoint(timing::LaunchTimer &timer, const Scheduler &scheduler,
                   std::vector<CoreContext> &cores)
      : timer_(timer), scheduler_(scheduler), cores_(cores) {}
  size_t steps_between() const override { return kStepsBetweenCheckpoints; }
  int parts() const override { return timer_.replays(); }
  void begin() override {
    for (size_t i = 0; i < cores_.size(); ++i) timer_.set_complete(i, scheduler_.finished(i));
  }
  bool part(int r) override { return timer_.place(r); }
  void end() override {
    for (size_t i = 0; i < cores_.size(); ++i)
      cores_[i].steps.release_before(timer_.first_needed(i));
  }

 private:
  timing::LaunchTimer &timer_;
  const Scheduler &scheduler_;
  std::vector<CoreContext> &cores_;
};

// A task ends when its pipes drain; its async copies land (under the task's
// recovery point: a copy that faults while landing is the task's fault).
void end_task() {
  __sync();
  detail::flush_scalar_runs(this_core());
}

// What every run of one launch shares.
struct LaunchPlan {
  LaunchPlan(const char *name, cnrtDim3_t dim, int gang, const DeviceSpec &spec,
             const std::function<void()> &body)
      : name(name),
        dim(dim),
        gang(gang),
        spec(spec),
        body(body),
        tasks(size_t{dim.x} * dim.y * dim.z),
        threads(static_cast<int>(std::min<size_t>(tasks, mlusim::core_count(spec)))),
        memory_cores(gang > 0 ? (threads + spec.cores_per_cluster - 1) / spec.cores_per_cluster
                              : 0) {}
  size_t core_count() const { return static_cast<size_t>(threads + memory_cores); }

  const char *name;
  cnrtDim3_t dim;
  int gang;
  HazardMode hazards = HazardMode::kWarn;
  int replays = 1;  // of the timing model: 0 (MLUSIM_TIMING=off), 1, or 5 (with error bars)
  const DeviceSpec &spec;
  const std::function<void()> &body;
  size_t tasks;
  int threads;       // compute cores used
  int memory_cores;  // one per cluster used, UNION launches only
};

void init_cores(const LaunchPlan &p, OnchipMemory &mem, const GdramLease &lease,
                LaunchShared &shared, OnchipLayout &layout, std::vector<CoreContext> &cores) {
  const OperandRules rules = rules_of(p.spec);
  const ScalarPrices scalar = timing::scalar_prices_of(p.spec);
  const int cpc = p.spec.cores_per_cluster;
  // The pages of NRAM, SRAM and WRAM are the same size on every core.
  unsigned page_shift[3];
  page_shift[static_cast<int>(Space::kNram)] = TouchedPages::shift_for(nram_usable(p.spec));
  page_shift[static_cast<int>(Space::kSram)] = TouchedPages::shift_for(sram_usable(p.spec));
  page_shift[static_cast<int>(Space::kWram)] = TouchedPages::shift_for(p.spec.wram_bytes);
  for (int i = 0; i < static_cast<int>(cores.size()); ++i) {
    CoreContext &c = cores[i];
    c.launch = &shared;
    c.launch_serial = layout.serial();
    c.gdram = &lease.snapshot();
    c.rules = rules;
    c.scalar_prices = scalar;
    c.scalar_cycles = c.scalar_nram_accesses = 0;
    c.scalar_reads_span = c.scalar_writes_span = NramSpan{};
    c.scalar_far_reads = c.scalar_far_writes = AddressSpan{};
    std::fill(std::begin(c.recent_gdram), std::end(c.recent_gdram), AddressRange{});
    c.last_elsewhere = AddressRange{};  // this launch's allocations
    c.physical_core = i;
    c.is_mpu = i >= p.threads;
    c.physical_cluster = c.is_mpu ? i - p.threads : i / cpc;
    c.core_in_cluster = c.is_mpu ? cpc : i % cpc;
    // A memory core has no NRAM or WRAM: a scratch stands for them, and with
    // no declared variables of its own there every operand in it takes the
    // slow path, which skips the instruction (runtime/memory_core.h).
    c.nram = c.is_mpu ? mem.memory_core_scratch(Space::kNram, c.physical_cluster) : mem.nram(i);
    c.nram_capacity = nram_usable(p.spec);
    c.pending.watch_nram(c.nram, c.nram_capacity);
    c.wram = c.is_mpu ? mem.memory_core_scratch(Space::kWram, c.physical_cluster) : mem.wram(i);
    c.wram_capacity = p.spec.wram_bytes;
    c.sram = mem.sram(c.physical_cluster);
    c.sram_capacity = sram_usable(p.spec);
    for (Space s : {Space::kNram, Space::kSram, Space::kWram})
      if (!c.is_mpu || s == Space::kSram)
        c.declared[static_cast<int>(s)] = shared.kernel_declared[static_cast<int>(s)];
    for (int s = 0; s < 3; ++s) c.touched[s].shift = page_shift[s];
  }
}

// Runs every task of the launch once, in `schedule`'s order, on `cores`
// (default-constructed, one per core of the plan); with `timer` (the
// launch's run, not a compared one), the replays the plan asks for place the
// steps as they come (and finish after), and checkpoints keep the step logs
// short. Returns the first fault or race, described, or "".
std::string run_tasks(const LaunchPlan &p, const Schedule &schedule, RaceMode races,
                      const GdramLease &lease, std::vector<CoreContext> &cores,
                      std::optional<timing::LaunchTimer> *timer) {
  HazardReports hazard_reports;
  OnchipMemory &mem = OnchipMemory::prepare(p.spec);
  const uint64_t serial = ++g_runs;
  gdram_note_launch(serial);
  OnchipLayout layout(serial, p.spec, cores);
  const bool is_union = p.gang > 0;
  LaunchShared shared{p.name, is_union, std::max(p.gang, 0),
                      is_union ? static_cast<size_t>(p.gang) * p.spec.cores_per_cluster : 1,
                      nullptr, &layout, {}, p.hazards, &hazard_reports};
  for (Space s : {Space::kNram, Space::kSram, Space::kWram})
    shared.kernel_declared[static_cast<int>(s)] = layout.ends(s);
  for (int k = 0; k < p.memory_cores; ++k) shared.srams.push_back(mem.sram(k));
  init_cores(p, mem, lease, shared, layout, cores);
  begin_scalar_marks(cores, nram_usable(p.spec));
  std::optional<RaceCheck> race_check;
  if (races != RaceMode::kOff) race_check.emplace(cores);
  const int cpc = p.spec.cores_per_cluster;
  Scheduler scheduler(cores, make_units(p.threads, p.memory_cores, cpc), p.gang, schedule);
  shared.scheduler = &scheduler;
  // Only a timed run records steps; the compared runs and MLUSIM_TIMING=off
  // check and compute alone.
  std::optional<ReplayCheckpoint> checkpoint;
  if (timer != nullptr && p.replays > 0) {
    timer->emplace(steps_of(p.name, cores), p.spec, p.replays);
    checkpoint.emplace(**timer, scheduler, cores);
  } else {
    for (CoreContext &c : cores) c.timed = false;
  }

  // A physical core runs tasks core, core + threads, ... (waves), as hardware
  // does; a memory core runs once per wave of its cluster.
  const WatchdogScope watchdog(p.name, p.threads, p.memory_cores, cpc);
  const std::function<void()> task = [&p] {
    p.body();
    end_task();
  };
  std::string fault = scheduler.run([&](CoreContext &c) {
    const size_t first = c.is_mpu ? size_t(c.physical_cluster) * cpc : c.physical_core;
    for (size_t t = first; t < p.tasks && !scheduler.aborted(); t += p.threads) {
      set_task(c, t, p.tasks, p.dim, p.gang, cpc);
      try {
        // A cluster runs one UnionN task at a time: the next wave starts when
        // every core of the cluster (memory core included) ended the last.
        if (t != first && is_union)
          scheduler.barrier(c, BarrierScope::kTaskEnd, "the start of its next task");
        run_guarded(c, task);
      } catch (const KernelFault &f) {
        scheduler.report_fault(f.message);
      } catch (const std::exception &e) {
        scheduler.report_fault(fmt::format("kernel '{}' [{}, task {}]: threw: {}", p.name,
                                           detail::core_name(c), t, e.what()));
      } catch (...) {
        scheduler.report_fault(fmt::format("kernel '{}' [{}, task {}]: threw an exception",
                                           p.name, detail::core_name(c), t));
      }
      c.pending.clear();  // a faulted task's copies never land: the launch failed
      detail::forget_scalar_runs(c);
    }
  }, !worth_a_team(p.name, scheduler.team_size()), checkpoint ? &*checkpoint : nullptr);
  note_launch(p.name, scheduler.workers(), scheduler.cores_busy_us(), scheduler.wall_us());
  end_scalar_marks(cores);
  layout.note_initialised();
  mem.keep_touched(cores);
  if (fault.empty() && race_check) {
    const std::string race = race_check->report(races);  // logs the races it does not return
    if (!race.empty()) fault = fmt::format("kernel '{}': {}", p.name, race);
  }
  // A memory core's NRAM and WRAM instructions count no work; this needs the
  // launch's shared state, which dies with this frame.
  if (fault.empty()) drop_skipped_counts(cores);
  for (CoreContext &c : cores) c.access_log = nullptr;  // the logs die with race_check
  if (!fault.empty() && schedule.reproducible())
    fault += fmt::format(" [schedule {}: MLUSIM_SCHEDULE={} runs it again]", schedule.name(),
                         schedule.name());
  return fault;
}

// MLUSIM_SCHEDULES: runs the launch once per schedule from the same GDRAM
// contents; outputs that differ are a fault naming both schedules. The first
// schedule's outputs (and its cores' timing) are what the program sees.
std::string run_compared(const LaunchPlan &p, const std::vector<Schedule> &schedules,
                         RaceMode races, const GdramLease &lease, std::vector<CoreContext> &cores,
                         std::optional<timing::LaunchTimer> *timer) {
  const GdramImage inputs(lease.snapshot());
  std::string fault = run_tasks(p, schedules.front(), races, lease, cores, timer);
  if (!fault.empty()) return fault;
  const GdramImage outputs(lease.snapshot());
  const bool atomics = std::any_of(cores.begin(), cores.end(),
                                   [](const CoreContext &c) { return c.atomic_elems > 0; });
  for (size_t i = 1; i < schedules.size(); ++i) {
    inputs.restore();
    std::vector<CoreContext> again(p.core_count());
    fault = run_tasks(p, schedules[i], races, lease, again, nullptr);
    if (fault.empty()) {
      const std::string differs = outputs.difference(
          GdramImage(lease.snapshot()), schedules.front().name(), schedules[i].name());
      if (!differs.empty())
        fault = fmt::format("kernel '{}': outputs depend on the order the cores run in: {} "
                            "(MLUSIM_SCHEDULE=<one of them> reproduces either run){}",
                            p.name, differs,
                            atomics ? "; the kernel adds with atomics, and floating-point sums "
                                      "round differently in another order (on the board too)"
                                    : "");
    }
    if (!fault.empty()) return fault;
  }
  outputs.restore();
  return "";
}

}  // namespace

cnrtRet_t launch_kernel(const char *name, cnrtDim3_t dim, cnrtFunctionType_t type,
                        cnrtQueue_t queue, const std::function<void()> &body) {
  if (detail::tls_core != nullptr)  // would wait forever for the launch lock its caller holds
    detail::fault(*detail::tls_core,
                  fmt::format("launches kernel '{}' from inside a kernel; only the host can launch",
                              name));
  const QueueRef q = resolve_queue(queue);
  const DeviceSpec spec = current_device();
  const int gang = union_clusters(type);
  // The settings every launch reads come first: a bad one, or one of those
  // read at start-up, fails the launch with the valid values (runtime/settings.h).
  const RaceMode races = race_mode();
  const HazardMode hazards = hazard_mode();
  const int replays = timing::replays_of(timing::timing_mode());
  const Schedule schedule = launch_schedule();
  const std::vector<Schedule> compared = schedules_to_compare();
  const std::string settings = settings_problems();
  const std::string bad = q == nullptr          ? "queue is not a live queue"
                          : !settings.empty()   ? "mlusim's settings: " + settings
                                                : check_dims(spec, dim, gang);
  if (!bad.empty()) {
    set_last_error_message(fmt::format("launch of kernel '{}' rejected: {}", name, bad));
    log::runtime().error(last_error_message());
    return fail_launch(q.get(), q == nullptr          ? cnrtErrorInvalidQueue
                                : !settings.empty()   ? cnrtErrorArgsInvalid
                                                      : cnrtErrorInvalidKernelDim);
  }

  load_on_first_launch(*q, name, spec.kernel_load_us);
  std::lock_guard<std::mutex> lock(g_launch_mutex);
  LaunchPlan plan(name, dim, gang, spec, body);
  plan.hazards = hazards;
  plan.replays = replays;
  const GdramLease lease;  // cnrtFree refuses what the launch may use
  std::vector<CoreContext> cores(plan.core_count());
  const LentStepLogs lent(cores, plan.replays > 0);
  std::optional<timing::LaunchTimer> timer;  // reads the logs: dies before they go back
  const std::string fault = compared.empty()
                                ? run_tasks(plan, schedule, races, lease, cores, &timer)
                                : run_compared(plan, compared, races, lease, cores, &timer);
  bang::flush_unfinished_lines(cores.size());
  if (!fault.empty()) {
    set_last_error_message(fault);
    log::kernel().error(fault);
    return fail_launch(q.get(), cnrtErrorKernelFault);
  }

  const timing::LaunchTiming timing =
      timer ? timer->finish() : timing::untimed(spec, plan.core_count());
  const mlusimReport_t report = make_report(name, spec, cores, timing);
  trace::collect(name, spec, report, q->now_us, cores, timing.cores);
  record_launch(*q, report);
  set_last_error_message("");
  log::runtime().debug("kernel '{}' dim ({}, {}, {}) on {} cores: {:.2f} us", name, dim.x, dim.y,
                       dim.z, plan.threads, report.device_time_us);
  return cnrtSuccess;
}

}  // namespace mlusim
