#include "mlu_op.h"

void broken_launch(cnrtQueue_t queue, int n, float *y);

mluOpStatus_t mluOpBrokenForward(mluOpHandle_t handle, int n, float *y) {
  broken_launch(mluOpGetQueue(handle), n, y);
  return MLUOP_STATUS_SUCCESS;
}
