// Not built yet: see issue "three_interpolate_backward on the simulated device".
#include "ops/common/host.h"

mluOpStatus_t mluOpThreeInterpolateBackward(mluOpHandle_t, const mluOpTensorDescriptor_t,
                                            const void *, const mluOpTensorDescriptor_t,
                                            const void *, const mluOpTensorDescriptor_t,
                                            const void *, const mluOpTensorDescriptor_t, void *) {
  mlusim::log::op().error("[mluOpThreeInterpolateBackward] not supported yet by mlusim");
  return MLUOP_STATUS_NOT_SUPPORTED;
}
