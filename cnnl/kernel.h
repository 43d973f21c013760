// What the CNNL stand-in's kernels (.mlu) share beyond BANG C.
#pragma once

#include <bang.h>

#include "cnnl/plan.h"

// The status of a kernel<<<...>>>(...) launch: stale errors cleared first,
// then the launch's own from cnrtGetLastError.
#define CNNL_LAUNCH_STATUS(...) ((void)cnrtGetLastError(), (__VA_ARGS__), cnrtGetLastError())

namespace cnnlsim {

// f(U{}) with U the unsigned integer of `width` bytes (1, 2, 4 or 8; the host
// allows no other): kernels that only move or set elements treat every dtype
// as its bit pattern.
template <typename F>
cnrtRet_t with_width(int width, F f) {
  switch (width) {
    case 1: return f(uint8_t{});
    case 2: return f(uint16_t{});
    case 4: return f(uint32_t{});
    default: return f(uint64_t{});
  }
}

}  // namespace cnnlsim
