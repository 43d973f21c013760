// Host side of a kernel launch: kernel<<<dim, type, queue>>>(args...) becomes
// MLUSIM_LAUNCH(kernel, dim, type, queue, args...). The launch runs every task on
// a simulated core (cores are fibers on OpenMP worker threads, see
// runtime/scheduler.h), then charges the queue.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "cnrt.h"
#include "mlusim/bang/detail/core.h"

namespace mlusim {

// Runs body() once per task of the launch. Returns cnrtErrorKernelFault if a
// core faulted (the message is in mlusimGetLastError()).
cnrtRet_t launch_kernel(const char *name, cnrtDim3_t dim, cnrtFunctionType_t type,
                        cnrtQueue_t queue, const std::function<void()> &body);

template <typename... Params, typename... Args>
cnrtRet_t launch(const char *name, cnrtDim3_t dim, cnrtFunctionType_t type, cnrtQueue_t queue,
                 void (*kernel)(Params...), Args &&...args) {
  return launch_kernel(name, dim, type, queue, [&] { kernel(args...); });
}

}  // namespace mlusim

#define MLUSIM_LAUNCH(kernel, dim, type, queue, ...) \
  ::mlusim::launch(#kernel, dim, type, queue, kernel __VA_OPT__(, ) __VA_ARGS__)
