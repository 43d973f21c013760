#include "runtime/watchdog.h"

#include <signal.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdlib>
#include <mutex>
#include <thread>
#include <vector>

#include <spdlog/fmt/fmt.h>
#include <spdlog/fmt/ranges.h>

#include "runtime/logging.h"
#include "runtime/settings.h"

namespace mlusim {
namespace {

using Clock = std::chrono::steady_clock;
constexpr double kDefaultSeconds = 60;
// After the limit, cores still running (one may have been between a park and
// its next instruction) are interrupted again at this interval.
constexpr auto kRetry = std::chrono::milliseconds(20);
// How often the watchdog looks at the launch in progress: a launch's limit
// starts to count at once, a new, shorter limit is seen within this.
constexpr auto kLook = std::chrono::milliseconds(50);
constexpr size_t kListedCores = 8;

double initial_seconds() {
  const char *env = std::getenv("MLUSIM_WATCHDOG_SECONDS");
  if (env == nullptr) return kDefaultSeconds;
  char *end = nullptr;
  const double s = std::strtod(env, &end);
  if (end != env && *end == '\0' && s >= 0 && std::isfinite(s)) return s;
  setting_invalid("MLUSIM_WATCHDOG_SECONDS", env, "a number of seconds >= 0 (0: no limit)");
  return kDefaultSeconds;
}

std::atomic<double> g_seconds{initial_seconds()};
std::array<CoreWatch, MLUSIM_MAX_CORES> g_watch;

// The launch being watched. Never destroyed: the watchdog thread outlives main().
struct State {
  std::mutex mutex;
  std::condition_variable sleep;  // timed waits only: launches never notify it
  bool thread_started = false;
  uint64_t generation = 0;  // one per watched launch
  bool active = false;
  std::string kernel;
  // Memory cores (UNION launches only): one per cluster, numbered after the compute cores.
  int cores = 0, memory_cores = 0, cores_per_cluster = 1;
  Clock::time_point deadline;
  double seconds = 0;
  std::string report;
};
State &state() {
  static State *s = new State;
  return *s;
}

bool runs(const CoreWatch &w) { return w.on_thread.load() || w.at_checkpoint.load(); }

std::string core_line(const State &s, int physical_core) {
  const CoreWatch &w = core_watch(physical_core);
  const CoreContext *c = w.ctx.load();
  const char *last = c != nullptr ? c->last_op.load(std::memory_order_relaxed) : nullptr;
  const bool memory_core = physical_core >= s.cores;
  const int cluster = memory_core ? physical_core - s.cores : physical_core / s.cores_per_cluster;
  return fmt::format("cluster {} {} (task {}): {}, last intrinsic {}", cluster,
                     memory_core ? std::string("memory core")
                                 : fmt::format("core {}", physical_core % s.cores_per_cluster),
                     w.task.load(), runs(w) ? "running" : "waiting (parked)",
                     last != nullptr ? last : "none");
}

// The unfinished cores of one cluster: those in a task (`in_task`, one line
// each, the memory core last) and those that have not started (one line).
// Whether one of its cores runs while another never started.
bool cluster_lines(const State &s, int cluster, std::vector<std::string> *in_task,
                   std::vector<std::string> *not_started) {
  std::vector<int> waiting;
  bool running = false;
  const int first = cluster * s.cores_per_cluster;
  std::vector<int> cores;
  for (int i = first; i < std::min(first + s.cores_per_cluster, s.cores); ++i) cores.push_back(i);
  if (cluster < s.memory_cores) cores.push_back(s.cores + cluster);
  for (int i : cores) {
    const CoreWatch &w = core_watch(i);
    const int st = w.state.load();
    if (st == CoreWatch::kNotStarted && i < s.cores) waiting.push_back(i - first);
    if (st != CoreWatch::kInTask) continue;
    running |= runs(w);
    in_task->push_back(core_line(s, i));
  }
  if (!waiting.empty())
    not_started->push_back(fmt::format("cluster {} {} {}: not started", cluster,
                                       waiting.size() == 1 ? "core" : "cores",
                                       fmt::join(waiting, ", ")));
  return s.memory_cores > 0 && running && !waiting.empty();
}

// Unfinished cores, those in a task first with the last intrinsic of each; a
// hint when a core of a cluster never ran while another of it did (maybe a
// spin-wait on the first).
std::string compose(const State &s) {
  std::vector<std::string> lines, not_started;
  bool starved = false;
  const int cluster_count = (s.cores + s.cores_per_cluster - 1) / s.cores_per_cluster;
  for (int cl = 0; cl < cluster_count; ++cl) starved |= cluster_lines(s, cl, &lines, &not_started);
  lines.insert(lines.end(), not_started.begin(), not_started.end());
  const size_t unlisted = lines.size() > kListedCores ? lines.size() - kListedCores : 0;
  lines.resize(lines.size() - unlisted);
  std::string report = fmt::format(
      "watchdog: kernel '{}' did not finish within {} s of host time (set the limit with "
      "mlusimSetWatchdogSeconds or MLUSIM_WATCHDOG_SECONDS); unfinished cores: {}",
      s.kernel, s.seconds, fmt::join(lines, "; "));
  if (unlisted > 0) report += fmt::format(" (and {} more)", unlisted);
  if (starved)
    report +=
        ". Cores of a cluster take turns on one host thread between barriers: a running core "
        "that spin-waits for memory a core of its cluster that has not started must write waits "
        "forever here; synchronise with __sync_cluster() instead";
  return report;
}

// Every core stops at its next instruction (a core that starts later, at its
// first); a core still running a round after it was asked (a loop of scalar
// code alone) gets the signal. A signal can land anywhere, a vector's
// reallocation in an intrinsic included: the fault thrown at an instruction
// unwinds cleanly instead.
void interrupt_running(const State &s) {
  for (int i = 0; i < s.cores + s.memory_cores; ++i) {
    CoreWatch &w = core_watch(i);
    if (CoreContext *c = w.ctx.load()) c->step_limit = 0;
    if (w.state.load() != CoreWatch::kInTask || !w.on_thread.load()) continue;
    if (w.interrupt.exchange(true)) pthread_kill(w.thread, watchdog_signal());
  }
}

// Launches neither wake nor notify this thread (a wake-up of another thread
// cost about 25 us per launch on the 2-core VM): it looks at the launch in
// progress every kLook, and at its deadline.
void watch() {
  State &s = state();
  std::unique_lock<std::mutex> lock(s.mutex);
  uint64_t reported = 0;  // the launch whose report is out
  for (;;) {
    const Clock::time_point now = Clock::now();
    if (!s.active || now < s.deadline) {
      s.sleep.wait_until(lock, s.active ? std::min(s.deadline, now + kLook) : now + kLook);
      continue;
    }
    if (reported != s.generation) {
      s.report = compose(s);
      log::kernel().error(s.report);
      reported = s.generation;
    }
    interrupt_running(s);
    s.sleep.wait_for(lock, kRetry);
  }
}

}  // namespace

int watchdog_signal() { return SIGURG; }

CoreWatch &core_watch(int physical_core) { return g_watch[physical_core]; }

// Relaxed: no core runs yet, and the watchdog reads them under the state's
// mutex, which the launch takes after this when it is watched at all.
void reset_core_watch(int count) {
  for (int i = 0; i < count; ++i) {
    g_watch[i].state.store(CoreWatch::kNotStarted, std::memory_order_relaxed);
    g_watch[i].on_thread.store(false, std::memory_order_relaxed);
    g_watch[i].at_checkpoint.store(false, std::memory_order_relaxed);
    g_watch[i].interrupt.store(false, std::memory_order_relaxed);
    g_watch[i].ctx.store(nullptr, std::memory_order_relaxed);
  }
}

double watchdog_seconds() { return g_seconds.load(); }

bool set_watchdog_seconds(double seconds) {
  if (!(seconds >= 0) || !std::isfinite(seconds)) {
    log::runtime().error("watchdog limit {} s must be a finite number >= 0", seconds);
    return false;
  }
  g_seconds = seconds;
  return true;
}

WatchdogScope::WatchdogScope(const char *kernel, int cores, int memory_cores,
                             int cores_per_cluster) {
  reset_core_watch(cores + memory_cores);
  const double seconds = g_seconds.load();
  if (seconds <= 0) return;
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (!s.thread_started) {
    std::thread(watch).detach();
    s.thread_started = true;
  }
  ++s.generation;
  s.active = true;
  s.kernel = kernel;
  s.cores = cores;
  s.memory_cores = memory_cores;
  s.cores_per_cluster = cores_per_cluster;
  s.seconds = seconds;
  s.deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                  std::chrono::duration<double>(seconds));
}

WatchdogScope::~WatchdogScope() {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  s.active = false;
}

std::string watchdog_report() {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  return s.report;
}

}  // namespace mlusim
