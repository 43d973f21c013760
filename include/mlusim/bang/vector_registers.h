// BANG C's vector registers: __mlu_vector__ functions, the vv_* register types
// and the __vv_* intrinsics (mlu-ops' kernels/utils declares helpers on them).
// mlusim has no model of vector registers, so the types and intrinsics are
// declared for such code to compile, and a call that the program really makes
// (one the compiler emits) fails to compile with a message naming the
// intrinsic and the architecture the program is built for.
#pragma once

#include <cstdint>

#ifndef __MLUSIM_CNCC__  // mlusim-cncc translates the qualifier itself
#define __mlu_vector__ inline
#endif

// A vector register holding elements of T; opaque: only the intrinsics use it.
template <typename T>
struct mlusim_vector_register {
  T lanes[64];
};
typedef mlusim_vector_register<float> vv_float;
typedef mlusim_vector_register<_Float16> vv_half;
typedef mlusim_vector_register<int32_t> vv_int32;
typedef mlusim_vector_register<uint32_t> vv_uint32;
typedef mlusim_vector_register<int16_t> vv_int16;
typedef mlusim_vector_register<uint16_t> vv_uint16;
typedef mlusim_vector_register<int8_t> vv_int8;
typedef mlusim_vector_register<uint8_t> vv_uint8;

#define MLUSIM_VV_TEXT(x) #x
#define MLUSIM_VV_STRING(x) MLUSIM_VV_TEXT(x)
#if defined(__MLUSIM_BANG_MLU_ARCH__) && defined(__BANG_ARCH__)
#define MLUSIM_VV_ARCH                                                                 \
  "built for " MLUSIM_VV_STRING(__MLUSIM_BANG_MLU_ARCH__) " (__BANG_ARCH__ " MLUSIM_VV_STRING( \
      __BANG_ARCH__) ")"
#else
#define MLUSIM_VV_ARCH "built without --bang-mlu-arch"
#endif
#define MLUSIM_VECTOR_REGISTER_INTRINSIC(Result, name)                                     \
  template <typename... Args>                                                              \
  [[gnu::error("mlusim: " #name " is a vector-register intrinsic, which mlusim does not "  \
               "simulate; this program is " MLUSIM_VV_ARCH " (docs/bang_c_intrinsics.md)")]] \
  Result name(Args...);
MLUSIM_VECTOR_REGISTER_INTRINSIC(unsigned, __vv_get_length)
MLUSIM_VECTOR_REGISTER_INTRINSIC(void, __vv_load)
MLUSIM_VECTOR_REGISTER_INTRINSIC(void, __vv_store)
MLUSIM_VECTOR_REGISTER_INTRINSIC(void, __vv_move)
MLUSIM_VECTOR_REGISTER_INTRINSIC(void, __vv_index)
MLUSIM_VECTOR_REGISTER_INTRINSIC(void, __vv_add)
MLUSIM_VECTOR_REGISTER_INTRINSIC(void, __vv_sub)
MLUSIM_VECTOR_REGISTER_INTRINSIC(void, __vv_mul)
MLUSIM_VECTOR_REGISTER_INTRINSIC(void, __vv_mulh)
MLUSIM_VECTOR_REGISTER_INTRINSIC(void, __vv_and)
MLUSIM_VECTOR_REGISTER_INTRINSIC(void, __vv_or)
MLUSIM_VECTOR_REGISTER_INTRINSIC(void, __vv_xor)
MLUSIM_VECTOR_REGISTER_INTRINSIC(void, __vv_trixor)
#undef MLUSIM_VECTOR_REGISTER_INTRINSIC
#undef MLUSIM_VV_ARCH
#undef MLUSIM_VV_STRING
#undef MLUSIM_VV_TEXT
