// What every fuzz target shares. A target decodes one operator call from
// libFuzzer's bytes: descriptors (dims, dtypes, layouts, or NULL), parameters,
// and pointers (valid device buffers, NULL, host memory, undersized buffers,
// pointers into another allocation), makes the call, and checks the properties:
//   - the process survives (ASan + UBSan catch memory errors and UB);
//   - the status is one the header documents for the entry point;
//   - a kernel fault (EXECUTION_FAILED) happens only when pointers alias:
//     otherwise the host checks must have rejected what the kernel could not do;
//   - nothing outside the outputs was written: guard bands around every device
//     buffer, every input and every host buffer are compared after the call.
// A broken property prints what broke and aborts, which libFuzzer records as a crash.
// Sizes stay small (a few thousand elements per tensor) so that no input hangs.
#pragma once

#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <random>
#include <vector>

#include "mlu_op.h"

namespace fuzz {

constexpr size_t kGuardBytes = 256;  // each side of every exact-size buffer

enum class Role { kInput, kOutput };

// The range a buffer's elements are drawn from (indices, coordinates, values).
struct Fill {
  double lo = -1, hi = 1;
};

class Call {
 public:
  Call(const uint8_t *data, size_t size);
  ~Call();
  Call(const Call &) = delete;
  Call &operator=(const Call &) = delete;

  FuzzedDataProvider &bytes() { return in_; }

  // The shared handle, or now and then NULL.
  mluOpHandle_t handle();
  // A count in [lo, hi], or now and then an edge value (0, -1, huge, INT_MIN).
  int count(int lo, int hi);
  // One of `usual`, or now and then an edge value (0, negative, NaN, infinity, huge).
  float real(std::initializer_list<float> usual);
  // A descriptor meant to be layout/dtype/dims, now and then broken in one way
  // (NULL, another layout or dtype, another rank, a dim off or huge) or left unset.
  mluOpTensorDescriptor_t tensor(mluOpTensorLayout_t layout, mluOpDataType_t dtype,
                                 std::vector<int> dims);
  // A pointer for `desc` (which may be NULL): mostly a device buffer of exactly
  // the descriptor's bytes inside guard bands, filled from `fill` for inputs.
  void *pointer(mluOpTensorDescriptor_t desc, Role role, Fill fill = {});
  // A device buffer of `bytes` (workspace), with the same pointer variants.
  void *pointer_bytes(size_t bytes, Role role);

  // True when no descriptor was broken on purpose (all are as the target meant).
  bool intact() const { return intact_; }

  // The properties above, for a call that returned `status`; `documented` lists
  // the statuses its header names.
  void check(mluOpStatus_t status, std::initializer_list<mluOpStatus_t> documented);

 private:
  struct Buffer;
  void *make_pointer(size_t bytes, mluOpDataType_t dtype, Role role, Fill fill);
  void fill_elements(std::byte *p, size_t bytes, mluOpDataType_t dtype, Fill fill);
  void *filled(Buffer &b, mluOpDataType_t dtype, Fill fill);
  Buffer &allocate(size_t payload_bytes, bool on_device, Role role, size_t guard = kGuardBytes);

  FuzzedDataProvider in_;
  std::mt19937 random_;  // element values: seeded from the input, so runs repeat
  std::vector<mluOpTensorDescriptor_t> descriptors_;
  std::vector<std::unique_ptr<Buffer>> buffers_;
  bool aliased_ = false;  // some pointer points into another buffer
  bool intact_ = true;
};

// a * b * ..., saturated to int's range: dims computed from edge values stay defined.
int product(std::initializer_list<int> factors);

// The most elementary steps (samples, border points) a target lets one call
// take. A valid call past it runs correctly, only for minutes under ASan, where
// libFuzzer takes it for a hang: targets do not make such calls.
inline constexpr double kMaxSteps = 1 << 15;

// The statuses every operator entry point documents.
inline constexpr std::initializer_list<mluOpStatus_t> kOperatorStatuses = {
    MLUOP_STATUS_SUCCESS, MLUOP_STATUS_BAD_PARAM, MLUOP_STATUS_NOT_SUPPORTED,
    MLUOP_STATUS_EXECUTION_FAILED};

// Aborts with a message when a property does not hold.
[[noreturn]] void fail(const char *what);

}  // namespace fuzz
