// Kernel code in a header, inlined into the kernel that calls it, as mlu-ops'
// nms_rotated calls storeGpr() of nms_utils.h: a race there is reported at the
// header's line (race_check_test.mlu).
#pragma once

#include <bang.h>

// The lines of the two stores below, as the preprocessor numbers them.
constexpr int kHelperTransferLine = __LINE__ + 3;
constexpr int kHelperScalarLine = __LINE__ + 3;
__mlu_func__ void store_twice_in_helper(float *sram, float value) {
  __store_sram(sram, value);
  sram[1] = value;
}
