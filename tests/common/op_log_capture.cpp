#include "tests/common/op_log_capture.h"

#include "runtime/logging.h"

namespace mlusim::testing {

OpLogCapture::OpLogCapture() : OpLogCapture(log::op(), spdlog::level::err) {}

OpLogCapture::OpLogCapture(spdlog::logger &logger, spdlog::level::level_enum level)
    : logger_(logger), sink_(std::make_shared<spdlog::sinks::ringbuffer_sink_mt>(64)) {
  saved_level_ = logger.level();
  saved_sinks_ = logger.sinks();
  sink_->set_pattern("%v");
  logger.sinks() = {sink_};
  logger.set_level(level);
}

OpLogCapture::~OpLogCapture() {
  logger_.sinks() = saved_sinks_;
  logger_.set_level(saved_level_);
}

std::vector<std::string> OpLogCapture::lines() const {
  std::vector<std::string> out = sink_->last_formatted();
  for (std::string &line : out)
    while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.pop_back();
  return out;
}

std::string OpLogCapture::text() const {
  std::string out;
  for (const std::string &line : lines()) out += line + "\n";
  return out;
}

}  // namespace mlusim::testing
