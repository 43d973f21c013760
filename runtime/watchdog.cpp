#include "runtime/watchdog.h"

#include <signal.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdlib>
#include <mutex>
#include <thread>

#include <spdlog/fmt/fmt.h>

#include "runtime/logging.h"
#include "runtime/memory_fault.h"

namespace mlusim {
namespace {

using Clock = std::chrono::steady_clock;
constexpr double kDefaultSeconds = 60;
// After the limit, cores still running (one may have been between a park and
// its next instruction) are interrupted again at this interval.
constexpr auto kRetry = std::chrono::milliseconds(20);
constexpr int kListedCores = 8;

double initial_seconds() {
  const char *env = std::getenv("MLUSIM_WATCHDOG_SECONDS");
  if (env == nullptr) return kDefaultSeconds;
  char *end = nullptr;
  const double s = std::strtod(env, &end);
  if (end != env && *end == '\0' && s >= 0 && std::isfinite(s)) return s;
  std::fprintf(stderr, "mlusim: MLUSIM_WATCHDOG_SECONDS=%s is no number of seconds; using %g\n",
               env, kDefaultSeconds);
  return kDefaultSeconds;
}

std::atomic<double> g_seconds{initial_seconds()};

// The launch being watched. Never destroyed: the watchdog thread outlives main().
struct State {
  std::mutex mutex;
  std::condition_variable changed;
  bool thread_started = false;
  uint64_t generation = 0;  // one per watched launch
  bool active = false;
  std::string kernel;
  int cores = 0, cores_per_cluster = 1;
  bool is_union = false;
  Clock::time_point deadline;
  double seconds = 0;
  std::string report;
};
State &state() {
  static State *s = new State;
  return *s;
}

std::string core_line(const CoreContext *c, int core, const CoreWatch &w) {
  const int cpc = state().cores_per_cluster;
  const std::string who = fmt::format("cluster {} core {}", core / cpc, core % cpc);
  if (w.state.load() == CoreWatch::kNotStarted || c == nullptr) return who + ": has not run yet";
  const char *last = c->last_op.load(std::memory_order_relaxed);
  return fmt::format("{} (task {}): {}, last intrinsic {}", who, w.task.load(),
                     w.on_thread.load() ? "running" : "waiting (parked)",
                     last != nullptr ? last : "none");
}

// Unfinished cores and the last intrinsic of each; a hint when a core of a
// cluster never ran while another of it did (a spin-wait on the first).
std::string compose(const State &s) {
  std::string cores;
  int unfinished = 0;
  bool starved = false;
  for (int i = 0; i < s.cores; ++i) {
    const CoreWatch &w = core_watch(i);
    const int st = w.state.load();
    if (st == CoreWatch::kBetweenTasks) continue;
    if (st == CoreWatch::kNotStarted && s.is_union) {
      const int first = i / s.cores_per_cluster * s.cores_per_cluster;
      for (int k = first; k < first + s.cores_per_cluster && k < s.cores; ++k)
        starved |= core_watch(k).state.load() == CoreWatch::kInTask;
    }
    if (unfinished++ < kListedCores)
      cores += (cores.empty() ? "" : "; ") + core_line(w.ctx.load(), i, w);
  }
  if (unfinished > kListedCores) cores += fmt::format("; and {} more", unfinished - kListedCores);
  std::string report = fmt::format(
      "watchdog: kernel '{}' did not finish within {} s of host time (set the limit with "
      "mlusimSetWatchdogSeconds or MLUSIM_WATCHDOG_SECONDS); unfinished cores: {}",
      s.kernel, s.seconds, cores);
  if (starved)
    report +=
        ". Cores of a cluster take turns on one host thread between barriers, so a core that "
        "spin-waits for memory another core of its cluster must write keeps that core from ever "
        "running here: synchronise with __sync_cluster() instead";
  return report;
}

void interrupt_running(const State &s) {
  for (int i = 0; i < s.cores; ++i) {
    CoreWatch &w = core_watch(i);
    if (w.state.load() != CoreWatch::kInTask || !w.on_thread.load()) continue;
    w.interrupt = true;
    pthread_kill(w.thread, watchdog_signal());
  }
}

void watch() {
  State &s = state();
  std::unique_lock<std::mutex> lock(s.mutex);
  for (;;) {
    s.changed.wait(lock, [&] { return s.active; });
    const uint64_t launch = s.generation;
    const auto same_launch = [&] { return !s.active || s.generation != launch; };
    if (s.changed.wait_until(lock, s.deadline, same_launch)) continue;
    s.report = compose(s);
    log::kernel().error(s.report);
    while (!same_launch()) {
      interrupt_running(s);
      s.changed.wait_for(lock, kRetry, same_launch);
    }
  }
}

}  // namespace

double watchdog_seconds() { return g_seconds.load(); }

bool set_watchdog_seconds(double seconds) {
  if (!(seconds >= 0) || !std::isfinite(seconds)) {
    log::runtime().error("watchdog limit {} s must be a finite number >= 0", seconds);
    return false;
  }
  g_seconds = seconds;
  return true;
}

WatchdogScope::WatchdogScope(const char *kernel, int cores, bool is_union, int cores_per_cluster) {
  reset_core_watch(cores);
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
  s.is_union = is_union;
  s.cores_per_cluster = cores_per_cluster;
  s.seconds = seconds;
  s.deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                  std::chrono::duration<double>(seconds));
  s.changed.notify_all();
}

WatchdogScope::~WatchdogScope() {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (!s.active) return;
  s.active = false;
  s.changed.notify_all();
}

std::string watchdog_report() {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  return s.report;
}

}  // namespace mlusim
