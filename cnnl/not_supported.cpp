// The CNNL calls mlu-ops v1.5.2 and v1.11.1 name that mlusim does not simulate
// (part 3 of include/cnnl.h): DCN, quantized MatMul (QuantizeParam,
// QuantizeMatMul), BatchMatMulEx (its heuristic calls included), OpTensor,
// Transform, Pad, StridedSlice, Concat, Reduce (and its _v2 calls). MatMul
// itself is simulated (matmul.cpp). Each one, descriptor calls included, returns CNNL_STATUS_NOT_SUPPORTED with a log
// line naming itself; it reads none of its arguments and writes nothing.
#include "cnnl/host.h"

namespace {

cnnlStatus_t not_simulated(const char *api) {
  CNNL_LOG_FAILURE(api, "not supported",
                   "mlusim's CNNL stand-in does not simulate this call "
                   "(docs/cnnl.md lists what it does)");
  return CNNL_STATUS_NOT_SUPPORTED;
}

}  // namespace

cnnlStatus_t cnnlCreateDCNDescriptor(cnnlDCNDescriptor_t *) {
  return not_simulated("cnnlCreateDCNDescriptor");
}
cnnlStatus_t cnnlDestroyDCNDescriptor(cnnlDCNDescriptor_t) {
  return not_simulated("cnnlDestroyDCNDescriptor");
}
cnnlStatus_t cnnlSetDCNDescriptor(cnnlDCNDescriptor_t, int, const int *, const int *, const int *,
                                  int, int, int, const cnnlDataType_t) {
  return not_simulated("cnnlSetDCNDescriptor");
}
cnnlStatus_t cnnlGetDCNForwardWorkspaceSize(
    cnnlHandle_t, const cnnlDCNDescriptor_t, const cnnlTensorDescriptor_t,
    const cnnlTensorDescriptor_t, const cnnlTensorDescriptor_t, const cnnlTensorDescriptor_t,
    const cnnlTensorDescriptor_t, const cnnlTensorDescriptor_t, size_t *) {
  return not_simulated("cnnlGetDCNForwardWorkspaceSize");
}
cnnlStatus_t cnnlDCNForward(cnnlHandle_t, const cnnlDCNDescriptor_t, const cnnlTensorDescriptor_t,
                            const void *, const cnnlTensorDescriptor_t, const void *,
                            const cnnlTensorDescriptor_t, const void *,
                            const cnnlTensorDescriptor_t, const void *,
                            const cnnlTensorDescriptor_t, const void *, void *, size_t,
                            const cnnlTensorDescriptor_t, void *) {
  return not_simulated("cnnlDCNForward");
}
cnnlStatus_t cnnlGetDCNBakcwardDataWorkspaceSize(
    cnnlHandle_t, const cnnlDCNDescriptor_t, const cnnlTensorDescriptor_t,
    const cnnlTensorDescriptor_t, const cnnlTensorDescriptor_t, const cnnlTensorDescriptor_t,
    const cnnlTensorDescriptor_t, const cnnlTensorDescriptor_t, const cnnlTensorDescriptor_t,
    const cnnlTensorDescriptor_t, size_t *) {
  return not_simulated("cnnlGetDCNBakcwardDataWorkspaceSize");
}
cnnlStatus_t cnnlDCNBackwardData(cnnlHandle_t, const cnnlDCNDescriptor_t,
                                 const cnnlTensorDescriptor_t, const void *,
                                 const cnnlTensorDescriptor_t, const void *,
                                 const cnnlTensorDescriptor_t, const void *,
                                 const cnnlTensorDescriptor_t, const void *,
                                 const cnnlTensorDescriptor_t, const void *, void *, size_t,
                                 const cnnlTensorDescriptor_t, void *, const cnnlTensorDescriptor_t,
                                 void *, const cnnlTensorDescriptor_t, void *) {
  return not_simulated("cnnlDCNBackwardData");
}
cnnlStatus_t cnnlGetDCNBackwardWeightWorkspaceSize(
    cnnlHandle_t, const cnnlDCNDescriptor_t, const cnnlTensorDescriptor_t,
    const cnnlTensorDescriptor_t, const cnnlTensorDescriptor_t, const cnnlTensorDescriptor_t,
    const cnnlTensorDescriptor_t, const cnnlTensorDescriptor_t, size_t *) {
  return not_simulated("cnnlGetDCNBackwardWeightWorkspaceSize");
}
cnnlStatus_t cnnlDCNBackwardWeight(cnnlHandle_t, const cnnlDCNDescriptor_t,
                                   const cnnlTensorDescriptor_t, const void *,
                                   const cnnlTensorDescriptor_t, const void *,
                                   const cnnlTensorDescriptor_t, const void *,
                                   const cnnlTensorDescriptor_t, const void *, void *, size_t,
                                   const cnnlTensorDescriptor_t, void *,
                                   const cnnlTensorDescriptor_t, void *) {
  return not_simulated("cnnlDCNBackwardWeight");
}
cnnlStatus_t cnnlGetBatchMatMulExAlgoHeuristic(cnnlHandle_t, cnnlMatMulDescriptor_t,
                                               cnnlTensorDescriptor_t, cnnlTensorDescriptor_t,
                                               cnnlTensorDescriptor_t, cnnlMatMulPrefer_t, int,
                                               cnnlMatMulHeuristicResult_t *, int *) {
  return not_simulated("cnnlGetBatchMatMulExAlgoHeuristic");
}
cnnlStatus_t cnnlGetBatchMatMulExHeuristicResult(cnnlMatMulHeuristicResult_t, cnnlMatMulAlgo_t,
                                                 size_t *) {
  return not_simulated("cnnlGetBatchMatMulExHeuristicResult");
}
cnnlStatus_t cnnlBatchMatMulEx(cnnlHandle_t, const cnnlMatMulDescriptor_t, const cnnlMatMulAlgo_t,
                               const void *, const cnnlTensorDescriptor_t, const void *,
                               const cnnlTensorDescriptor_t, const void *, const void *,
                               const cnnlTensorDescriptor_t, void *, void *, size_t) {
  return not_simulated("cnnlBatchMatMulEx");
}
cnnlStatus_t cnnlGetQuantizeParamWorkspaceSize(cnnlHandle_t, const cnnlTensorDescriptor_t,
                                               size_t *) {
  return not_simulated("cnnlGetQuantizeParamWorkspaceSize");
}
cnnlStatus_t cnnlQuantizeParam(cnnlHandle_t, const cnnlQuantizeMode_t, const cnnlTensorDescriptor_t,
                               const void *, const int, void *, size_t, void *, void *, void *) {
  return not_simulated("cnnlQuantizeParam");
}
cnnlStatus_t cnnlGetQuantizeMatMulAlgorithm(cnnlHandle_t, const cnnlMatMulDescriptor_t,
                                            const cnnlTensorDescriptor_t,
                                            const cnnlTensorDescriptor_t,
                                            const cnnlTensorDescriptor_t,
                                            const cnnlMatMulPreference_t, cnnlMatMulAlgo_t *) {
  return not_simulated("cnnlGetQuantizeMatMulAlgorithm");
}
cnnlStatus_t cnnlGetQuantizeMatMulWorkspaceSize(cnnlHandle_t, const cnnlMatMulDescriptor_t,
                                                const cnnlTensorDescriptor_t,
                                                const cnnlTensorDescriptor_t,
                                                const cnnlTensorDescriptor_t,
                                                const cnnlMatMulAlgo_t, size_t *) {
  return not_simulated("cnnlGetQuantizeMatMulWorkspaceSize");
}
cnnlStatus_t cnnlQuantizeMatMul(cnnlHandle_t, const cnnlMatMulDescriptor_t, const void *,
                                const cnnlTensorDescriptor_t, const void *, const void *,
                                const void *, const void *, const cnnlTensorDescriptor_t,
                                const void *, const void *, const void *, const void *,
                                const void *, const cnnlTensorDescriptor_t, void *,
                                const cnnlMatMulAlgo_t, void *, size_t) {
  return not_simulated("cnnlQuantizeMatMul");
}
cnnlStatus_t cnnlCreateOpTensorDescriptor(cnnlOpTensorDescriptor_t *) {
  return not_simulated("cnnlCreateOpTensorDescriptor");
}
cnnlStatus_t cnnlDestroyOpTensorDescriptor(cnnlOpTensorDescriptor_t) {
  return not_simulated("cnnlDestroyOpTensorDescriptor");
}
cnnlStatus_t cnnlSetOpTensorDescriptor(cnnlOpTensorDescriptor_t, cnnlOpTensorDesc_t, cnnlDataType_t,
                                       cnnlNanPropagation_t) {
  return not_simulated("cnnlSetOpTensorDescriptor");
}
cnnlStatus_t cnnlGetOpTensorWorkspaceSize(cnnlHandle_t, const cnnlTensorDescriptor_t,
                                          const cnnlTensorDescriptor_t,
                                          const cnnlTensorDescriptor_t, size_t *) {
  return not_simulated("cnnlGetOpTensorWorkspaceSize");
}
cnnlStatus_t cnnlOpTensor(cnnlHandle_t, const cnnlOpTensorDescriptor_t, const void *,
                          const cnnlTensorDescriptor_t, const void *, const void *,
                          const cnnlTensorDescriptor_t, const void *, void *, size_t, const void *,
                          const cnnlTensorDescriptor_t, void *) {
  return not_simulated("cnnlOpTensor");
}
cnnlStatus_t cnnlTransform_v2(cnnlHandle_t, const cnnlPointerMode_t, const void *,
                              const cnnlTensorDescriptor_t, const void *, const void *,
                              const cnnlTensorDescriptor_t, void *) {
  return not_simulated("cnnlTransform_v2");
}
cnnlStatus_t cnnlPad(cnnlHandle_t, const cnnlTensorDescriptor_t, const void *, const void *,
                     const void *, const cnnlTensorDescriptor_t, void *) {
  return not_simulated("cnnlPad");
}
cnnlStatus_t cnnlStridedSlice_v2(cnnlHandle_t, const cnnlTensorDescriptor_t, const void *,
                                 const int64_t *, const int64_t *, const int64_t *,
                                 const cnnlTensorDescriptor_t, void *) {
  return not_simulated("cnnlStridedSlice_v2");
}
cnnlStatus_t cnnlConcat(cnnlHandle_t, const int, const int, const cnnlTensorDescriptor_t *,
                        const void *const *, void *, size_t, const cnnlTensorDescriptor_t, void *) {
  return not_simulated("cnnlConcat");
}
cnnlStatus_t cnnlCreateReduceDescriptor(cnnlReduceDescriptor_t *) {
  return not_simulated("cnnlCreateReduceDescriptor");
}
cnnlStatus_t cnnlDestroyReduceDescriptor(cnnlReduceDescriptor_t) {
  return not_simulated("cnnlDestroyReduceDescriptor");
}
cnnlStatus_t cnnlSetReduceDescriptor(cnnlReduceDescriptor_t, int *, int, cnnlReduceOp_t,
                                     cnnlDataType_t, cnnlNanPropagation_t, cnnlReduceIndices_t,
                                     cnnlIndicesType_t) {
  return not_simulated("cnnlSetReduceDescriptor");
}
cnnlStatus_t cnnlGetReduceOpWorkspaceSize(cnnlHandle_t, const cnnlTensorDescriptor_t,
                                          const cnnlTensorDescriptor_t,
                                          const cnnlReduceDescriptor_t, size_t *) {
  return not_simulated("cnnlGetReduceOpWorkspaceSize");
}
cnnlStatus_t cnnlReduce(cnnlHandle_t, const cnnlReduceDescriptor_t, void *, size_t, const void *,
                        const cnnlTensorDescriptor_t, const void *, const size_t, void *,
                        const void *, const cnnlTensorDescriptor_t, void *) {
  return not_simulated("cnnlReduce");
}
cnnlStatus_t cnnlSetReduceDescriptor_v2(cnnlReduceDescriptor_t, int *, int, cnnlReduceOp_t,
                                        cnnlDataType_t, cnnlNanPropagation_t, cnnlReduceIndices_t,
                                        cnnlIndicesType_t, float) {
  return not_simulated("cnnlSetReduceDescriptor_v2");
}
cnnlStatus_t cnnlGetReduceOpWorkspaceSize_v2(cnnlHandle_t, const cnnlTensorDescriptor_t,
                                             const cnnlTensorDescriptor_t,
                                             const cnnlTensorDescriptor_t,
                                             const cnnlReduceDescriptor_t, size_t *) {
  return not_simulated("cnnlGetReduceOpWorkspaceSize_v2");
}
cnnlStatus_t cnnlReduce_v2(cnnlHandle_t, const cnnlReduceDescriptor_t, const cnnlTensorDescriptor_t,
                           const void *, const void *, const void *, void *, size_t,
                           const cnnlTensorDescriptor_t, void *, const cnnlTensorDescriptor_t,
                           void *) {
  return not_simulated("cnnlReduce_v2");
}
