// BANG C intrinsics that real kernels call and mlusim does not simulate yet.
// Each is declared so that a call fails to compile with a message naming it,
// instead of "not declared" or, worse, a silent no-op. docs/bang_c_intrinsics.md
// lists what is there and what is missing.
#pragma once

#include "mlusim/bang/vector_registers.h"

// The return type is deduced from the body, so even a call whose value is used
// ("int i = __bang_findfirst1(...)") instantiates it and shows the message.
#define MLUSIM_NOT_YET(name)                                                            \
  template <typename... Args>                                                           \
  auto name(Args...) {                                                                  \
    static_assert(sizeof...(Args) != sizeof...(Args),                                   \
                  "mlusim: " #name " is not simulated yet (docs/bang_c_intrinsics.md)"); \
  }
MLUSIM_NOT_YET(__bang_argmax)
MLUSIM_NOT_YET(__bang_argmin)
MLUSIM_NOT_YET(__bang_filter)
MLUSIM_NOT_YET(__bang_pad)
MLUSIM_NOT_YET(__bang_reshape_filter)
MLUSIM_NOT_YET(__bang_maxpool_index)
MLUSIM_NOT_YET(__bang_minpool_index)
MLUSIM_NOT_YET(__bang_maxpool_value_index)
MLUSIM_NOT_YET(__bang_avgpool_bp)
MLUSIM_NOT_YET(__bang_unpool)
MLUSIM_NOT_YET(__bang_rotate90)
MLUSIM_NOT_YET(__bang_rotate180)
MLUSIM_NOT_YET(__bang_rotate270)
MLUSIM_NOT_YET(__bang_mirror)
MLUSIM_NOT_YET(__bang_rem)
MLUSIM_NOT_YET(__bang_gather_async)
MLUSIM_NOT_YET(__bang_lock)
MLUSIM_NOT_YET(__bang_unlock)
MLUSIM_NOT_YET(__bang_gt_bitindex)
MLUSIM_NOT_YET(__bang_ge_bitindex)
MLUSIM_NOT_YET(__bang_filter_bitindex)
MLUSIM_NOT_YET(__bang_findfirst1)
MLUSIM_NOT_YET(__bang_nan_maximum)
MLUSIM_NOT_YET(__bang_nan_minimum)
MLUSIM_NOT_YET(__bang_maximum)
MLUSIM_NOT_YET(__bang_minimum)
MLUSIM_NOT_YET(__bang_expand_channel_mul)
MLUSIM_NOT_YET(__bang_incseq)
#undef MLUSIM_NOT_YET
