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

namespace {

// The first rule of a device that `s` breaks, in words; null when it keeps
// them all.
const char *spec_problem(const mlusimDeviceSpec_t &s) {
  const auto power_of_two = [](int v) { return v > 0 && (v & (v - 1)) == 0; };
  if (s.clusters <= 0 || s.cores_per_cluster <= 0)
    return "clusters and cores_per_cluster must be positive";
  if (s.clusters * s.cores_per_cluster > MLUSIM_MAX_CORES)
    return "clusters x cores_per_cluster exceeds MLUSIM_MAX_CORES";
  if (s.nram_bytes <= s.stack_reserve_bytes) return "nram_bytes must exceed stack_reserve_bytes";
  if (s.clock_ghz <= 0 || s.gdram_gbps <= 0 || s.cluster_gbps <= 0 ||
      s.vector_bytes_per_cycle <= 0 || s.onchip_bytes_per_cycle <= 0 || s.sram_bytes_per_cycle <= 0)
    return "clock_ghz, gdram_gbps, cluster_gbps, vector_bytes_per_cycle, "
           "onchip_bytes_per_cycle and sram_bytes_per_cycle must be positive";
  if (*std::min_element(std::begin(s.matrix_macs_per_cycle), std::end(s.matrix_macs_per_cycle)) <=
      0)
    return "every matrix_macs_per_cycle must be positive";
  if (!power_of_two(s.nram_align_bytes) || !power_of_two(s.vector_count_align_bytes))
    return "nram_align_bytes and vector_count_align_bytes must be powers of two";
  if (s.transpose_align_bytes <= 0 || s.dma_requests_in_flight <= 0)
    return "transpose_align_bytes and dma_requests_in_flight must be positive";
  if (s.atomic_hold_ns < 0) return "atomic_hold_ns must not be negative";
  if (s.gdram_write_extra < 0 || s.gdram_segment_bytes < 0)
    return "gdram_write_extra and gdram_segment_bytes must not be negative";
  if (!(s.gdram_efficiency > 0) || s.gdram_efficiency > 1)
    return "gdram_efficiency must lie in (0, 1]";
  if (std::min({s.scalar_op_cycles, s.scalar_divide_cycles, s.scalar_block_cycles,
                s.scalar_onchip_cycles, s.scalar_sram_cycles, s.scalar_gdram_load_ns,
                s.scalar_gdram_store_cycles}) < 0)
    return "no scalar_* price may be negative";
  return nullptr;
}

}  // namespace

cnrtRet_t mlusimSetDeviceSpec(const mlusimDeviceSpec_t *spec) {
  const char *problem = spec == nullptr ? "the spec is NULL" : spec_problem(*spec);
  if (problem != nullptr) {
    log::runtime().error("mlusimSetDeviceSpec refused: {}", problem);
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
cnrtRet_t mlusimSetGdramGuard(int on) {
  gdram_set_guard(on != 0);
  return cnrtSuccess;
}
int mlusimGetGdramGuard(void) { return gdram_guard() ? 1 : 0; }
