// Tests of parameter checks read the log line each failed check writes.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <spdlog/logger.h>
#include <spdlog/sinks/ringbuffer_sink.h>

namespace mlusim::testing {

// Collects, instead of printing, what the operator logger ("op") writes at
// error level while it lives, whatever MLUSIM_LOG says (ctest sets it off);
// or what another of mlusim's loggers writes at `level` or above.
class OpLogCapture {
 public:
  OpLogCapture();
  OpLogCapture(spdlog::logger &logger, spdlog::level::level_enum level);
  ~OpLogCapture();
  OpLogCapture(const OpLogCapture &) = delete;
  OpLogCapture &operator=(const OpLogCapture &) = delete;
  std::vector<std::string> lines() const;  // without line ends
  std::string text() const;                // every line, each ending in '\n'

 private:
  spdlog::logger &logger_;
  std::shared_ptr<spdlog::sinks::ringbuffer_sink_mt> sink_;
  std::vector<spdlog::sink_ptr> saved_sinks_;
  spdlog::level::level_enum saved_level_;
};

}  // namespace mlusim::testing
