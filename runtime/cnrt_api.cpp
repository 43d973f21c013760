// cnrt.h on the simulated device.
#include "cnrt.h"

#include <cstring>

#include "runtime/gdram.h"
#include "runtime/logging.h"
#include "runtime/queue.h"

using namespace mlusim;

const char *cnrtGetErrorStr(cnrtRet_t ret) {
  switch (ret) {
    case cnrtSuccess: return "success";
    case cnrtErrorArgsInvalid: return "invalid argument";
    case cnrtErrorNoMem: return "out of device memory";
    case cnrtErrorInvalidDevicePtr: return "not a valid device pointer";
    case cnrtErrorDoubleFree: return "not a live allocation (double free or host pointer)";
    case cnrtErrorInvalidDirection: return "memcpy direction disagrees with the pointers";
    case cnrtErrorNoDevice: return "no such device";
    case cnrtErrorInvalidQueue: return "invalid queue";
    case cnrtErrorInvalidNotifier: return "invalid notifier";
    case cnrtErrorInvalidKernelDim: return "invalid kernel dimension or function type";
    case cnrtErrorKernelFault: return "kernel fault on the simulated device";
    case cnrtErrorSys: return "system error";
  }
  return "unknown cnrt error";
}

cnrtRet_t cnrtGetDeviceCount(unsigned int *count) {
  if (count == nullptr) return cnrtErrorArgsInvalid;
  *count = 1;
  return cnrtSuccess;
}

cnrtRet_t cnrtGetDevice(int *ordinal) {
  if (ordinal == nullptr) return cnrtErrorArgsInvalid;
  *ordinal = 0;
  return cnrtSuccess;
}

cnrtRet_t cnrtSetDevice(int ordinal) {
  if (ordinal == 0) return cnrtSuccess;
  log::runtime().error("cnrtSetDevice: device {} does not exist (one simulated device: 0)", ordinal);
  return cnrtErrorNoDevice;
}

cnrtRet_t cnrtMalloc(void **ptr, size_t bytes) { return gdram_alloc(ptr, bytes); }
cnrtRet_t cnrtFree(void *ptr) { return gdram_free(ptr); }

cnrtRet_t cnrtMemset(void *ptr, int value, size_t bytes) {
  if (!gdram_contains(ptr, bytes)) {
    log::runtime().error("cnrtMemset: [{}, +{} bytes) is not inside one device allocation", ptr,
                         bytes);
    return cnrtErrorInvalidDevicePtr;
  }
  std::memset(ptr, value, bytes);
  return cnrtSuccess;
}

cnrtRet_t cnrtMemcpy(void *dst, void *src, size_t bytes, cnrtMemTransDir_t dir) {
  if (dst == nullptr || src == nullptr) {
    log::runtime().error("cnrtMemcpy: null {} pointer", dst == nullptr ? "dst" : "src");
    return cnrtErrorArgsInvalid;
  }
  bool dst_dev, src_dev;
  switch (dir) {
    case cnrtMemcpyHostToDev: dst_dev = true, src_dev = false; break;
    case cnrtMemcpyDevToHost: dst_dev = false, src_dev = true; break;
    case cnrtMemcpyDevToDev: dst_dev = true, src_dev = true; break;
    case cnrtMemcpyHostToHost: dst_dev = false, src_dev = false; break;
    default:
      log::runtime().error("cnrtMemcpy: unknown direction {}", static_cast<int>(dir));
      return cnrtErrorArgsInvalid;
  }
  for (auto [p, dev, name] : {std::tuple{dst, dst_dev, "dst"}, std::tuple{src, src_dev, "src"}}) {
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

cnrtRet_t cnrtQueueCreate(cnrtQueue_t *queue) { return create_queue(queue); }
cnrtRet_t cnrtQueueDestroy(cnrtQueue_t queue) { return destroy_queue(queue); }

cnrtRet_t cnrtQueueSync(cnrtQueue_t queue) {
  // Launches run to completion when issued; syncing only validates the queue.
  return resolve_queue(queue) != nullptr ? cnrtSuccess : cnrtErrorInvalidQueue;
}

cnrtRet_t cnrtNotifierCreate(cnrtNotifier_t *notifier) {
  if (notifier == nullptr) return cnrtErrorArgsInvalid;
  *notifier = new cnrtNotifier();
  return cnrtSuccess;
}

cnrtRet_t cnrtNotifierDestroy(cnrtNotifier_t notifier) {
  if (notifier == nullptr) return cnrtErrorInvalidNotifier;
  delete notifier;
  return cnrtSuccess;
}

cnrtRet_t cnrtPlaceNotifier(cnrtNotifier_t notifier, cnrtQueue_t queue) {
  cnrtQueue *q = resolve_queue(queue);
  if (notifier == nullptr) return cnrtErrorInvalidNotifier;
  if (q == nullptr) return cnrtErrorInvalidQueue;
  notifier->queue = q;
  notifier->time_us = q->now_us;
  return cnrtSuccess;
}

cnrtRet_t cnrtNotifierDuration(cnrtNotifier_t start, cnrtNotifier_t end, float *us) {
  if (us == nullptr) return cnrtErrorArgsInvalid;
  if (start == nullptr || end == nullptr || start->queue == nullptr ||
      start->queue != end->queue) {
    log::runtime().error("cnrtNotifierDuration: notifiers not both placed on one queue");
    return cnrtErrorInvalidNotifier;
  }
  *us = static_cast<float>(end->time_us - start->time_us);
  return cnrtSuccess;
}
