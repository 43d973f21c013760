// What a cluster's memory core does with the instructions of a kernel that
// need NRAM or WRAM, which it does not have (BANG C guide 3.3.2). A UNION
// kernel without an `if (__is_mpu()) return;` guard runs on the memory core
// too, and mlu-ops' such kernels pass on the boards, so the memory core cannot
// be running their NRAM code for real (psroipool backward's atomic adds would
// count its cluster's first task twice). mlusim skips that code there:
//  - an instruction with an operand in NRAM or WRAM (vector, tensor, a copy
//    to or from them, an atomic reading them) changes nothing outside the
//    memory core's scratch, which stands for the NRAM and WRAM it lacks, and
//    takes no time: copies and atomics are not run, vector and tensor
//    instructions compute into the scratch and their steps are dropped;
//  - scalar code reads and writes the scratch, zeroed before every launch: no
//    copy brings data into it.
// Its NRAM and WRAM operands are checked as a compute core's are (a copy's
// other side is not: runs_on below), and the launch's log
// notes the first such instruction, once per launch: a kernel should not rely
// on this (docs/bang_c.md, docs/finding_bugs.md).
#pragma once

#include <vector>

#include "mlusim/bang/detail/core.h"

namespace mlusim {

// Whether the memory core's instruction `op`, with an operand in its scratch
// at [off, off + bytes) of `space` (NRAM or WRAM), stays inside what the
// kernel declared; if so it is skipped, and the first of a launch is logged.
bool skip_on_memory_core(const CoreContext &c, const char *op, Space space, size_t off,
                         size_t bytes);

// The memory core's barrier `op` of the compute cores alone (__sync_all_ipu,
// __sync_all_ipu_within_cluster), which it does not take part in: it passes
// without waiting, as a board's must (mlu-ops v1.5.2's nms_rotated calls
// __sync_all_ipu_within_cluster on its memory cores and passes). It shares the
// launch's one note with the skipped instructions.
void pass_compute_barrier(const CoreContext &c, const char *op);

// NRAM and WRAM: what each compute core has and a memory core lacks.
inline bool private_to_a_core(Space s) { return s == Space::kNram || s == Space::kWram; }

// Whether a memory core's copy between `dst` and `src` runs: not when either
// side is NRAM or WRAM. Such a copy's NRAM or WRAM side is checked as any
// skipped instruction's; its other side is not, the copy not being there: the
// BANG C guide's four- and five-stage vectoradd samples give their memory
// cores an SRAM2NRAM copy from `sram + coreId * n`, past the SRAM with coreId
// 0x80, and print PASSED on the boards.
inline bool runs_on(const CoreContext &c, Space dst, Space src) {
  return !c.is_mpu || !(private_to_a_core(dst) || private_to_a_core(src));
}

// After the run: the vector counts the memory cores' skipped vector and
// tensor instructions left are dropped. Their steps take no time: the timing
// model skips a memory core's steps in its scratch (timing::CoreSteps).
void drop_skipped_counts(std::vector<CoreContext> &cores);

}  // namespace mlusim
