// Not built yet: see issue "deform_roi_pool_forward on the simulated device".
#include "ops/common/host.h"

mluOpStatus_t mluOpDeformRoiPoolForward(const mluOpHandle_t, const mluOpTensorDescriptor_t,
                                        const void *, const mluOpTensorDescriptor_t, const void *,
                                        const mluOpTensorDescriptor_t, const void *, const int,
                                        const int, const float, const int, const float,
                                        const mluOpTensorDescriptor_t, void *) {
  mlusim::log::op().error("[mluOpDeformRoiPoolForward] not supported yet by mlusim");
  return MLUOP_STATUS_NOT_SUPPORTED;
}
