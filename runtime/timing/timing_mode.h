// MLUSIM_TIMING: whether a launch is timed, and with what. "on" (the default)
// replays the launch's steps once at the model's prices; "bars" replays them
// four times more, at both ends of the error bar under both tie orders
// (docs/cost_model.md); "off" replays nothing (the functional mode: outputs,
// faults, races, hazards and the watchdog as under "on", and a device time of
// the launch overhead alone). mlusimSetTiming overrides the environment.
#pragma once

#include <string>

namespace mlusim::timing {

enum class TimingMode { kOff, kOn, kBars };

// The mode the next launch uses. An unknown MLUSIM_TIMING is a settings
// problem naming the valid values (runtime/settings.h).
TimingMode timing_mode();
// "" when taken, null restoring the environment's; else the problem in words.
std::string set_timing_mode(const char *name);
// How many replays a mode asks for.
int replays_of(TimingMode mode);

}  // namespace mlusim::timing
