#include "kernels/scale/scale.h"
#include "mlu_op.h"

mluOpStatus_t mluOpScaleForward(mluOpHandle_t handle, int n, float alpha, const float *x, float *y) {
  if (handle == nullptr || n <= 0 || x == nullptr || y == nullptr) return MLUOP_STATUS_BAD_PARAM;
  scale_launch(mluOpGetQueue(handle), n, alpha, x, y);
  return cnrtGetLastError() == cnrtSuccess ? MLUOP_STATUS_SUCCESS : MLUOP_STATUS_EXECUTION_FAILED;
}
