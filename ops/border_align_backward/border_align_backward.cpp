// Not built yet: see issue "border_align_backward on the simulated device".
#include "ops/common/host.h"

mluOpStatus_t mluOpBorderAlignBackward(mluOpHandle_t, const mluOpTensorDescriptor_t, const void *,
                                       const mluOpTensorDescriptor_t, const void *,
                                       const mluOpTensorDescriptor_t, const void *, const int32_t,
                                       const mluOpTensorDescriptor_t, void *) {
  mlusim::log::op().error("[mluOpBorderAlignBackward] not supported yet by mlusim");
  return MLUOP_STATUS_NOT_SUPPORTED;
}
