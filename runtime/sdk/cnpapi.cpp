// cnpapi.h on the simulator: initialisation and release, nothing to profile
// (mlusim.h's reports and traces take CNPAPI's place).
#include "cnpapi.h"

#include <atomic>

#include "runtime/logging.h"

namespace {
std::atomic<bool> g_initialised{false};
}  // namespace

cnpapiResult cnpapiInit(void) {
  g_initialised = true;
  return CNPAPI_SUCCESS;
}

cnpapiResult cnpapiRelease(void) {
  if (!g_initialised.exchange(false)) {
    mlusim::log::runtime().error("cnpapiRelease: cnpapiInit has not been called");
    return CNPAPI_ERROR_NOT_INITIALIZED;
  }
  return CNPAPI_SUCCESS;
}

cnpapiResult cnpapiGetDeviceCount(int *num) {
  if (num == nullptr) {
    mlusim::log::runtime().error("cnpapiGetDeviceCount: null output pointer");
    return CNPAPI_ERROR_INVALID_ARGUMENT;
  }
  *num = 1;
  return CNPAPI_SUCCESS;
}

cnpapiResult cnpapiGetResultString(cnpapiResult result, const char **str) {
  if (str == nullptr) {
    mlusim::log::runtime().error("cnpapiGetResultString: null output pointer");
    return CNPAPI_ERROR_INVALID_ARGUMENT;
  }
  switch (result) {
    case CNPAPI_SUCCESS: *str = "CNPAPI_SUCCESS"; break;
    case CNPAPI_ERROR_NOT_INITIALIZED: *str = "CNPAPI_ERROR_NOT_INITIALIZED"; break;
    case CNPAPI_ERROR_INVALID_DEVICE: *str = "CNPAPI_ERROR_INVALID_DEVICE"; break;
    case CNPAPI_ERROR_INVALID_ARGUMENT: *str = "CNPAPI_ERROR_INVALID_ARGUMENT"; break;
    default: *str = "CNPAPI_ERROR_UNKNOWN"; break;
  }
  return CNPAPI_SUCCESS;
}
