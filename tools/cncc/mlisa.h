// MLISA instructions written as inline assembly in device code, read from the
// asm statement's template: those whose meaning is clear become the C++ that
// does the same on the simulator (include/mlusim/bang/assembly.h); any other
// is reported back, and the statement becomes a compile error when the
// program uses it (passes/inline_assembly.cpp).
//
//   sync                                    -> __sync()
//   findlast1.gpr.b32 %[d], %[s]            -> d = asm_findlast1(s)
//   fuse.nram.<t> [%[d]], %[n], [%[s]], .mul(%[x]), .sub([%[v]]), ...
//                                           -> asm_fuse<T>(..., d, n, s, {steps})
//   div.scalar.nram.<t> [%[d]], [%[s]], %[x], %[n]
//                                           -> asm_fuse<T>(..., d, n, s, {div x})
//   gather[.clean].nram.nram.nram.b32.u32 [%[d]], [%[s]], [%[o]], %[n]
//                                           -> asm_gather_b32(..., d, s, o, n)
//   index.vvr.<t> %[r], %[base], step       -> __vv_index(r, base, step)
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace mlusim::cncc {

struct MlisaTranslation {
  std::string statements;   // C++ statements over the operands mlusim_asm_0, mlusim_asm_1, ...
  std::string unsupported;  // else: the first instruction mlusim does not run
};

// `text`: the asm template's characters; `names`: the asm operands in order
// (outputs, then inputs), each its [name] or "" (then only %0, %1, ... name it).
MlisaTranslation translate_mlisa(std::string_view text, const std::vector<std::string> &names);

// The template's characters from the string literal tokens "sync;\n\t" "...".
std::string literal_characters(std::string_view literal);

}  // namespace mlusim::cncc
