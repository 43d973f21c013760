// mlusim.h: device selection, reports, errors and traces.
#include "mlusim.h"

#include <algorithm>
#include <iterator>

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
  if (spec == nullptr || spec->clusters <= 0 || spec->cores_per_cluster <= 0 ||
      spec->clusters * spec->cores_per_cluster > MLUSIM_MAX_CORES ||
      spec->nram_bytes <= spec->stack_reserve_bytes || spec->clock_ghz <= 0 ||
      spec->gdram_gbps <= 0 || spec->cluster_gbps <= 0 || spec->vector_bytes_per_cycle <= 0 ||
      *std::min_element(std::begin(spec->matrix_macs_per_cycle),
                        std::end(spec->matrix_macs_per_cycle)) <= 0 ||
      spec->onchip_bytes_per_cycle <= 0 || spec->nram_align_bytes <= 0 ||
      (spec->nram_align_bytes & (spec->nram_align_bytes - 1)) != 0 ||
      spec->vector_count_align_bytes <= 0 ||
      (spec->vector_count_align_bytes & (spec->vector_count_align_bytes - 1)) != 0 ||
      spec->transpose_align_bytes <= 0 ||
      spec->dma_requests_in_flight <= 0 || spec->gdram_write_extra < 0 ||
      spec->gdram_segment_bytes < 0 || !(spec->gdram_efficiency > 0) ||
      spec->gdram_efficiency > 1 ||
      std::min({spec->scalar_op_cycles, spec->scalar_divide_cycles, spec->scalar_block_cycles,
                spec->scalar_onchip_cycles, spec->scalar_sram_cycles, spec->scalar_gdram_load_ns,
                spec->scalar_gdram_store_cycles}) < 0) {
    log::runtime().error("mlusimSetDeviceSpec: incomplete or inconsistent spec");
    return cnrtErrorArgsInvalid;
  }
  set_current_device(*spec);
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
  if (set_hazard_mode(mode)) return cnrtSuccess;
  log::runtime().error("pipe hazard mode '{}' is none of warn, fault or off", mode);
  return cnrtErrorArgsInvalid;
}
cnrtRet_t mlusimSetTiming(const char *mode) {
  if (timing::set_timing_mode(mode)) return cnrtSuccess;
  log::runtime().error("timing mode '{}' is none of on, bars or off", mode);
  return cnrtErrorArgsInvalid;
}
cnrtRet_t mlusimSetGdramGuard(int on) {
  gdram_set_guard(on != 0);
  return cnrtSuccess;
}
int mlusimGetGdramGuard(void) { return gdram_guard() ? 1 : 0; }
