// Not built yet: see issue "masked_im2col_forward on the simulated device".
#include "ops/common/host.h"

mluOpStatus_t mluOpGetMaskedIm2colForwardWorkspaceSize(mluOpHandle_t,
                                                       const mluOpTensorDescriptor_t,
                                                       const mluOpTensorDescriptor_t,
                                                       const mluOpTensorDescriptor_t, const int,
                                                       const int, const mluOpTensorDescriptor_t,
                                                       size_t *) {
  mlusim::log::op().error("[mluOpGetMaskedIm2colForwardWorkspaceSize] not supported yet by mlusim");
  return MLUOP_STATUS_NOT_SUPPORTED;
}

mluOpStatus_t mluOpMaskedIm2colForward(mluOpHandle_t, const mluOpTensorDescriptor_t, const void *,
                                       const mluOpTensorDescriptor_t, const void *,
                                       const mluOpTensorDescriptor_t, const void *, const int,
                                       const int, const int, const int, void *, const size_t,
                                       const mluOpTensorDescriptor_t, void *) {
  mlusim::log::op().error("[mluOpMaskedIm2colForward] not supported yet by mlusim");
  return MLUOP_STATUS_NOT_SUPPORTED;
}
