#include "tests/common/op_log_capture.h"

#include "runtime/logging.h"

namespace mlusim::testing {

OpLogCapture::OpLogCapture() : sink_(std::make_shared<spdlog::sinks::ringbuffer_sink_mt>(64)) {
  auto &logger = log::op();
  saved_level_ = logger.level();
  saved_sinks_ = logger.sinks();
  sink_->set_pattern("%v");
  logger.sinks() = {sink_};
  logger.set_level(spdlog::level::err);
}

OpLogCapture::~OpLogCapture() {
  auto &logger = log::op();
  logger.sinks() = saved_sinks_;
  logger.set_level(saved_level_);
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
