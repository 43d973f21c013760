#include "runtime/timing/timing_mode.h"

#include "runtime/settings.h"
#include "runtime/timing/launch_timing.h"

namespace mlusim::timing {
namespace {

// MLUSIM_TIMING, or mlusimSetTiming's choice (TimingMode's order).
NamedChoice g_timing("MLUSIM_TIMING", {"off", "on", "bars"}, static_cast<int>(TimingMode::kOn),
                     "on (the default), bars or off");

}  // namespace

TimingMode timing_mode() { return static_cast<TimingMode>(g_timing.current()); }

std::string set_timing_mode(const char *name) { return g_timing.choose(name); }

int replays_of(TimingMode mode) {
  return mode == TimingMode::kBars ? LaunchTimer::kMaxReplays : mode == TimingMode::kOn ? 1 : 0;
}

}  // namespace mlusim::timing
