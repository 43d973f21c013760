// Per-core traces: which cores record, what is logged, which launches are
// kept, and their exports: Chrome trace-event JSON (runtime/trace/chrome_json.h)
// and the SVG timeline of one launch (runtime/trace/timeline_svg.h).
#pragma once

#include <string>
#include <vector>

#include "mlusim/bang/detail/core.h"
#include "runtime/devices.h"
#include "runtime/timing/replay.h"

namespace mlusim::trace {

// True when this core of this kernel should record its intrinsics: tracing was
// started (API, MLUSIM_TRACE_JSON or MLUSIM_TRACE_SVG) or the "trace" logger is
// at trace level, the filter admits it, and the launch selection does not
// exclude the launch to come.
bool wants(const char *kernel, int cluster, int core);
// True when any core may record: tracing was started or the "trace" logger is
// at trace level (a launch asks once, before wants() for each of its cores).
bool active();

// After a launch: logs the traced cores' timed steps and keeps them for the
// exports (if the launch selection keeps this launch).
void collect(const char *kernel, const DeviceSpec &spec, const mlusimReport_t &report,
             double start_us, const std::vector<CoreContext> &cores,
             const std::vector<timing::CoreTiming> &timings);

// An operator call begins / ends on this host thread: the launches traced in
// between get its report (the picture's title shows its efficiencies).
void op_begin();
void op_end(const mlusimReport_t &op);

bool set_filter(const char *filter);
// Which launches are kept: "" all, "<n>" the n-th launch counted while tracing
// (from 0), "longest" the longest, any other text the longest launch of a
// kernel whose name contains it.
void select_launch(const char *which);
void start();
void stop();
void clear();
int launch_count();
bool write_chrome_json(const char *path);
// Launch `number` (-1: the longest kept) as an SVG timeline.
bool write_svg(const char *path, int number);

}  // namespace mlusim::trace
