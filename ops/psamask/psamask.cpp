// Not built yet.
#include "ops/common/host.h"

mluOpStatus_t mluOpPsamaskForward(mluOpHandle_t, const int, const mluOpTensorDescriptor_t,
                                  const void *, const int, const int,
                                  const mluOpTensorDescriptor_t, void *) {
  return MLUOP_STATUS_NOT_SUPPORTED;
}
mluOpStatus_t mluOpPsamaskBackward(mluOpHandle_t, const int, const mluOpTensorDescriptor_t,
                                   const void *, const int, const int,
                                   const mluOpTensorDescriptor_t, void *) {
  return MLUOP_STATUS_NOT_SUPPORTED;
}
