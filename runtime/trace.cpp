#include "runtime/trace.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <mutex>

#include <spdlog/fmt/fmt.h>

#include "runtime/logging.h"
#include "runtime/settings.h"

namespace mlusim::trace {
namespace {

struct Filter {
  std::string kernel;  // substring of the kernel name; empty admits all
  int cluster = -1, core = -1;
};

// One timed step of a traced core, kept whole after the launch's steps are gone.
struct StoredEvent {
  std::string kernel;
  int cluster, core;  // core: core_in_cluster (the memory core comes after the compute cores)
  bool mpu;
  std::string name;    // "__bang_add", "stall: vector queue full (__bang_add)", ...
  const char *detail;  // dtype, direction, "wait", "barrier"
  uint8_t lane;
  double issue, ready, start, end;  // cycles
  uintptr_t dst, src;
  uint64_t size;
  double start_us, clock_ghz;
};

// What a timed step is called on its lane: an instruction by its intrinsic; on
// the stream's lane a fence or barrier by its name, an instruction by the pipe
// whose full queue held the stream up.
std::string event_name(const timing::TraceEvent &e) {
  const Step &s = *e.step;
  if (e.lane == kStreamLane && s.kind != StepKind::kFence && s.kind != StepKind::kBarrier)
    return fmt::format("stall: {} queue full ({})", pipe_name(s.pipe), s.op);
  return fmt::format("{}{}", s.op, s.async ? " async" : "");
}

struct State {
  std::mutex mutex;
  Filter filter;
  bool started = false;
  std::vector<StoredEvent> events;
  std::string json_at_exit;
};

bool parse_filter(const char *text, Filter *out) {
  Filter f;
  std::string s = text != nullptr ? text : "";
  size_t pos = 0;
  while (pos < s.size()) {
    size_t comma = s.find(',', pos);
    std::string item = s.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
    pos = comma == std::string::npos ? s.size() : comma + 1;
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

State &state() {
  static State *s = [] {
    auto *st = new State();  // leaked on purpose: the exit hook still needs it
    if (const char *f = std::getenv("MLUSIM_TRACE_FILTER"); f != nullptr && !parse_filter(f, &st->filter))
      setting_invalid("MLUSIM_TRACE_FILTER", f,
                      "kernel=<substring>, cluster=<n>, core=<n>, comma-separated, any optional");
    if (const char *path = std::getenv("MLUSIM_TRACE_JSON"); path != nullptr && *path != '\0') {
      st->started = true;
      st->json_at_exit = path;
      std::atexit([] { write_chrome_json(state().json_at_exit.c_str()); });
    }
    return st;
  }();
  return *s;
}

std::string json_escape(const std::string &s) {
  std::string out;
  for (char ch : s) {
    if (ch == '"' || ch == '\\') out += '\\';
    if (static_cast<unsigned char>(ch) >= 0x20) out += ch;
  }
  return out;
}

constexpr int kLanesPerCore = kPipeCount + 1;  // the pipes and the stream (fences, barriers)

std::string core_label(const StoredEvent &se) {
  return se.mpu ? std::string("mpu") : fmt::format("core {}", se.core);
}

}  // namespace

bool wants(const char *kernel, int cluster, int core) {
  State &s = state();
  if (!s.started && !log::trace().should_log(spdlog::level::trace)) return false;
  std::lock_guard<std::mutex> lock(s.mutex);
  const Filter &f = s.filter;
  return (f.kernel.empty() || std::strstr(kernel, f.kernel.c_str()) != nullptr) &&
         (f.cluster < 0 || f.cluster == cluster) && (f.core < 0 || f.core == core);
}

void collect(const char *kernel, double start_us, double clock_ghz,
             const std::vector<CoreContext> &cores,
             const std::vector<timing::CoreTiming> &timings) {
  State &s = state();
  const bool to_log = log::trace().should_log(spdlog::level::trace);
  std::lock_guard<std::mutex> lock(s.mutex);
  for (size_t i = 0; i < cores.size(); ++i) {
    const CoreContext &c = cores[i];
    for (const timing::TraceEvent &e : timings[i].events) {
      const Step &step = *e.step;
      const StoredEvent se{kernel, c.physical_cluster, c.core_in_cluster, c.is_mpu,
                           event_name(e), step.detail, e.lane, e.issue, e.ready, e.start, e.end,
                           step.access.w_lo, step.access.r0_lo, step.amount * step.count,
                           start_us, clock_ghz};
      if (to_log)
        log::trace().trace("{} [{}/{}] {} {} on {} size={} dst={:#x} src={:#x} issued {:.0f}, "
                           "cycles {:.0f}-{:.0f}",
                           kernel, se.cluster, se.core, se.name, se.detail, pipe_name(se.lane),
                           se.size, se.dst, se.src, se.issue, se.start, se.end);
      if (s.started) s.events.push_back(se);
    }
  }
}

bool set_filter(const char *filter) {
  Filter f;
  if (!parse_filter(filter, &f)) return false;
  std::lock_guard<std::mutex> lock(state().mutex);
  state().filter = f;
  return true;
}

void start() {
  std::lock_guard<std::mutex> lock(state().mutex);
  state().started = true;
}
void stop() {
  std::lock_guard<std::mutex> lock(state().mutex);
  state().started = false;
}
void clear() {
  std::lock_guard<std::mutex> lock(state().mutex);
  state().events.clear();
}

bool write_chrome_json(const char *path) {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  std::ofstream out(path);
  if (!out) {
    log::runtime().error("cannot write the trace to {}", path);
    return false;
  }
  out << "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n";
  bool first = true;
  auto emit = [&](const std::string &line) {
    out << (first ? "" : ",\n") << line;
    first = false;
  };
  std::vector<std::pair<int, int>> named;  // (cluster, core) lanes already named
  for (const StoredEvent &se : s.events) {
    if (std::find(named.begin(), named.end(), std::make_pair(se.cluster, se.core)) == named.end()) {
      named.emplace_back(se.cluster, se.core);
      emit(fmt::format(R"({{"ph":"M","name":"process_name","pid":{},"args":{{"name":"cluster {}"}}}})",
                       se.cluster, se.cluster));
      for (int lane = 0; lane < kLanesPerCore; ++lane)
        emit(fmt::format(
            R"({{"ph":"M","name":"thread_name","pid":{},"tid":{},"args":{{"name":"{} {}"}}}})",
            se.cluster, se.core * kLanesPerCore + lane, core_label(se),
            pipe_name(static_cast<uint8_t>(lane))));
    }
    const StoredEvent &e = se;
    const double cycles_per_us = se.clock_ghz * 1e3;
    const int tid = se.core * kLanesPerCore + e.lane;
    auto slice = [&](const std::string &name, double from, double to) {
      emit(fmt::format(R"({{"ph":"X","name":"{}","cat":"{}","pid":{},"tid":{},"ts":{:.4f},)"
                       R"("dur":{:.4f},"args":{{"kernel":"{}","detail":"{}","size":{},)"
                       R"("dst":"{:#x}","src":"{:#x}","issued_us":{:.4f}}}}})",
                       name, pipe_name(e.lane), se.cluster, tid,
                       se.start_us + from / cycles_per_us, (to - from) / cycles_per_us,
                       json_escape(se.kernel), e.detail, e.size, e.dst, e.src,
                       se.start_us + e.issue / cycles_per_us));
    };
    // Time the instruction's pipe was free but a dependency was not finished.
    if (e.start > e.ready) slice(fmt::format("wait ({})", e.name), e.ready, e.start);
    slice(e.name, e.start, e.end);
  }
  out << "\n]}\n";
  log::runtime().info("wrote {} trace events to {}", s.events.size(), path);
  return static_cast<bool>(out);
}

}  // namespace mlusim::trace
