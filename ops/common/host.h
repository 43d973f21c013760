// Host-side plumbing every operator shares: the handle, tensor descriptors,
// the parameter-check macros (each failure is one log line naming the
// operator, the condition and the offending values) and device queries.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include <spdlog/fmt/fmt.h>
#include <spdlog/fmt/ranges.h>

#include "mlu_op.h"
#include "runtime/operator_kit.h"

struct mluOpContext {
  // NULL: CNRT's default queue (of the calling thread). Atomic because threads
  // may share a handle while one of them sets its queue.
  std::atomic<cnrtQueue_t> queue{nullptr};
};

struct mluOpTensorStruct {
  mluOpTensorLayout_t layout = MLUOP_LAYOUT_ARRAY;
  mluOpDataType_t dtype = MLUOP_DTYPE_INVALID;
  std::vector<int> dims;

  int dim(int i) const { return dims[static_cast<size_t>(i)]; }
  int rank() const { return static_cast<int>(dims.size()); }
};

namespace mluop {

size_t dtype_size(mluOpDataType_t dtype);  // 0 for INVALID
const char *dtype_name(mluOpDataType_t dtype);
const char *layout_name(mluOpTensorLayout_t layout);
size_t element_count(const mluOpTensorStruct &t);
inline size_t byte_count(const mluOpTensorStruct &t) { return element_count(t) * dtype_size(t.dtype); }
std::string shape_string(const mluOpTensorStruct &t);  // "[2,3,4] NHWC float"

// The element count in double, so that huge dims cannot wrap around to a
// small product; for limits and messages.
inline double element_count_wide(const mluOpTensorStruct &t) {
  double count = 1;
  for (int d : t.dims) count *= d;
  return count;
}
// mlu-ops' TENSOR_NUM_CHECK: a tensor of 2^31 elements or more is too large.
inline bool is_large_tensor(const mluOpTensorStruct &t) {
  return element_count_wide(t) >= 2147483648.0;
}

// mlu-ops' default theoretical IO (getTheoryIoSize): every input and output
// tensor's bytes once. Null descriptors (absent optional tensors) count 0.
inline double theory_io_bytes(std::initializer_list<const mluOpTensorStruct *> tensors) {
  double total = 0;
  for (const mluOpTensorStruct *t : tensors)
    if (t != nullptr) total += static_cast<double>(byte_count(*t));
  return total;
}

// A tensor of an operator call, for the pointer checks: its name in log lines,
// its data pointer and the bytes the call reads or writes there (all of its
// descriptor's; none for a NULL descriptor, an absent optional tensor).
struct DeviceTensor {
  DeviceTensor(const char *name, const void *ptr, size_t bytes)
      : name(name), ptr(ptr), bytes(bytes) {}
  DeviceTensor(const char *name, const void *ptr, const mluOpTensorStruct *desc)
      : DeviceTensor(name, ptr, desc != nullptr ? byte_count(*desc) : 0) {}
  const char *name;
  const void *ptr;
  size_t bytes;
};

// The pointer checks every operator makes after its shape checks, before it
// launches: each tensor of `inputs` and `outputs` with bytes is device memory
// from cnrtMalloc holding them (a tensor of no bytes is never read, so its
// pointer may be anything), and no output shares a byte with an input or an
// earlier output (mlu-ops' operators are not in-place). The first failure is
// BAD_PARAM with one log line naming the tensor or the two tensors.
mluOpStatus_t check_device_tensors(const char *api, std::initializer_list<DeviceTensor> inputs,
                                   std::initializer_list<DeviceTensor> outputs);

// What mlu-ops' policies read from the handle.
inline int cluster_count() { return mlusim::current_device().clusters; }
inline int cores_per_cluster() { return mlusim::current_device().cores_per_cluster; }
inline size_t nram_size() { return mlusim::nram_usable(mlusim::current_device()); }

}  // namespace mluop

// Fails the call with `status` and one log line when `cond` does not hold.
#define MLUOP_CHECK_STATUS(api, cond, status, ...)                                   \
  do {                                                                               \
    if (!(cond)) {                                                                   \
      ::mlusim::log::op().error("[{}] check failed: {}: {}", api, #cond,             \
                                fmt::format(__VA_ARGS__));                           \
      return status;                                                                 \
    }                                                                                \
  } while (0)
#define MLUOP_CHECK(api, cond, ...) \
  MLUOP_CHECK_STATUS(api, cond, MLUOP_STATUS_BAD_PARAM, __VA_ARGS__)

// A launch that fails (bad dimension or kernel fault) fails the operator.
#define MLUOP_KERNEL_CHECK(api, launch_call)                                           \
  do {                                                                               \
    cnrtRet_t kernel_ret_ = (launch_call);                                           \
    if (kernel_ret_ != cnrtSuccess) {                                                \
      ::mlusim::log::op().error("[{}] kernel launch failed: {}", api,                \
                                mlusimGetLastError());                               \
      return MLUOP_STATUS_EXECUTION_FAILED;                                          \
    }                                                                                \
  } while (0)
