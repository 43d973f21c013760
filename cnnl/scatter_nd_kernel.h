// cnnlScatterNd_v2's kernels as the host launches them. Each of the `updates`
// index tuples (K int32 indices into the output's first K dims) names one
// slice of `slice` elements of the output; the matching slice of the updates
// is added to it atomically (ADD) or copied over it (UPDATE). A tuple with an
// index out of its dim's range is skipped. When an input is given, a first
// launch copies it into the output.
#pragma once

#include <cstdint>

#include "cnnl/index_tuples.h"
#include "cnrt.h"

namespace cnnlsim::scatter_nd {

struct Plan {
  bool add = true;          // CNNL_SCATTERND_ADD, else UPDATE
  int dtype = 0;            // ADD: 0 float, 1 half, 2 int32
  int width = 0;            // bytes per element
  IndexTuples at;           // into the output; a slice of the updates each
  int64_t chunk = 0;        // elements of a slice one NRAM block holds
  int nram_bytes = 0;
  cnrtDim3_t dim{1, 1, 1};  // a UNION1 launch
};

struct Args {
  Plan plan;
  const int32_t *indices;
  const void *updates;
  void *output;
};

cnrtRet_t launch(cnrtQueue_t queue, const Args &args);

// The output's `elements` elements of `width` bytes from `input`, each task
// its share (a GDRAM to GDRAM copy).
cnrtRet_t launch_copy_input(cnrtQueue_t queue, const void *input, void *output, int64_t elements,
                            int width, cnrtDim3_t dim);

}  // namespace cnnlsim::scatter_nd
