// cndev.h on the simulated device: device 0, described by the current device
// preset, used by one process (this one) once CNDev is initialised.
#include "cndev.h"

#include <unistd.h>

#include <atomic>
#include <cmath>

#include "runtime/devices.h"
#include "runtime/gdram.h"
#include "runtime/logging.h"
#include "runtime/sdk/device_facts.h"

using namespace mlusim;

namespace {

std::atomic<bool> g_initialised{false};

// Every query: CNDev initialised, a device that exists, an output to fill.
cndevRet_t check_query(const void *out, cndevDevice_t device, const char *api) {
  if (!g_initialised.load()) {
    log::runtime().error("{}: cndevInit has not been called", api);
    return CNDEV_ERROR_UNINITIALIZED;
  }
  if (out == nullptr) {
    log::runtime().error("{}: null output pointer", api);
    return CNDEV_ERROR_INVALID_ARGUMENT;
  }
  if (!sdk::valid_ordinal(device)) {
    log::runtime().error("{}: device {} does not exist (one simulated device: 0)", api, device);
    return CNDEV_ERROR_INVALID_DEVICE_ID;
  }
  return CNDEV_SUCCESS;
}

// A structure version this CNDev (API version 5) knows.
cndevRet_t check_version(int64_t version, const char *api) {
  if (version < CNDEV_VERSION_1 || version > CNDEV_VERSION_5) {
    log::runtime().error("{}: structure version {} is unsupported (CNDEV_VERSION_1 to {})", api,
                         version, CNDEV_VERSION_5);
    return CNDEV_ERROR_UNSUPPORTED_API_VERSION;
  }
  return CNDEV_SUCCESS;
}

}  // namespace

cndevRet_t cndevInit(int reserved) {
  if (reserved != 0) {
    log::runtime().error("cndevInit: reserved is {}, must be 0", reserved);
    return CNDEV_ERROR_INVALID_ARGUMENT;
  }
  g_initialised = true;
  return CNDEV_SUCCESS;
}

cndevRet_t cndevRelease(void) {
  g_initialised = false;
  return CNDEV_SUCCESS;
}

const char *cndevGetErrorString(cndevRet_t errorId) {
  switch (errorId) {
    case CNDEV_SUCCESS: return "success";
    case CNDEV_ERROR_NO_DRIVER: return "no MLU driver";
    case CNDEV_ERROR_LOW_DRIVER_VERSION: return "MLU driver too old";
    case CNDEV_ERROR_UNSUPPORTED_API_VERSION: return "unsupported API version";
    case CNDEV_ERROR_UNINITIALIZED: return "cndevInit has not been called";
    case CNDEV_ERROR_INVALID_ARGUMENT: return "invalid argument";
    case CNDEV_ERROR_INVALID_DEVICE_ID: return "no such device";
    case CNDEV_ERROR_UNKNOWN: return "unknown error";
    case CNDEV_ERROR_MALLOC: return "memory allocation failed";
    case CNDEV_ERROR_INSUFFICIENT_SPACE: return "too little space for the answer";
    case CNDEV_ERROR_NOT_SUPPORTED: return "not supported";
  }
  return "Cndev_ERROR not found!";
}

cndevRet_t cndevGetDeviceHandleByIndex(int index, cndevDevice_t *handle) {
  if (cndevRet_t ret = check_query(handle, index, "cndevGetDeviceHandleByIndex");
      ret != CNDEV_SUCCESS)
    return ret;
  *handle = index;
  return CNDEV_SUCCESS;
}

cndevRet_t cndevGetProcessInfo(unsigned *infoCount, cndevProcessInfo_t *procInfo,
                               cndevDevice_t device) {
  if (cndevRet_t ret = check_query(infoCount, device, "cndevGetProcessInfo"); ret != CNDEV_SUCCESS)
    return ret;
  const unsigned slots = *infoCount;
  *infoCount = 1;
  if (slots < 1 || procInfo == nullptr) {
    log::runtime().error("cndevGetProcessInfo: {} slots for 1 process", slots);
    return CNDEV_ERROR_INSUFFICIENT_SPACE;
  }
  const uint64_t kib = gdram_live_bytes() / 1024;
  procInfo[0].pid = static_cast<unsigned>(getpid());
  procInfo[0].physicalMemoryUsed = kib;
  procInfo[0].virtualMemoryUsed = kib;
  return CNDEV_SUCCESS;
}

cndevRet_t cndevGetFrequencyInfo(cndevFrequencyInfo_t *freqInfo, cndevDevice_t device) {
  if (cndevRet_t ret = check_query(freqInfo, device, "cndevGetFrequencyInfo");
      ret != CNDEV_SUCCESS)
    return ret;
  const DeviceSpec &spec = current_device();
  const int cluster_mhz = static_cast<int>(std::lround(spec.clock_ghz * 1000));
  freqInfo->boardFreq = cluster_mhz;
  freqInfo->ddrFreq = static_cast<int>(std::lround(sdk::memory_clock_khz(spec) * 2 / 1000.0));
  freqInfo->overtempDfsFlag = 0;
  freqInfo->fastDfsFlag = 0;
  freqInfo->mluClusterFreqCount =
      static_cast<uint16_t>(std::min(spec.clusters, CNDEV_MLU_CLUSTER_FREQUENCY_COUNT));
  for (int c = 0; c < freqInfo->mluClusterFreqCount; ++c)
    freqInfo->mluClusterFreq[c] = static_cast<uint16_t>(cluster_mhz);
  freqInfo->boardDefaultFreq = cluster_mhz;
  freqInfo->boardFreqArange[0] = freqInfo->boardFreqArange[1] = cluster_mhz;
  return CNDEV_SUCCESS;
}

cndevRet_t cndevGetDDRInfo(cndevDDRInfo_t *ddrInfo, cndevDevice_t device) {
  if (cndevRet_t ret = check_query(ddrInfo, device, "cndevGetDDRInfo"); ret != CNDEV_SUCCESS)
    return ret;
  const DeviceSpec &spec = current_device();
  // One decimal, as CNDev gives it: 307.2 GB/s is 307 and 2.
  const long tenths = std::lround(spec.gdram_gbps * 10);
  ddrInfo->dataWidth = static_cast<uint32_t>(spec.gdram_bus_bits);
  ddrInfo->bandWidth = static_cast<uint32_t>(tenths / 10);
  ddrInfo->bandWidthDecimal = static_cast<uint32_t>(tenths % 10);
  return CNDEV_SUCCESS;
}

// Per core per cycle (docs/host_api.md): the matrix unit's multiply-adds of
// the preset; the vector unit's width in elements, twice (a multiply-add is
// two operations). MLU200 devices have no bfloat16 (the driver's compute
// capabilities).
cndevRet_t cndevGetDeviceMaxPerformance(cndevDeviceMaxPerformance_t *maxperformance,
                                        cndevDevice_t device) {
  constexpr const char *api = "cndevGetDeviceMaxPerformance";
  if (cndevRet_t ret = check_query(maxperformance, device, api); ret != CNDEV_SUCCESS) return ret;
  if (cndevRet_t ret = check_version(maxperformance->version, api); ret != CNDEV_SUCCESS)
    return ret;
  const DeviceSpec &spec = current_device();
  const bool bf16 = spec.bang_arch >= 300;
  auto macs = [&](int matrix_class) {
    return static_cast<uint64_t>(std::lround(spec.matrix_macs_per_cycle[matrix_class]));
  };
  auto vector_ops = [&](int element_bytes) {
    return static_cast<uint64_t>(std::lround(2 * spec.vector_bytes_per_cycle / element_bytes));
  };
  maxperformance->int4Tensor = 2 * macs(MLUSIM_MATRIX_INT8);
  maxperformance->int8Tensor = macs(MLUSIM_MATRIX_INT8);
  maxperformance->int16Tensor = macs(MLUSIM_MATRIX_INT16);
  maxperformance->fp16Tensor = macs(MLUSIM_MATRIX_HALF);
  maxperformance->bf16Tensor = bf16 ? macs(MLUSIM_MATRIX_HALF) : 0;
  maxperformance->fp32Tensor = macs(MLUSIM_MATRIX_FLOAT);
  maxperformance->fp16Vector = vector_ops(2);
  maxperformance->bf16Vector = bf16 ? vector_ops(2) : 0;
  maxperformance->fp32Vector = vector_ops(4);
  maxperformance->int8Vector = vector_ops(1);
  maxperformance->int16Vector = vector_ops(2);
  return CNDEV_SUCCESS;
}
