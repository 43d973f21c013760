// A device fill (mluOpFill's job): every element of a GDRAM range set to one
// value. Any operator can call mluop::launch_fill inside its own OpScope.
// Each task writes the value into NRAM once, then copies that block NRAM2GDRAM
// over its share of the range.
#pragma once

#include <cstddef>
#include <cstdint>

#include "mlu_op.h"

namespace mluop {

// The share [begin, end) of `total` units that part `part` of `parts` owns:
// total / parts each, the remainder going to the first parts. Every kernel in
// ops/common (and masked_im2col_forward) splits its work across tasks this way.
struct Share {
  int64_t begin, end;
};
inline Share split_evenly(int64_t total, int part, int parts) {
  const int64_t base = total / parts, rem = total % parts;
  const int64_t begin = part * base + (part < rem ? part : rem);
  return {begin, begin + base + (part < rem ? 1 : 0)};
}

// dst[0, count) = value, split across the tasks.
template <typename T>
void MLUKernelFill(T *dst, int64_t count, T value);

// Launches dst[0, count) = value on handle's queue, value converted to dtype
// (half, float, int8/16/32/64, uint8, bool). count 0: nothing is launched.
// BAD_PARAM for an unsupported dtype, EXECUTION_FAILED when the launch fails
// (dst outside device memory faults the kernel); one log line under `api`.
mluOpStatus_t launch_fill(mluOpHandle_t handle, const char *api, mluOpDataType_t dtype,
                          double value, void *dst, size_t count);

}  // namespace mluop
