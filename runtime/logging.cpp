#include "runtime/logging.h"

#include <spdlog/cfg/helpers.h>
#include <spdlog/sinks/stdout_color_sinks.h>

#include <algorithm>
#include <cstdlib>
#include <mutex>
#include <string_view>

#include "runtime/settings.h"

namespace mlusim::log {
namespace {

struct Loggers {
  std::shared_ptr<spdlog::logger> runtime, kernel, trace, op;
};

std::shared_ptr<spdlog::logger> make(const char *name,
                                     const std::shared_ptr<spdlog::sinks::sink> &sink) {
  auto logger = std::make_shared<spdlog::logger>(name, sink);
  logger->set_pattern("[%n] [%^%l%$] %v");
  spdlog::initialize_logger(logger);  // picks up the MLUSIM_LOG level for this name
  return logger;
}

// "level" or "logger=level" items, comma-separated, of mlusim's loggers and spdlog's levels.
bool valid_levels(std::string_view text) {
  auto is_level = [](std::string_view l) {
    for (std::string_view k : {"trace", "debug", "info", "warn", "warning", "err", "error",
                               "critical", "off"})
      if (l == k) return true;
    return false;
  };
  for (const std::string_view item : comma_items(text)) {
    const size_t eq = item.find('=');
    const std::string_view name = eq == std::string_view::npos ? "" : item.substr(0, eq);
    if (!is_level(eq == std::string_view::npos ? item : item.substr(eq + 1))) return false;
    if (!name.empty() && name != "runtime" && name != "kernel" && name != "trace" && name != "op")
      return false;
  }
  return true;
}

const Loggers &loggers() {
  static const Loggers instance = [] {
    if (const char *levels = std::getenv("MLUSIM_LOG")) {
      if (valid_levels(levels))
        spdlog::cfg::helpers::load_levels(levels);
      else
        setting_invalid("MLUSIM_LOG", levels,
                        "a level (trace, debug, info, warn, error, critical, off) or "
                        "logger=level items, comma-separated, of the loggers runtime, kernel, "
                        "trace, op");
    }
    auto sink = std::make_shared<spdlog::sinks::stderr_color_sink_mt>();
    return Loggers{make("runtime", sink), make("kernel", sink), make("trace", sink),
                   make("op", sink)};
  }();
  return instance;
}

}  // namespace

spdlog::logger &runtime() { return *loggers().runtime; }
spdlog::logger &kernel() { return *loggers().kernel; }
spdlog::logger &trace() { return *loggers().trace; }
spdlog::logger &op() { return *loggers().op; }

}  // namespace mlusim::log
