// cnrt.h on the simulated device. Every entry point records a failure as the
// calling thread's last error (cnrtGetLastError) and logs the condition.
#include "cnrt.h"

#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <tuple>

#include <spdlog/fmt/fmt.h>

#include "runtime/devices.h"
#include "runtime/gdram.h"
#include "runtime/last_error.h"
#include "runtime/launch.h"
#include "runtime/logging.h"
#include "runtime/queue.h"
#include "runtime/sdk/device_facts.h"

using namespace mlusim;

namespace {

struct ErrorInfo {
  cnrtRet_t code;
  const char *name;
  const char *text;
};

#define MLUSIM_ERROR(code, text) {code, #code, text}
constexpr ErrorInfo kErrors[] = {
    MLUSIM_ERROR(cnrtSuccess, "success"),
    MLUSIM_ERROR(cnrtErrorNotReady, "device or resource not ready"),
    MLUSIM_ERROR(cnrtErrorInit, "initialisation failed"),
    MLUSIM_ERROR(cnrtErrorNoDevice, "no such device"),
    MLUSIM_ERROR(cnrtErrorDeviceInvalid, "device ordinal out of range"),
    MLUSIM_ERROR(cnrtErrorArgsInvalid, "invalid argument"),
    MLUSIM_ERROR(cnrtErrorSys, "system error"),
    MLUSIM_ERROR(cnrtErrorSysNoMem, "out of host memory"),
    MLUSIM_ERROR(cnrtErrorInvalidResourceHandle, "invalid resource handle (queue or notifier)"),
    MLUSIM_ERROR(cnrtErrorIllegalState, "resource in use (e.g. memory a running launch uses)"),
    MLUSIM_ERROR(cnrtErrorNotSupport, "not supported"),
    MLUSIM_ERROR(cnrtErrorOpsNotPermitted, "operation not permitted"),
    MLUSIM_ERROR(cnrtErrorQueue, "no default queue"),
    MLUSIM_ERROR(cnrtErrorNoMem, "out of device memory"),
    MLUSIM_ERROR(cnrtErrorNoKernel, "kernel not registered with the runtime"),
    MLUSIM_ERROR(cnrtErrorNoModule, "module not registered"),
    MLUSIM_ERROR(cnrtErrorSetOnActiveProcess, "device flag set on an active process"),
    MLUSIM_ERROR(cnrtErrorDevice, "resource of another device"),
    MLUSIM_ERROR(cnrtErrorNoAttribute, "no such attribute"),
    MLUSIM_ERROR(cnrtErrorMemcpyDirectionInvalid, "not a memcpy direction"),
    MLUSIM_ERROR(cnrtErrorBusy, "device or resource busy"),
    MLUSIM_ERROR(cnrtErrorCndrvFuncCall, "driver call failed"),
    MLUSIM_ERROR(cnrtErrorCndevFuncCall, "CNDev call failed"),
    MLUSIM_ERROR(cnrtErrorNoCnrtContext, "no CNRT context"),
    MLUSIM_ERROR(cnrtErrorCndrvFuncNotFound, "driver function not found"),
    MLUSIM_ERROR(cnrtErrorInvalidSymbol, "invalid symbol name"),
    MLUSIM_ERROR(cnrtErrorUnknown, "unknown error"),
    MLUSIM_ERROR(cnrtErrorInvalidDevicePtr, "not a valid device pointer"),
    MLUSIM_ERROR(cnrtErrorDoubleFree, "not a live allocation (double free or host pointer)"),
    MLUSIM_ERROR(cnrtErrorInvalidDirection, "memcpy direction disagrees with the pointers"),
    MLUSIM_ERROR(cnrtErrorInvalidKernelDim, "invalid kernel dimension or function type"),
    MLUSIM_ERROR(cnrtErrorKernelFault, "kernel fault on the simulated device"),
};
#undef MLUSIM_ERROR

const ErrorInfo *find_error(cnrtRet_t ret) {
  for (const ErrorInfo &e : kErrors)
    if (e.code == ret) return &e;
  return nullptr;
}

// Where cnrtMemcpy expects each pointer: device (true) or host (false).
struct Sides {
  bool dst_dev, src_dev;
};

cnrtRet_t copy_sides(void *dst, void *src, cnrtMemTransDir_t dir, Sides *sides) {
  switch (dir) {
    case cnrtMemcpyHostToDev: *sides = {true, false}; return cnrtSuccess;
    case cnrtMemcpyDevToHost: *sides = {false, true}; return cnrtSuccess;
    case cnrtMemcpyDevToDev: *sides = {true, true}; return cnrtSuccess;
    case cnrtMemcpyHostToHost: *sides = {false, false}; return cnrtSuccess;
    case cnrtMemcpyNoDirection:  // the pointers tell
      *sides = {gdram_contains(dst, 1), gdram_contains(src, 1)};
      return cnrtSuccess;
    case cnrtMemcpyPeerToPeer:
      log::runtime().error("cnrtMemcpy: PeerToPeer copies between two devices; mlusim "
                           "simulates one (use DevToDev)");
      return cnrtErrorNotSupport;
  }
  log::runtime().error("cnrtMemcpy: {} is not a cnrtMemTransDir_t value", static_cast<int>(dir));
  return cnrtErrorMemcpyDirectionInvalid;
}

cnrtRet_t copy(void *dst, void *src, size_t bytes, cnrtMemTransDir_t dir) {
  if (dst == nullptr || src == nullptr) {
    log::runtime().error("cnrtMemcpy: null {} pointer", dst == nullptr ? "dst" : "src");
    return cnrtErrorArgsInvalid;
  }
  Sides sides;
  if (cnrtRet_t ret = copy_sides(dst, src, dir, &sides); ret != cnrtSuccess) return ret;
  for (auto [p, dev, name] : {std::tuple{dst, sides.dst_dev, "dst"},
                              std::tuple{src, sides.src_dev, "src"}}) {
    if (dev && !gdram_contains(p, bytes)) {
      log::runtime().error("cnrtMemcpy: {} [{}, +{} bytes) is not inside one device allocation",
                           name, p, bytes);
      return cnrtErrorInvalidDevicePtr;
    }
    if (!dev && gdram_contains(p, 1)) {
      log::runtime().error("cnrtMemcpy: {} {} is device memory but the direction says host", name,
                           p);
      return cnrtErrorInvalidDirection;
    }
  }
  std::memmove(dst, src, bytes);
  return cnrtSuccess;
}

cnrtRet_t check_device(int device, const char *api) {
  if (sdk::valid_ordinal(device)) return cnrtSuccess;
  log::runtime().error("{}: device {} does not exist (one simulated device: 0)", api, device);
  return cnrtErrorNoDevice;
}

cnrtRet_t device_attribute(cnrtDeviceAttr_t attr, int *value) {
  switch (sdk::device_attribute(attr, value, "cnrtDeviceGetAttribute")) {
    case sdk::Attribute::answered: return cnrtSuccess;
    case sdk::Attribute::not_supported: return cnrtErrorNotSupport;
    case sdk::Attribute::unknown: break;
  }
  return cnrtErrorArgsInvalid;
}

// The simulated time from `start` to `end` in units of `us_per_unit`
// microseconds, as the host observes it or the device's alone.
cnrtRet_t notifier_interval(cnrtNotifier_t start, cnrtNotifier_t end, float *out,
                            double us_per_unit, bool host_observed, const char *api) {
  if (out == nullptr) {
    log::runtime().error("{}: null output pointer", api);
    return cnrtErrorArgsInvalid;
  }
  double us = 0;
  if (cnrtRet_t ret = notifier_interval_us(start, end, host_observed, &us); ret != cnrtSuccess)
    return ret;
  *out = static_cast<float>(us / us_per_unit);
  return cnrtSuccess;
}

// Kernels cnrtInvokeKernel can call by address.
struct KernelEntry {
  std::string name;
  KernelInvoker invoke;
  size_t arity;
};

struct KernelTable {
  std::mutex mutex;
  std::map<const void *, KernelEntry> kernels;
};

KernelTable &kernel_table() {
  static KernelTable t;
  return t;
}

bool find_kernel(const void *kernel, KernelEntry *entry) {
  KernelTable &t = kernel_table();
  std::lock_guard<std::mutex> lock(t.mutex);
  auto it = t.kernels.find(kernel);
  if (it == t.kernels.end()) return false;
  *entry = it->second;
  return true;
}

cnrtRet_t invoke_kernel(const void *kernel, cnrtDim3_t dim, cnrtFunctionType_t type, void **args,
                        size_t reserved, cnrtQueue_t queue) {
  KernelEntry entry;
  if (kernel == nullptr || !find_kernel(kernel, &entry)) {
    log::runtime().error("cnrtInvokeKernel: {} is not a kernel the runtime knows (call it "
                         "typed, or register it with mlusim::register_kernel)",
                         kernel);
    return cnrtErrorNoKernel;
  }
  if (reserved != 0) {
    log::runtime().error("cnrtInvokeKernel: reserved is {}, must be 0", reserved);
    return cnrtErrorArgsInvalid;
  }
  for (size_t i = 0; i < entry.arity; ++i) {
    if (args == nullptr || args[i] == nullptr) {
      log::runtime().error("cnrtInvokeKernel: kernel '{}' takes {} arguments but args{} is null",
                           entry.name, entry.arity, args == nullptr ? "" : fmt::format("[{}]", i));
      return cnrtErrorArgsInvalid;
    }
  }
  return launch_kernel(entry.name.c_str(), dim, type, queue,
                       [&] { entry.invoke(kernel, args); });
}

}  // namespace

void mlusim::register_kernel(const void *kernel, const char *name, KernelInvoker invoke,
                             size_t arity) {
  KernelTable &t = kernel_table();
  std::lock_guard<std::mutex> lock(t.mutex);
  auto [it, added] = t.kernels.try_emplace(kernel, KernelEntry{"", invoke, arity});
  if (name != nullptr)
    it->second.name = name;
  else if (added)
    it->second.name = fmt::format("kernel@{}", kernel);
}

const char *cnrtGetErrorStr(cnrtRet_t ret) {
  const ErrorInfo *e = find_error(ret);
  return e != nullptr ? e->text : "unknown cnrt error code";
}

const char *cnrtGetErrorName(cnrtRet_t ret) {
  const ErrorInfo *e = find_error(ret);
  return e != nullptr ? e->name : "cnrtErrorUnrecognised";
}

cnrtRet_t cnrtGetLastError(void) { return take_last_error(); }
cnrtRet_t cnrtPeekAtLastError(void) { return peek_last_error(); }

cnrtRet_t cnrtGetDeviceCount(unsigned int *count) {
  if (count == nullptr) {
    log::runtime().error("cnrtGetDeviceCount: null output pointer");
    return note_error(cnrtErrorArgsInvalid);
  }
  *count = 1;
  return cnrtSuccess;
}

cnrtRet_t cnrtGetDevice(int *ordinal) {
  if (ordinal == nullptr) {
    log::runtime().error("cnrtGetDevice: null output pointer");
    return note_error(cnrtErrorArgsInvalid);
  }
  *ordinal = 0;
  return cnrtSuccess;
}

cnrtRet_t cnrtSetDevice(int ordinal) { return note_error(check_device(ordinal, "cnrtSetDevice")); }

cnrtRet_t cnrtDeviceGetAttribute(int *value, cnrtDeviceAttr_t attr, int device) {
  if (value == nullptr) {
    log::runtime().error("cnrtDeviceGetAttribute: null output pointer");
    return note_error(cnrtErrorArgsInvalid);
  }
  if (cnrtRet_t ret = check_device(device, "cnrtDeviceGetAttribute"); ret != cnrtSuccess)
    return note_error(ret);
  return note_error(device_attribute(attr, value));
}

cnrtRet_t cnrtMalloc(void **ptr, size_t bytes) { return note_error(gdram_alloc(ptr, bytes)); }
cnrtRet_t cnrtFree(void *ptr) { return note_error(gdram_free(ptr)); }

cnrtRet_t cnrtMemset(void *ptr, int value, size_t bytes) {
  if (!gdram_contains(ptr, bytes)) {
    log::runtime().error("cnrtMemset: [{}, +{} bytes) is not inside one device allocation", ptr,
                         bytes);
    return note_error(cnrtErrorInvalidDevicePtr);
  }
  std::memset(ptr, value, bytes);
  return cnrtSuccess;
}

cnrtRet_t cnrtMemcpy(void *dst, void *src, size_t bytes, cnrtMemTransDir_t dir) {
  return note_error(copy(dst, src, bytes, dir));
}

cnrtRet_t cnrtMemcpyAsync(void *dst, void *src, size_t bytes, cnrtQueue_t queue,
                          cnrtMemTransDir_t dir) {
  if (resolve_queue(queue) == nullptr) {
    log::runtime().error("cnrtMemcpyAsync: {} is not a live queue", static_cast<void *>(queue));
    return note_error(cnrtErrorInvalidQueue);
  }
  return note_error(copy(dst, src, bytes, dir));
}

cnrtRet_t cnrtQueueCreate(cnrtQueue_t *queue) { return note_error(create_queue(queue)); }
cnrtRet_t cnrtQueueDestroy(cnrtQueue_t queue) { return note_error(destroy_queue(queue)); }
cnrtRet_t cnrtQueueSync(cnrtQueue_t queue) { return note_error(sync_queue(queue)); }

cnrtRet_t cnrtNotifierCreate(cnrtNotifier_t *notifier) {
  return note_error(create_notifier(notifier));
}
cnrtRet_t cnrtNotifierDestroy(cnrtNotifier_t notifier) {
  return note_error(destroy_notifier(notifier));
}
cnrtRet_t cnrtPlaceNotifier(cnrtNotifier_t notifier, cnrtQueue_t queue) {
  return note_error(place_notifier(notifier, queue));
}

cnrtRet_t cnrtNotifierDuration(cnrtNotifier_t start, cnrtNotifier_t end, float *us) {
  return note_error(notifier_interval(start, end, us, 1, false, "cnrtNotifierDuration"));
}

cnrtRet_t cnrtNotifierElapsedTime(cnrtNotifier_t start, cnrtNotifier_t end, float *ms) {
  return note_error(notifier_interval(start, end, ms, 1000, true, "cnrtNotifierElapsedTime"));
}

cnrtRet_t cnrtInvokeKernel(const void *kernel, cnrtDim3_t dim, cnrtFunctionType_t type,
                           void **args, size_t reserved, cnrtQueue_t queue) {
  // launch_kernel records its own failures; note_error records the rest.
  return note_error(invoke_kernel(kernel, dim, type, args, reserved, queue));
}
