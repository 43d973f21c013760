// The translation passes, one file each; translate.cpp runs them in order.
// Each reads the unit's original tokens and records edits (unit.h).
#pragma once

#include "tools/cncc/unit.h"

namespace mlusim::cncc {

// __mlu_global__ / __mlu_entry__ / __mlu_func__ / __mlu_device__ / __mlu_host__
// -> C++ functions (qualifiers.cpp).
void rewrite_function_qualifiers(Unit &unit);
// __nram__ / __wram__ / __mlu_shared__ / __ldram__ variables -> the calling
// core's instance, and every use of a file-scope one (onchip_declarations.cpp).
// Fills unit.onchip.
void rewrite_onchip_declarations(Unit &unit);
// Each block of device code charges its scalar arithmetic first:
// { ::mlusim::bang::scalar_work(ops, divides); ... (scalar_work.cpp). Reads unit.onchip.
void count_scalar_work(Unit &unit);
// p[i], *p, p->f in device code -> scalar_at("p.mlu:7", p[i]) and the store
// and update forms (scalar_accesses.cpp). Reads unit.onchip.
void wrap_scalar_accesses(Unit &unit);
// kernel<<<dim, type, queue>>>(args) -> mlusim::bang::launch (launches.cpp).
void rewrite_launches(Unit &unit);
// asm("sync;") and the other MLISA instructions of mlisa.h in device code ->
// the calls doing the same; any other -> an error when used (inline_assembly.cpp).
void translate_inline_assembly(Unit &unit);
// printf in device code -> __bang_printf (device_printf.cpp).
void rewrite_device_printf(Unit &unit);
// Intrinsic calls in device code record their .mlu line (line_marks.cpp).
void mark_intrinsic_lines(Unit &unit);
// 1.5h -> ((half)1.5) (half_literals.cpp).
void rewrite_half_literals(Unit &unit);
// #pragma unroll, #pragma bang ... -> nothing (device_pragmas.cpp).
void drop_device_pragmas(Unit &unit);

}  // namespace mlusim::cncc
