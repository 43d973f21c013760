// cnnlUnique_v2's kernel as the host launches it. One task sorts the rows (a
// 1-D input: its elements) in NRAM by a stable merge sort of their indices,
// then walks them in order: a row unlike the one before starts a new output
// row; each input row's inverse index is its output row, each output row
// counts its input rows. Sequential, and every array stays in NRAM for it.
#pragma once

#include <cstdint>

#include "cnrt.h"

namespace cnnlsim::unique {

struct Plan {
  int64_t rows = 0;  // N
  int64_t cols = 1;  // elements per row: 1 for a 1-D input
  bool is_float = false;  // float elements, else int32
  int nram_bytes = 0;
};

struct Args {
  Plan plan;
  const void *input;
  void *output;           // the distinct rows, ascending
  int32_t *inverse;       // per input row, its output row (null: not asked for)
  int32_t *counts;        // per output row, its input rows (null: not asked for)
  int32_t *output_num;    // how many output rows
};

// NRAM the kernel needs: the input, the index arrays of the sort, the output
// rows, inverse indices and counts, and the count, each in whole 4-byte elements.
inline int64_t nram_needed(const Plan &p) { return 4 * (2 * p.rows * p.cols + 4 * p.rows) + 128; }

cnrtRet_t launch(cnrtQueue_t queue, const Args &args);

}  // namespace cnnlsim::unique
