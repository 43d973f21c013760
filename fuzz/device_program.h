// A random BANG C program for the device model, as fuzz_device_program decodes
// it from libFuzzer's bytes (device_program_fuzz.cpp) and the interpreter
// kernel runs it (device_program.mlu): a list of operations (copies sync and
// async in every direction, fences, barriers, vector and matrix intrinsics,
// atomics, scalar accesses), each on operands named by a base (a declared
// on-chip array, a GDRAM allocation, a freed one, null, host memory) and a
// byte offset that may lie anywhere near it, and each run by a chosen subset
// of the cores.
#pragma once

#include <cstdint>

#include "cnrt.h"

namespace fuzz {

enum class OpKind : uint8_t {
  kCopy,            // __memcpy / __memcpy_async, any direction, maybe strided
  kFence,           // __sync, __sync_io, __sync_move, __sync_compute, __sync_io_move_compute
  kBarrier,         // __sync_cluster, __sync_all, __sync_all_ipu, __sync_all_ipu_within_cluster
  kVector,          // __bang_add, __bang_mul_scalar, __bang_write_value, __bang_float2half_rd
  kMatmul,          // __bang_matmul (NRAM x WRAM)
  kAtomic,          // __bang_atomic_reduce_add, __bang_atomic_add
  kScalarIntrinsic, // __load_gdram / __store_gdram / __load_sram / __store_sram / __load_nram
  kScalarRaw,       // a raw load or store through a pointer (kernel code, no intrinsic)
  kScalarElement,   // an element of a declared on-chip array (checked against async copies)
  kKinds,
};

enum class Base : uint8_t {
  kNram, kSram, kWram,  // the kernel's declared arrays
  kGdram, kGdramSmall,  // two live allocations
  kGdramFreed,          // an allocation freed before the launch
  kNull,
  kHost,                // host memory no kernel may name
  kBases,
};

struct Operand {
  Base base;
  int32_t offset;  // bytes from the base
};

// Which cores run an operation.
enum class Who : uint8_t {
  kAll, kComputeCores, kMemoryCores, kEvenTasks, kOddTasks, kFirstCoreOfCluster,
  kFirstCluster, kTaskZero, kWho,
};

struct Op {
  OpKind kind;
  uint8_t variant;  // which intrinsic of the kind; for copies, the direction (maybe invalid)
  Who who;
  bool async;       // copies, and stores for scalar accesses
  Operand dst, src;
  int32_t size;     // bytes (copies), elements (vector, atomics), m (matmul)
  int32_t dst_stride, src_stride, segnum;
};

// Bytes of each declared on-chip array and GDRAM allocation.
constexpr int kNramBytes = 8192, kSramBytes = 16384, kWramBytes = 8192;
constexpr int kGdramBytes = 16384, kGdramSmallBytes = 256;

// The memory a program's operands name, made once per process.
struct Memory {
  char *gdram, *gdram_small, *gdram_freed;
  char *host;  // a host buffer (never device memory)
};

// Runs `count` operations on every core of a launch of `dim` and `type`
// (the interpreter, device_program.mlu); returns the launch's status.
cnrtRet_t run_program(const Op *ops, int count, cnrtDim3_t dim, cnrtFunctionType_t type,
                      const Memory &memory);
// A correct one-cluster launch; true when it ran and wrote what it should.
bool device_works(const Memory &memory);

}  // namespace fuzz
