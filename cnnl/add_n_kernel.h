// cnnlAddN_v2's kernel as the host launches it: the element-wise sum of up to
// kMaxInputs float or half tensors of one shape, computed in float. The output
// may be one of the inputs: each element is read before it is written.
#pragma once

#include <cstdint>

#include "cnrt.h"

namespace cnnlsim::add_n {

constexpr int kMaxInputs = 8;

struct Plan {
  bool half = false;
  int inputs = 0;
  int64_t elements = 0;
  int64_t block = 0;  // elements one NRAM pass holds: a multiple of 64 (a granule of halves)
  int nram_bytes = 0;
  cnrtDim3_t dim{1, 1, 1};  // a UNION1 launch
};

struct Args {
  Plan plan;
  const void *inputs[kMaxInputs];
  void *output;
};

cnrtRet_t launch(cnrtQueue_t queue, const Args &args);

}  // namespace cnnlsim::add_n
