// What a .mlu program is built for, as compile-time messages name it:
// mlusim-cncc defines cncc's __BANG_ARCH__ from --bang-mlu-arch (or
// --bang-arch) and __MLUSIM_BANG_MLU_ARCH__ as the option's name.
#pragma once

#define MLUSIM_TARGET_TEXT_(x) #x
#define MLUSIM_TARGET_TEXT(x) MLUSIM_TARGET_TEXT_(x)
#if defined(__MLUSIM_BANG_MLU_ARCH__) && defined(__BANG_ARCH__)
// "built for mtp_372 (__BANG_ARCH__ 372)"
#define MLUSIM_BUILT_FOR                                                                   \
  "built for " MLUSIM_TARGET_TEXT(__MLUSIM_BANG_MLU_ARCH__) " (__BANG_ARCH__ " MLUSIM_TARGET_TEXT( \
      __BANG_ARCH__) ")"
#else
#define MLUSIM_BUILT_FOR "built without --bang-mlu-arch"
#endif

namespace mlusim::bang {
// The program's __BANG_ARCH__; 0 when it was not built by mlusim-cncc (C++
// that includes bang.h directly), which no architecture rule refuses.
#ifdef __BANG_ARCH__
inline constexpr int kTargetArch = __BANG_ARCH__;
#else
inline constexpr int kTargetArch = 0;
#endif
}  // namespace mlusim::bang
