// mlusim.h: device selection, reports, errors and traces.
#include "mlusim.h"

#include <optional>
#include <string>

#include "mlusim/ops/mlu_op.h"  // the dtype codes of mlusimPeakOpsPerSecond
#include "runtime/devices.h"
#include "runtime/gdram.h"
#include "runtime/last_error.h"
#include "runtime/logging.h"
#include "runtime/onchip_memory.h"
#include "runtime/pipe_hazards.h"
#include "runtime/queue.h"
#include "runtime/timing/timing_mode.h"
#include "runtime/trace/trace.h"
#include "runtime/watchdog.h"

using namespace mlusim;

int mlusimGetPresetCount(void) { return preset_count(); }

cnrtRet_t mlusimGetPreset(int index, mlusimDeviceSpec_t *spec) {
  if (spec == nullptr || index < 0 || index >= preset_count()) return cnrtErrorArgsInvalid;
  *spec = preset(index);
  return cnrtSuccess;
}

cnrtRet_t mlusimSetDevicePreset(const char *name) {
  const DeviceSpec *p = name != nullptr ? find_preset(name) : nullptr;
  if (p == nullptr) {
    log::runtime().error("mlusimSetDevicePreset: {}",
                         unknown_preset_message(name != nullptr ? name : "(null)"));
    return cnrtErrorNoDevice;
  }
  set_current_device(*p);
  return cnrtSuccess;
}


cnrtRet_t mlusimSetDeviceSpec(const mlusimDeviceSpec_t *spec) {
  const char *problem = spec == nullptr ? "the spec is NULL" : spec_problem(*spec);
  if (problem != nullptr) {
    log::runtime().error("mlusimSetDeviceSpec refused: {}", problem);
    return cnrtErrorArgsInvalid;
  }
  set_current_device(*spec);
  return cnrtSuccess;
}

cnrtRet_t mlusimSetConstant(const char *name, double value) {
  DeviceSpec spec = current_device();
  const std::string problem = name == nullptr ? "the name is NULL" : set_constant(spec, name, value);
  if (!problem.empty()) {
    log::runtime().error("mlusimSetConstant refused: {}", problem);
    return cnrtErrorArgsInvalid;
  }
  set_current_device(spec);
  return cnrtSuccess;
}

cnrtRet_t mlusimGetConstant(const char *name, double *value) {
  const std::optional<double> found =
      name == nullptr ? std::nullopt : constant_of(current_device(), name);
  if (!found || value == nullptr) {
    log::runtime().error("mlusimGetConstant: '{}' is no estimated constant; the constants are {}",
                         name != nullptr ? name : "(null)", constant_names());
    return cnrtErrorArgsInvalid;
  }
  *value = *found;
  return cnrtSuccess;
}

cnrtRet_t mlusimSetClockMHz(double mhz) {
  return set_clock_mhz(mhz) ? cnrtSuccess : cnrtErrorArgsInvalid;
}

cnrtRet_t mlusimGetDeviceSpec(mlusimDeviceSpec_t *spec) {
  if (spec == nullptr) return cnrtErrorArgsInvalid;
  *spec = current_device();
  return cnrtSuccess;
}

double mlusimPeakOpsPerSecond(int dtype) {
  // mlu-ops' gtest rule: 16-bit dtypes run at twice the fp32/int32 rate.
  const DeviceSpec &s = current_device();
  const bool narrow = dtype == MLUOP_DTYPE_HALF || dtype == MLUOP_DTYPE_INT16;
  const double per_cycle = s.vector_bytes_per_cycle / (narrow ? 2.0 : 4.0);
  return per_cycle * core_count(s) * s.clock_ghz * 1e9;
}

const char *mlusimDirectionName(int direction) {
  static const char *const names[MLUSIM_DIRECTION_COUNT] = {
      "GDRAM2NRAM", "NRAM2GDRAM", "NRAM2NRAM", "GDRAM2GDRAM", "GDRAM2SRAM",
      "SRAM2GDRAM", "SRAM2NRAM",  "NRAM2SRAM", "SRAM2SRAM",   "NRAM2WRAM",
      "WRAM2NRAM",  "GDRAM2WRAM", "SRAM2WRAM"};
  return direction >= 0 && direction < MLUSIM_DIRECTION_COUNT ? names[direction] : "?";
}

cnrtRet_t mlusimGetLastLaunchReport(cnrtQueue_t queue, mlusimReport_t *report) {
  return last_launch_report(queue, report);
}

cnrtRet_t mlusimGetLastOpReport(cnrtQueue_t queue, mlusimReport_t *report) {
  return last_op_report(queue, report);
}

const char *mlusimGetLastError(void) { return last_error_message().c_str(); }

cnrtRet_t mlusimSetTraceFilter(const char *filter) {
  return trace::set_filter(filter) ? cnrtSuccess : cnrtErrorArgsInvalid;
}
cnrtRet_t mlusimTraceSelectLaunch(const char *which) {
  trace::select_launch(which);
  return cnrtSuccess;
}
cnrtRet_t mlusimTraceStart(void) {
  trace::start();
  return cnrtSuccess;
}
cnrtRet_t mlusimTraceStop(void) {
  trace::stop();
  return cnrtSuccess;
}
cnrtRet_t mlusimTraceWriteChromeJson(const char *path) {
  if (path == nullptr) return cnrtErrorArgsInvalid;
  return trace::write_chrome_json(path) ? cnrtSuccess : cnrtErrorSys;
}
cnrtRet_t mlusimTraceWriteSvg(const char *path, int launch) {
  if (path == nullptr) return cnrtErrorArgsInvalid;
  return trace::write_svg(path, launch) ? cnrtSuccess : cnrtErrorArgsInvalid;
}
int mlusimTraceGetLaunchCount(void) { return trace::launch_count(); }
void mlusimTraceClear(void) { trace::clear(); }

cnrtRet_t mlusimSetWatchdogSeconds(double seconds) {
  return set_watchdog_seconds(seconds) ? cnrtSuccess : cnrtErrorArgsInvalid;
}
double mlusimGetWatchdogSeconds(void) { return watchdog_seconds(); }
cnrtRet_t mlusimSetMemoryFill(const char *pattern) {
  return set_fill(pattern) ? cnrtSuccess : cnrtErrorArgsInvalid;
}
int mlusimGetMemoryFill(void) { return fill_byte(); }
cnrtRet_t mlusimSetHazards(const char *mode) {
  const std::string problem = set_hazard_mode(mode);
  if (problem.empty()) return cnrtSuccess;
  log::runtime().error("mlusimSetHazards: {}", problem);
  return cnrtErrorArgsInvalid;
}
cnrtRet_t mlusimSetTiming(const char *mode) {
  const std::string problem = timing::set_timing_mode(mode);
  if (problem.empty()) return cnrtSuccess;
  log::runtime().error("mlusimSetTiming: {}", problem);
  return cnrtErrorArgsInvalid;
}
void mlusimUnloadKernels(void) { unload_kernels(); }
cnrtRet_t mlusimSetGdramGuard(int on) {
  gdram_set_guard(on != 0);
  return cnrtSuccess;
}
int mlusimGetGdramGuard(void) { return gdram_guard() ? 1 : 0; }
