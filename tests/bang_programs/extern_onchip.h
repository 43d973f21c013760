// A header declaring the .mlu file's NRAM buffer, as mlu-ops' headers do, and
// a helper that writes into it.
#pragma once

extern __nram__ int nram_buffer[];

__mlu_func__ void fill_head(int value, int count) {
  for (int i = 0; i < count; ++i) nram_buffer[i] = value + i;
}
