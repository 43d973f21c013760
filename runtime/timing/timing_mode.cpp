#include "runtime/timing/timing_mode.h"

#include <atomic>
#include <cstdlib>
#include <cstring>

#include "runtime/settings.h"

namespace mlusim::timing {
namespace {

// mlusimSetTiming's choice: -1 while the environment decides.
std::atomic<int> g_chosen{-1};

bool parse(const char *name, TimingMode *mode) {
  if (std::strcmp(name, "on") == 0) *mode = TimingMode::kOn;
  else if (std::strcmp(name, "bars") == 0) *mode = TimingMode::kBars;
  else if (std::strcmp(name, "off") == 0) *mode = TimingMode::kOff;
  else return false;
  return true;
}

}  // namespace

TimingMode timing_mode() {
  if (const int chosen = g_chosen.load(); chosen >= 0) return static_cast<TimingMode>(chosen);
  const char *env = std::getenv("MLUSIM_TIMING");
  setting_valid("MLUSIM_TIMING");
  TimingMode mode = TimingMode::kOn;
  if (env != nullptr && !parse(env, &mode))
    setting_invalid("MLUSIM_TIMING", env, "on (the default), bars or off");
  return mode;
}

bool set_timing_mode(const char *name) {
  if (name == nullptr) {
    g_chosen = -1;
    return true;
  }
  TimingMode mode;
  if (!parse(name, &mode)) return false;
  g_chosen = static_cast<int>(mode);
  return true;
}

int replays_of(TimingMode mode) {
  return mode == TimingMode::kBars ? 3 : mode == TimingMode::kOn ? 1 : 0;
}

}  // namespace mlusim::timing
