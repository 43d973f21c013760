#include "runtime/logging.h"

#include <spdlog/cfg/helpers.h>
#include <spdlog/sinks/stdout_color_sinks.h>

#include <cstdlib>
#include <mutex>

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

const Loggers &loggers() {
  static const Loggers instance = [] {
    if (const char *levels = std::getenv("MLUSIM_LOG")) spdlog::cfg::helpers::load_levels(levels);
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
