#include "runtime/trace/trace.h"

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <mutex>

#include <spdlog/fmt/fmt.h>

#include "runtime/logging.h"
#include "runtime/settings.h"
#include "runtime/trace/chrome_json.h"
#include "runtime/trace/launch.h"
#include "runtime/trace/timeline_svg.h"

namespace mlusim::trace {

std::string event_name(const Event &e) {
  if (e.kind == EventKind::kStall)
    return fmt::format("stall: {} queue full ({})", pipe_name(e.pipe), e.op);
  if (e.kind == EventKind::kScalar) return fmt::format("scalar code (before {})", e.op);
  return fmt::format("{}{}", e.op, e.async ? " async" : "");
}

namespace {

struct Filter {
  std::string kernel;  // substring of the kernel name; empty admits all
  int cluster = -1, core = -1;
};

// Which launches are kept for the exports.
struct Selection {
  enum Kind { kAll, kNumber, kLongest } kind = kAll;
  int number = -1;
  std::string kernel;  // kLongest: only kernels whose name contains it

  bool admits_kernel(const char *name) const {
    return kernel.empty() || std::strstr(name, kernel.c_str()) != nullptr;
  }
};

Selection parse_selection(const char *text) {
  Selection s;
  const std::string t = text != nullptr ? text : "";
  if (t.empty()) return s;
  char *end = nullptr;
  const long n = std::strtol(t.c_str(), &end, 10);
  if (*end == '\0' && n >= 0) {
    s.kind = Selection::kNumber;
    s.number = static_cast<int>(n);
    return s;
  }
  s.kind = Selection::kLongest;
  if (t != "longest") s.kernel = t;
  return s;
}

struct State {
  std::mutex mutex;
  Filter filter;
  Selection selection;
  std::atomic<bool> started{false};
  int counted = 0;  // launches that ran while tracing, since the last clear
  std::vector<Launch> launches;
  std::string json_at_exit, svg_at_exit;
};

bool parse_filter(const char *text, Filter *out) {
  Filter f;
  for (const std::string_view part : comma_items(text != nullptr ? text : "")) {
    const std::string item(part);
    size_t eq = item.find('=');
    if (eq == std::string::npos) return false;
    std::string key = item.substr(0, eq), value = item.substr(eq + 1);
    char *end = nullptr;
    if (key == "kernel") {
      f.kernel = value;
    } else if (key == "cluster" || key == "core") {
      long v = std::strtol(value.c_str(), &end, 10);
      if (value.empty() || *end != '\0' || v < 0) return false;
      (key == "cluster" ? f.cluster : f.core) = static_cast<int>(v);
    } else {
      return false;
    }
  }
  *out = f;
  return true;
}

std::string env(const char *name) {
  const char *v = std::getenv(name);
  return v != nullptr ? v : "";
}

void write_at_exit();

State &state() {
  static State *s = [] {
    auto *st = new State();  // leaked on purpose: the exit hook still needs it
    if (const char *f = std::getenv("MLUSIM_TRACE_FILTER"); f != nullptr && !parse_filter(f, &st->filter))
      setting_invalid("MLUSIM_TRACE_FILTER", f,
                      "kernel=<substring>, cluster=<n>, core=<n>, comma-separated, any optional");
    st->json_at_exit = env("MLUSIM_TRACE_JSON");
    st->svg_at_exit = env("MLUSIM_TRACE_SVG");
    // A picture shows one launch: unless told which, keep only the longest.
    if (const char *which = std::getenv("MLUSIM_TRACE_LAUNCH"))
      st->selection = parse_selection(which);
    else if (!st->svg_at_exit.empty() && st->json_at_exit.empty())
      st->selection = parse_selection("longest");
    if (!st->json_at_exit.empty() || !st->svg_at_exit.empty()) {
      st->started = true;
      // The hook logs what it wrote: the loggers, made first, are destroyed
      // after it runs (exit runs hooks and destructors in reverse order).
      log::runtime();
      std::atexit(write_at_exit);
    }
    return st;
  }();
  return *s;
}

void write_at_exit() {
  State &s = state();
  if (!s.json_at_exit.empty()) write_chrome_json(s.json_at_exit.c_str());
  if (!s.svg_at_exit.empty()) write_svg(s.svg_at_exit.c_str(), -1);
}

// Whether launch `number` of `kernel`, taking `us`, is kept (caller holds the lock).
bool keeps(const State &s, const char *kernel, int number, double us) {
  const Selection &sel = s.selection;
  switch (sel.kind) {
    case Selection::kAll: return true;
    case Selection::kNumber: return number == sel.number;
    case Selection::kLongest:
      return sel.admits_kernel(kernel) &&
             (s.launches.empty() || us > s.launches.front().report.device_time_us);
  }
  return false;
}

EventKind kind_of(const timing::TraceEvent &e) {
  if (e.lane != kStreamLane) return EventKind::kInstruction;
  if (e.scalar) return EventKind::kScalar;
  if (e.step->kind == StepKind::kFence) return EventKind::kFence;
  if (e.step->kind == StepKind::kBarrier) return EventKind::kBarrier;
  return EventKind::kStall;
}

void log_event(const char *kernel, const CoreContext &c, const Event &e) {
  log::trace().trace("{} [{}/{}] {} {} on {} size={} dst={:#x} src={:#x} issued {:.0f}, "
                     "cycles {:.0f}-{:.0f}",
                     kernel, c.physical_cluster, c.core_in_cluster, event_name(e), e.detail,
                     pipe_name(e.lane), e.size, e.dst, e.src, e.issue, e.start, e.end);
}

// What the selection keeps, for messages: "" when it keeps every launch.
std::string describe(const Selection &sel) {
  switch (sel.kind) {
    case Selection::kAll: return "";
    case Selection::kNumber: return fmt::format(" (the selection keeps launch {} only)", sel.number);
    case Selection::kLongest:
      return sel.kernel.empty() ? " (the selection keeps the longest launch only)"
                                : fmt::format(" (the selection keeps the longest launch of a "
                                              "kernel named like '{}' only)", sel.kernel);
  }
  return "";
}

thread_local int t_op_first = -1;  // the first launch number of this thread's operator call

// Whether the "trace" logger takes every traced step (it is at trace level).
bool logs_steps() { return log::trace().should_log(spdlog::level::trace); }

}  // namespace

bool active() { return state().started || logs_steps(); }

bool wants(const char *kernel, int cluster, int core) {
  if (!active()) return false;
  State &s = state();
  const bool to_log = logs_steps();
  std::lock_guard<std::mutex> lock(s.mutex);
  const Filter &f = s.filter;
  const bool admitted = (f.kernel.empty() || std::strstr(kernel, f.kernel.c_str()) != nullptr) &&
                        (f.cluster < 0 || f.cluster == cluster) && (f.core < 0 || f.core == core);
  if (!admitted || to_log) return admitted;
  const Selection &sel = s.selection;
  return sel.kind == Selection::kNumber ? sel.number == s.counted : sel.admits_kernel(kernel);
}

void collect(const char *kernel, const DeviceSpec &spec, const mlusimReport_t &report,
             double start_us, const std::vector<CoreContext> &cores,
             const std::vector<timing::CoreTiming> &timings) {
  if (!active()) return;
  State &s = state();
  const bool to_log = logs_steps();
  std::lock_guard<std::mutex> lock(s.mutex);
  const int number = s.started ? s.counted++ : -1;
  size_t events = 0;
  for (const timing::CoreTiming &t : timings) events += t.events.size();
  const bool keep = s.started && events > 0 && keeps(s, kernel, number, report.device_time_us);
  if (!keep && !to_log) return;

  Launch l{number, kernel, spec, start_us, report, false, {}, std::this_thread::get_id(), {}, {}};
  if (keep) l.events.reserve(events);
  for (size_t i = 0; i < cores.size(); ++i) {
    if (timings[i].events.empty()) continue;
    const CoreContext &c = cores[i];
    const auto core = static_cast<uint16_t>(l.cores.size());
    l.cores.push_back(TracedCore{c.physical_cluster, c.core_in_cluster, c.is_mpu});
    for (const timing::TraceEvent &te : timings[i].events) {
      const Step &step = *te.step;
      const Event e{step.op, step.detail, step.access.w_lo, step.access.r0_lo,
                    step.amount * step.count, te.issue, te.ready, te.start, te.end, core,
                    te.lane, static_cast<uint8_t>(step.pipe), kind_of(te), step.async};
      if (to_log) log_event(kernel, c, e);
      if (keep) l.events.push_back(e);
    }
  }
  if (!keep) return;
  if (s.selection.kind != Selection::kAll) s.launches.clear();  // it replaces the one kept
  s.launches.push_back(std::move(l));
}

void op_begin() {
  State &s = state();
  if (!s.started) return;
  std::lock_guard<std::mutex> lock(s.mutex);
  t_op_first = s.counted;
}

void op_end(const mlusimReport_t &op) {
  if (t_op_first < 0) return;
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  for (Launch &l : s.launches)
    if (l.number >= t_op_first && l.thread == std::this_thread::get_id() && !l.in_op) {
      l.in_op = true;
      l.op = op;
    }
  t_op_first = -1;
}

bool set_filter(const char *filter) {
  Filter f;
  if (!parse_filter(filter, &f)) return false;
  std::lock_guard<std::mutex> lock(state().mutex);
  state().filter = f;
  return true;
}

void select_launch(const char *which) {
  std::lock_guard<std::mutex> lock(state().mutex);
  state().selection = parse_selection(which);
}

void start() { state().started = true; }
void stop() { state().started = false; }

void clear() {
  std::lock_guard<std::mutex> lock(state().mutex);
  state().launches.clear();
  state().counted = 0;
}

int launch_count() {
  std::lock_guard<std::mutex> lock(state().mutex);
  return state().counted;
}

bool write_chrome_json(const char *path) {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  std::ofstream out(path);
  if (!out) {
    log::runtime().error("cannot write the trace to {}", path);
    return false;
  }
  write_chrome_json(out, s.launches);
  size_t events = 0;
  for (const Launch &l : s.launches) events += l.events.size();
  log::runtime().info("wrote {} trace events of {} launches to {}", events, s.launches.size(), path);
  return static_cast<bool>(out);
}

bool write_svg(const char *path, int number) {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  const Launch *chosen = nullptr;
  for (const Launch &l : s.launches)
    if (number < 0 ? chosen == nullptr || l.report.device_time_us > chosen->report.device_time_us
                   : l.number == number)
      chosen = &l;
  if (chosen == nullptr) {
    std::string kept;
    for (const Launch &l : s.launches) kept += fmt::format(" {} ({})", l.number, l.kernel);
    log::runtime().error("no timeline written to {}: {}; {} launches ran while tracing{}, kept:{}",
                         path, number < 0 ? std::string("no launch was kept")
                                          : fmt::format("launch {} was not kept", number),
                         s.counted, describe(s.selection), kept.empty() ? " none" : kept);
    return false;
  }
  const std::string picture = timeline_svg(*chosen);
  std::ofstream out(path, std::ios::binary);
  out << picture;
  if (!out) {
    log::runtime().error("cannot write the timeline to {}", path);
    return false;
  }
  log::runtime().info("wrote the timeline of launch {} ({}) to {}: {} KB", chosen->number,
                      chosen->kernel, path, picture.size() / 1024);
  return true;
}

}  // namespace mlusim::trace
