// One spdlog logger per concern. Levels come from MLUSIM_LOG, in spdlog's
// SPDLOG_LEVEL syntax: "info", or "trace=trace,kernel=debug".
#pragma once

#include <spdlog/spdlog.h>

namespace mlusim::log {

spdlog::logger &runtime();  // host API: memory, queues, launches
spdlog::logger &kernel();   // kernel faults
spdlog::logger &trace();    // one line per intrinsic of every traced core
spdlog::logger &op();       // mlu-ops parameter checks and operator reports

}  // namespace mlusim::log
