// cnnlMatMul_v2's kernel as the host launches it: D = alpha op(A) op(B) +
// beta C on float [m, n] matrices, op(A) [m, k], op(B) [k, n]. The rows of D
// are split over the tasks of a UNION1 launch; a task takes its rows in
// blocks of `mb`. For each block it walks k in tiles of `kb`: the tile of
// op(B) (kb rows of n, each at a pitch of `np` floats, a transposed B
// gathered element by element) and of op(A) come into NRAM, and each row of
// the block's accumulator gets a fused multiply-add of a B row per element
// of A. Then the accumulator is scaled by alpha, beta C added row by row
// (only when beta is not 0: C is not read otherwise) and the rows stored.
#pragma once

#include <cstdint>

#include "cnnl/plan.h"
#include "cnrt.h"

namespace cnnlsim::matmul {

struct Plan {
  int64_t m = 0, k = 0, n = 0;
  bool trans_a = false, trans_b = false;
  float alpha = 1.0f, beta = 0.0f;
  int64_t np = 0;  // n rounded up to whole vector granules: the NRAM row pitch
  int64_t mb = 1;  // rows of D per block
  int64_t kb = 1;  // rows of op(B) per tile
  int nram_bytes = 0;
  cnrtDim3_t dim{1, 1, 1};
};

struct Args {
  Plan plan;
  const float *a;  // [m, k], or [k, m] when trans_a
  const float *b;  // [k, n], or [n, k] when trans_b
  const float *c;  // [m, n]; read only when beta != 0; may equal d
  float *d;        // [m, n]
};

// NRAM a task needs: the accumulator (mb rows) and the B tile (kb rows) at
// the pitch np, the A tile (mb x kb, rounded up to a granule).
inline int64_t nram_needed(const Plan &p) {
  return 4 * (p.mb * p.np + p.kb * p.np + granule_count<float>(p.mb * p.kb));
}

cnrtRet_t launch(cnrtQueue_t queue, const Args &args);

}  // namespace cnnlsim::matmul
