// AddressSanitizer's manual poisoning, or nothing in builds without it.
#pragma once

#include <cstddef>

#if defined(__SANITIZE_ADDRESS__)
#define MLUSIM_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MLUSIM_ASAN 1
#endif
#endif

#ifdef MLUSIM_ASAN
#include <sanitizer/asan_interface.h>
#endif

namespace mlusim::asan {

#ifdef MLUSIM_ASAN
constexpr bool kEnabled = true;
inline void poison(const void *p, size_t bytes) { ASAN_POISON_MEMORY_REGION(p, bytes); }
inline void unpoison(const void *p, size_t bytes) { ASAN_UNPOISON_MEMORY_REGION(p, bytes); }
#else
constexpr bool kEnabled = false;
inline void poison(const void *, size_t) {}
inline void unpoison(const void *, size_t) {}
#endif

}  // namespace mlusim::asan
