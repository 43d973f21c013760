// Per-core traces: which cores record, what is logged, and the Chrome
// trace-event export (one process per cluster, IO/move/compute lanes per core).
#pragma once

#include <string>
#include <vector>

#include "mlusim/bang/detail/core.h"
#include "runtime/timing/replay.h"

namespace mlusim::trace {

// True when this core of this kernel should record its intrinsics: tracing was
// started (API or MLUSIM_TRACE_JSON) or the "trace" logger is at trace level,
// and the filter admits it.
bool wants(const char *kernel, int cluster, int core);

// After a launch: logs the traced cores' timed steps and keeps them for the
// JSON export.
void collect(const char *kernel, double start_us, double clock_ghz,
             const std::vector<CoreContext> &cores,
             const std::vector<timing::CoreTiming> &timings);

bool set_filter(const char *filter);
void start();
void stop();
void clear();
bool write_chrome_json(const char *path);

}  // namespace mlusim::trace
