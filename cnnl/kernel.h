// What the CNNL stand-in's kernels (.mlu) share beyond BANG C.
#pragma once

#include <bang.h>

#include "cnnl/plan.h"

// The status of a kernel<<<...>>>(...) launch: stale errors cleared first,
// then the launch's own from cnrtGetLastError.
#define CNNL_LAUNCH_STATUS(...) ((void)cnrtGetLastError(), (__VA_ARGS__), cnrtGetLastError())
