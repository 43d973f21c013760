// On-chip buffers defined (not only declared) in a header that two .mlu files
// of one program include, as mlu-ops' fft and ms_deform_attn headers do: each
// file is its own device module, with its own buffers. And a static device
// function that reads the built-in variables, as poly_nms' getCoreWorkingSet.
#pragma once

#define HEADER_LEN 64

__nram__ int8_t header_nram[HEADER_LEN * sizeof(int)];
__wram__ int8_t header_wram[HEADER_LEN * sizeof(int)];

// This task's share [*begin, *begin + *count) of `total` items.
__mlu_func__ static void task_share(int total, int *count, int *begin) {
  const int per = total / taskDim, rem = total % taskDim;
  *count = per + (taskId < rem ? 1 : 0);
  *begin = per * taskId + (taskId < rem ? taskId : rem);
}

// out[i] = factor * i over this task's share, through the header's NRAM buffer.
__mlu_func__ void write_multiples(int *out, int total, int factor) {
  int count = 0, begin = 0;
  task_share(total, &count, &begin);
  int *values = (int *)header_nram;
  for (int i = 0; i < count; ++i) values[i] = factor * (begin + i);
  if (count > 0) __memcpy(out + begin, values, count * sizeof(int), NRAM2GDRAM);
}
