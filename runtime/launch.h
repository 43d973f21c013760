// Host side of a kernel launch: a translated kernel<<<dim, type, queue>>>(args)
// (include/mlusim/bang/detail/program.h) comes here. The launch runs every task
// on a simulated core (cores are fibers on OpenMP worker threads, see
// runtime/scheduler.h), then charges the queue.
#pragma once

#include <functional>

#include "cnrt.h"

namespace mlusim {

// Runs body() once per task of the launch. Returns cnrtErrorKernelFault if a
// core faulted (the message is in mlusimGetLastError()).
cnrtRet_t launch_kernel(const char *name, cnrtDim3_t dim, cnrtFunctionType_t type,
                        cnrtQueue_t queue, const std::function<void()> &body);

}  // namespace mlusim
