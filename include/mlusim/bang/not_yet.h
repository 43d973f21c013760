// BANG C intrinsics that real kernels call and mlusim does not simulate yet.
// Each is declared so that a call fails to compile with a message naming it,
// instead of "not declared" or, worse, a silent no-op. docs/bang_c_intrinsics.md
// lists what is there and what is missing.
#pragma once

#include "mlusim/bang/vector_registers.h"

// The return type is deduced from the body, so even a call whose value is used
// ("int i = name(...)") instantiates it and shows the message.
#define MLUSIM_NOT_YET(name)                                                            \
  template <typename... Args>                                                           \
  auto name(Args...) {                                                                  \
    static_assert(sizeof...(Args) != sizeof...(Args),                                   \
                  "mlusim: " #name " is not simulated yet (docs/bang_c_intrinsics.md)"); \
  }
MLUSIM_NOT_YET(__bang_maxpool_index)
MLUSIM_NOT_YET(__bang_minpool_index)
MLUSIM_NOT_YET(__bang_avgpool_bp)
MLUSIM_NOT_YET(__bang_unpool)
MLUSIM_NOT_YET(__bang_lock)
MLUSIM_NOT_YET(__bang_unlock)
#undef MLUSIM_NOT_YET
