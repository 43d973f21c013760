// cnnlGatherNd's kernel as the host launches it. Each of the indices' tuples
// (K int32 indices into the params' first K dims) names one slice of `slice`
// elements of the params, copied to the tuple's place in the output; a tuple
// with an index out of its dim's range gives a slice of zeros.
#pragma once

#include <cstdint>

#include "cnnl/index_tuples.h"
#include "cnrt.h"

namespace cnnlsim::gather_nd {

struct Plan {
  int width = 0;            // bytes per element
  IndexTuples at;           // into the params; a slice of the output each
  int64_t zero_bytes = 0;   // the NRAM block of zeros an out-of-range slice is written from
  cnrtDim3_t dim{1, 1, 1};  // a UNION1 launch
};

struct Args {
  Plan plan;
  const void *params;
  const int32_t *indices;
  void *output;
};

cnrtRet_t launch(cnrtQueue_t queue, const Args &args);

}  // namespace cnnlsim::gather_nd
