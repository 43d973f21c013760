// CNRT entry points beyond runtime/sdk/cnrt_api.cpp that host libraries and test
// harnesses call: versions, device reset and PCI address, constant and host
// memory, memory info, pointer attributes, queues waiting on notifiers.
#include <cstring>

#include <spdlog/fmt/fmt.h>

#include "cnrt.h"
#include "runtime/devices.h"
#include "runtime/gdram.h"
#include "runtime/last_error.h"
#include "runtime/logging.h"
#include "runtime/queue.h"
#include "runtime/sdk/device_facts.h"
#include "runtime/sdk/host_memory.h"

using namespace mlusim;

namespace {

cnrtRet_t null_output(const char *api) {
  log::runtime().error("{}: null output pointer", api);
  return note_error(cnrtErrorArgsInvalid);
}

cnrtPointerAttributes_t unregistered(const void *ptr) {
  cnrtPointerAttributes_t a{};
  a.type = cnrtMemTypeUnregistered;
  a.device = -1;
  a.hostPointer = const_cast<void *>(ptr);
  a.cacheMode = cnrtUvaUnknown;
  return a;
}

}  // namespace

cnrtRet_t cnrtGetLibVersion(int *major, int *minor, int *patch) {
  if (major == nullptr || minor == nullptr || patch == nullptr)
    return null_output("cnrtGetLibVersion");
  *major = CNRT_MAJOR_VERSION;
  *minor = CNRT_MINOR_VERSION;
  *patch = CNRT_PATCH_VERSION;
  return cnrtSuccess;
}

cnrtRet_t cnrtDeviceReset(void) { return note_error(gdram_free_all()); }

cnrtRet_t cnrtDeviceGetPCIBusId(char *pciBusId, int len, int device) {
  if (pciBusId == nullptr) return null_output("cnrtDeviceGetPCIBusId");
  if (!sdk::valid_ordinal(device)) {
    log::runtime().error("cnrtDeviceGetPCIBusId: device {} does not exist (one simulated device: "
                         "0)",
                         device);
    return note_error(cnrtErrorDeviceInvalid);
  }
  if (len <= static_cast<int>(std::strlen(sdk::kPciBusId))) {
    log::runtime().error("cnrtDeviceGetPCIBusId: {} bytes cannot hold \"{}\" and its NUL", len,
                         sdk::kPciBusId);
    return note_error(cnrtErrorArgsInvalid);
  }
  std::strcpy(pciBusId, sdk::kPciBusId);
  return cnrtSuccess;
}

cnrtRet_t cnrtMallocConstant(void **pPtr, size_t bytes) {
  return note_error(gdram_alloc(pPtr, bytes));
}

cnrtRet_t cnrtHostMalloc(void **pPtr, size_t bytes) {
  return note_error(sdk::host_alloc(pPtr, bytes, "cnrtHostMalloc"));
}

cnrtRet_t cnrtFreeHost(void *ptr) { return note_error(sdk::host_free(ptr, "cnrtFreeHost")); }

cnrtRet_t cnrtMemGetInfo(size_t *free, size_t *total) {
  if (free == nullptr && total == nullptr) return null_output("cnrtMemGetInfo");
  const size_t capacity = current_device().gdram_bytes, used = gdram_live_bytes();
  if (free != nullptr) *free = capacity > used ? capacity - used : 0;
  if (total != nullptr) *total = capacity;
  return cnrtSuccess;
}

cnrtRet_t cnrtPointerGetAttributes(cnrtPointerAttributes_t *attr, const void *ptr) {
  if (attr == nullptr) return null_output("cnrtPointerGetAttributes");
  *attr = unregistered(ptr);
  GdramRange range;
  void *start = nullptr;
  size_t bytes = 0;
  if (gdram_find_live(ptr, &range)) {
    attr->type = cnrtMemTypeDevice;
    attr->device = 0;
    attr->size = range.end - range.begin;
    attr->devicePointer = const_cast<void *>(ptr);
    attr->hostPointer = nullptr;
    attr->deviceBasePointer = reinterpret_cast<void *>(range.begin);
  } else if (sdk::host_find(ptr, &start, &bytes)) {
    attr->type = cnrtMemTypeHost;
    attr->device = 0;
    attr->size = bytes;
    attr->cacheMode = cnrtUvaCached;
  }
  return cnrtSuccess;
}

cnrtRet_t cnrtQueueWaitNotifier(cnrtNotifier_t notifier, cnrtQueue_t queue, unsigned int flag) {
  if (flag != 0) {
    log::runtime().error("cnrtQueueWaitNotifier: flag is {}, must be 0", flag);
    return note_error(cnrtErrorArgsInvalid);
  }
  return note_error(queue_wait_notifier(queue, notifier));
}
