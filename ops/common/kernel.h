// What the operators' kernels share beyond BANG C: the sizes and alignment
// macros mlu-ops' kernels define for themselves (bang.h does not), and the
// launch status mlu-ops' host code reads.
#pragma once

#include <bang.h>

// On-chip sizes of the simulated device, in bytes, as the kernels see them.
#define MAX_NRAM_SIZE (static_cast<int>(::mlusim::this_core().nram_capacity))
#define MAX_SRAM_SIZE (static_cast<int>(::mlusim::this_core().sram_capacity))
#define MAX_WRAM_SIZE (static_cast<int>(::mlusim::this_core().wram_capacity))

#define NFU_ALIGN_SIZE 128
#define COMPUTE_COUNT_ALIGN 64
#define WRAM_ALIGN_SIZE 64
#define PAD_UP(x, y) (((x) / (y) + (int)((x) % (y) > 0)) * (y))
#define PAD_DOWN(x, y) (((x) / (y)) * (y))
#define CEIL_ALIGN(x, y) PAD_UP(x, y)
#define FLOOR_ALIGN(x, y) PAD_DOWN(x, y)

// The status of a kernel<<<...>>>(...) launch, as mlu-ops' KERNEL_CHECK reads
// it: stale errors cleared first, then cnrtGetLastError after the launch.
#define MLUOP_LAUNCH_STATUS(...) ((void)cnrtGetLastError(), (__VA_ARGS__), cnrtGetLastError())
