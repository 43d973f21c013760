/* bang.h: the kernel side of BANG C on the simulated MLU. What a .mlu file sees
 * from Cambricon's bang.h: function and memory-space qualifiers, built-in
 * variables, intrinsics, half, and the headers the real one brings in (cnrt.h
 * and the C library). Convenience macros such as MAX_NRAM_SIZE or PAD_UP are
 * not BANG C: programs define their own. Build .mlu files with mlusim-cncc or
 * the CMake function mlusim_add_bang_executable (docs/bang_c.md). */
#ifndef MLUSIM_BANG_H_
#define MLUSIM_BANG_H_

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cnrt.h"
#include "mlusim/bang/builtins.h"
#include "mlusim/bang/detail/core.h"
#include "mlusim/bang/memory.h"
#include "mlusim/bang/detail/program.h"
#include "mlusim/bang/vector.h"
#include "mlusim/bang/activation.h"
#include "mlusim/bang/assembly.h"
#include "mlusim/bang/memset.h"
#include "mlusim/bang/fusion.h"
#include "mlusim/bang/layout.h"
#include "mlusim/bang/math_library.h"
#include "mlusim/bang/matrix.h"
#include "mlusim/bang/memory_forms.h"
#include "mlusim/bang/not_yet.h"
#include "mlusim/bang/pooling.h"
#include "mlusim/bang/print.h"
#include "mlusim/bang/reduce.h"
#include "mlusim/bang/scalar.h"
#include "mlusim/bang/select.h"
#include "mlusim/bang/architecture.h" /* last: the gates wrap calls of the intrinsics above */

#endif /* MLUSIM_BANG_H_ */
