#include "runtime/trace/chrome_json.h"

#include <algorithm>
#include <utility>

#include <spdlog/fmt/fmt.h>

namespace mlusim::trace {
namespace {

constexpr int kLanesPerCore = kPipeCount + 1;  // the pipes and the stream (fences, barriers)

std::string json_escape(const std::string &s) {
  std::string out;
  for (char ch : s) {
    if (ch == '"' || ch == '\\') out += '\\';
    if (static_cast<unsigned char>(ch) >= 0x20) out += ch;
  }
  return out;
}

std::string core_label(const TracedCore &c) {
  return c.mpu ? std::string("mpu") : fmt::format("core {}", c.core);
}

}  // namespace

void write_chrome_json(std::ostream &out, const std::vector<Launch> &launches) {
  out << "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n";
  bool first = true;
  auto emit = [&](const std::string &line) {
    out << (first ? "" : ",\n") << line;
    first = false;
  };
  std::vector<std::pair<int, int>> named;  // (cluster, core) lanes already named
  for (const Launch &l : launches) {
    const std::string kernel = json_escape(l.kernel);
    for (const Event &e : l.events) {
      const TracedCore &c = l.cores[e.core];
      if (std::find(named.begin(), named.end(), std::make_pair(c.cluster, c.core)) == named.end()) {
        named.emplace_back(c.cluster, c.core);
        emit(fmt::format(R"({{"ph":"M","name":"process_name","pid":{},"args":{{"name":"cluster {}"}}}})",
                         c.cluster, c.cluster));
        for (int lane = 0; lane < kLanesPerCore; ++lane)
          emit(fmt::format(
              R"({{"ph":"M","name":"thread_name","pid":{},"tid":{},"args":{{"name":"{} {}"}}}})",
              c.cluster, c.core * kLanesPerCore + lane, core_label(c),
              pipe_name(static_cast<uint8_t>(lane))));
      }
      const std::string name = event_name(e);
      const double cycles_per_us = l.cycles_per_us();
      auto slice = [&](const std::string &slice_name, double from, double to) {
        emit(fmt::format(R"({{"ph":"X","name":"{}","cat":"{}","pid":{},"tid":{},"ts":{:.4f},)"
                         R"("dur":{:.4f},"args":{{"kernel":"{}","detail":"{}","size":{},)"
                         R"("dst":"{:#x}","src":"{:#x}","issued_us":{:.4f}}}}})",
                         slice_name, pipe_name(e.lane), c.cluster, c.core * kLanesPerCore + e.lane,
                         l.start_us + from / cycles_per_us, (to - from) / cycles_per_us, kernel,
                         e.detail, e.size, e.dst, e.src, l.start_us + e.issue / cycles_per_us));
      };
      // Time the instruction's pipe was free but a dependency was not finished.
      if (e.start > e.ready) slice(fmt::format("wait ({})", name), e.ready, e.start);
      slice(name, e.start, e.end);
    }
  }
  out << "\n]}\n";
}

}  // namespace mlusim::trace
