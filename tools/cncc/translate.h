// The translation that lets a C++ compiler build a .mlu file. It runs on the
// preprocessed text (so macros, headers and launches inside macros are already
// expanded) and rewrites only what C++ cannot express, on the same lines, so
// compiler errors and fault messages keep pointing at the user's .mlu lines:
//   __mlu_global__ / __mlu_entry__ / __mlu_func__ / __mlu_device__  -> C++ functions
//   __nram__ / __wram__ / __mlu_shared__ / __ldram__ variables      -> per-core storage
//   kernel<<<dim, type, queue>>>(args)                                -> mlusim::bang::launch
//   asm("sync;") and the other MLISA instructions of mlisa.h in device code
//   -> the calls doing the same (any other: a compile error where it is used)
//   printf in device code -> __bang_printf; 1.5h -> ((half)1.5)
//   #pragma unroll, #pragma bang ... -> nothing
//   intrinsic calls in device code also record their .mlu line for fault messages.
//   buf[i] of a declared __nram__ / __wram__ / __mlu_shared__ array -> scalar_at(
//   "prog.mlu:12", buf[i]), checked against unfenced async copies.
// System headers (and mlusim's own, included as system headers) are left alone.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace mlusim::cncc {

struct Translation {
  std::string text;
  std::vector<std::string> errors;  // "file:line: error: ..." lines
};

Translation translate(std::string_view preprocessed);

}  // namespace mlusim::cncc
