// libcnnl: mlusim's stand-in for Cambricon CNNL, the closed operator library
// that Cambricon's mlu-ops calls (include/cnnl.h, docs/cnnl.md).
//
// Why: mlu-ops v1.5.2 must run unchanged on the simulated device, and 30 of its
// 112 gtest cases are thin wrappers over CNNL operators; most others call
// cnnlFill_v3 / cnnlTranspose_v2 / cnnlCopy_v2 on the side. This library gives
// mlu-ops the CNNL names, signatures, enum values and statuses it compiles and
// links against (-lcnnl finds libcnnl.so), and runs each operator as a BANG C
// kernel on the simulated MLU, so its launches get simulated time, the
// device's checks and an operator report like any other kernel.
//
// Layout of cnnl/:
//   cnnl.cpp        this file: the handle and tensor descriptors
//   host.h/.cpp     registries of live handles and descriptors, argument
//                   checks (one log line per failure on the "op" logger),
//                   device queries
//   plan.h          what host plans and kernels share (task split, rounding)
//   kernel.h        what the kernels share (float/half loads, NRAM carving,
//                   box rows, the launch status)
//   <op>.cpp        one operator family: its descriptor calls, checks, the
//                   task split and on-chip plan, the launch inside an OpScope
//   <op>_kernel.mlu its kernels in BANG C, built by mlusim-cncc like the
//                   operators in ops/; <op>_kernel.h what host and kernel share
//   not_supported.cpp  the calls mlu-ops names that are not simulated
//
// Conventions of every call:
// - Handles and descriptors live in registries (runtime/handles.h): a NULL,
//   destroyed or foreign one is CNNL_STATUS_BAD_PARAM with a log line, never
//   a dereference.
// - A tensor descriptor that was created but never set is an absent tensor:
//   mlu-ops passes such descriptors for optional tensors it does not have.
// - Every documented condition is checked before anything is launched:
//   BAD_PARAM for invalid arguments, NOT_SUPPORTED for valid ones mlusim does
//   not simulate (a dtype, a layout, a size beyond on-chip memory); each with
//   one log line naming the call, the condition and the values.
// - Device pointers must be live cnrtMalloc memory covering the tensor.
// - Zero-element outputs return SUCCESS without launching.
// - A kernel fault returns CNNL_STATUS_EXECUTION_FAILED; the host survives.
#include "cnnl/host.h"

#include <algorithm>

#include "runtime/operator_kit.h"

using cnnlsim::create_call;
using cnnlsim::destroy_call;

const char *cnnlGetErrorString(cnnlStatus_t status) {
  switch (status) {
    case CNNL_STATUS_SUCCESS: return "CNNL_STATUS_SUCCESS";
    case CNNL_STATUS_NOT_INITIALIZED: return "CNNL_STATUS_NOT_INITIALIZED";
    case CNNL_STATUS_ALLOC_FAILED: return "CNNL_STATUS_ALLOC_FAILED";
    case CNNL_STATUS_BAD_PARAM: return "CNNL_STATUS_BAD_PARAM";
    case CNNL_STATUS_INTERNAL_ERROR: return "CNNL_STATUS_INTERNAL_ERROR";
    case CNNL_STATUS_ARCH_MISMATCH: return "CNNL_STATUS_ARCH_MISMATCH";
    case CNNL_STATUS_EXECUTION_FAILED: return "CNNL_STATUS_EXECUTION_FAILED";
    case CNNL_STATUS_NOT_SUPPORTED: return "CNNL_STATUS_NOT_SUPPORTED";
    case CNNL_STATUS_NUMERICAL_OVERFLOW: return "CNNL_STATUS_NUMERICAL_OVERFLOW";
  }
  return "CNNL_STATUS_BAD_PARAM";
}

cnnlStatus_t cnnlCreate(cnnlHandle_t *handle) { return create_call("cnnlCreate", handle); }

cnnlStatus_t cnnlDestroy(cnnlHandle_t handle) { return destroy_call("cnnlDestroy", handle); }

cnnlStatus_t cnnlSetQueue(cnnlHandle_t handle, cnrtQueue_t queue) {
  const auto live = cnnlsim::find_handle(handle);  // held: another thread may destroy it
  CNNL_CHECK("cnnlSetQueue", live != nullptr, "handle {} is not a live handle",
             static_cast<void *>(handle));
  CNNL_CHECK("cnnlSetQueue", mlusim::queue_is_live(queue),
             "queue {} is not a live queue", static_cast<void *>(queue));
  live->queue = queue;
  return CNNL_STATUS_SUCCESS;
}

cnnlStatus_t cnnlGetQueue(cnnlHandle_t handle, cnrtQueue_t *queue) {
  CNNL_CHECK("cnnlGetQueue", queue != nullptr, "null output pointer");
  return cnnlsim::queue_of("cnnlGetQueue", handle, *queue);
}

cnnlStatus_t cnnlCreateTensorDescriptor(cnnlTensorDescriptor_t *desc) {
  return create_call("cnnlCreateTensorDescriptor", desc);
}

cnnlStatus_t cnnlDestroyTensorDescriptor(cnnlTensorDescriptor_t desc) {
  return destroy_call("cnnlDestroyTensorDescriptor", desc);
}

namespace {

bool known_layout(cnnlTensorLayout_t layout) {
  return layout >= CNNL_LAYOUT_NCHW && layout <= CNNL_LAYOUT_NCL;
}

// Every set call ends here: dims and strides as int64, strides empty for a
// dense tensor.
template <typename Int>
cnnlStatus_t set_tensor(const char *api, cnnlTensorDescriptor_t desc, cnnlTensorLayout_t layout,
                        cnnlDataType_t dtype, int dimNb, const Int *dims, const Int *strides,
                        bool with_strides) {
  const auto live = cnnlsim::find_tensor(desc);  // held: another thread may destroy it
  CNNL_CHECK(api, live != nullptr, "descriptor {} is not a live descriptor",
             static_cast<void *>(desc));
  CNNL_CHECK(api, known_layout(layout), "unknown layout {}", static_cast<int>(layout));
  CNNL_CHECK(api, cnnlsim::dtype_size(dtype) != 0, "unknown or invalid dtype {}",
             static_cast<int>(dtype));
  CNNL_CHECK(api, dimNb >= 0 && dimNb <= CNNL_DIM_MAX, "dimNb = {} not in [0, {}]", dimNb,
             CNNL_DIM_MAX);
  CNNL_CHECK(api, dimNb == 0 || dims != nullptr, "dimSize is NULL with dimNb = {}", dimNb);
  CNNL_CHECK(api, dimNb == 0 || !with_strides || strides != nullptr,
             "dimStride is NULL with dimNb = {}", dimNb);
  std::vector<int64_t> d(dims, dims + dimNb), s(static_cast<size_t>(dimNb));
  for (int i = 0; i < dimNb; ++i)
    CNNL_CHECK(api, d[i] >= 0, "dimSize[{}] = {} is negative", i, d[i]);
  int64_t dense_stride = 1;
  for (int i = dimNb - 1; i >= 0; --i) {
    s[i] = with_strides ? static_cast<int64_t>(strides[i]) : dense_stride;
    CNNL_CHECK(api, s[i] >= 0, "dimStride[{}] = {} is negative", i, s[i]);
    dense_stride *= d[i];
  }
  live->layout = layout;
  live->dtype = dtype;
  live->dims = std::move(d);
  live->strides = std::move(s);
  live->set = true;
  return CNNL_STATUS_SUCCESS;
}

}  // namespace

cnnlStatus_t cnnlSetTensorDescriptor(cnnlTensorDescriptor_t desc, cnnlTensorLayout_t layout,
                                     cnnlDataType_t dtype, int dimNb, const int dimSize[]) {
  return set_tensor<int>("cnnlSetTensorDescriptor", desc, layout, dtype, dimNb, dimSize, nullptr,
                         false);
}

cnnlStatus_t cnnlSetTensorDescriptor_v2(cnnlTensorDescriptor_t desc, cnnlTensorLayout_t layout,
                                        cnnlDataType_t dtype, int dimNb,
                                        const int64_t dimSize[]) {
  return set_tensor<int64_t>("cnnlSetTensorDescriptor_v2", desc, layout, dtype, dimNb, dimSize,
                             nullptr, false);
}

cnnlStatus_t cnnlSetTensorDescriptorEx(cnnlTensorDescriptor_t desc, cnnlTensorLayout_t layout,
                                       cnnlDataType_t dtype, int dimNb, const int dimSize[],
                                       const int dimStride[]) {
  return set_tensor<int>("cnnlSetTensorDescriptorEx", desc, layout, dtype, dimNb, dimSize,
                         dimStride, true);
}

cnnlStatus_t cnnlSetTensorDescriptorEx_v2(cnnlTensorDescriptor_t desc, cnnlTensorLayout_t layout,
                                          cnnlDataType_t dtype, int dimNb,
                                          const int64_t dimSize[], const int64_t dimStride[]) {
  return set_tensor<int64_t>("cnnlSetTensorDescriptorEx_v2", desc, layout, dtype, dimNb, dimSize,
                             dimStride, true);
}

cnnlStatus_t cnnlSetTensorDescriptorOnchipDataType(cnnlTensorDescriptor_t desc,
                                                   cnnlDataType_t onchip_dtype) {
  const char *api = "cnnlSetTensorDescriptorOnchipDataType";
  const auto live = cnnlsim::find_tensor(desc);
  CNNL_CHECK(api, live != nullptr, "descriptor {} is not a live descriptor",
             static_cast<void *>(desc));
  // INVALID is what mlu-ops' descriptors hold when nobody chose one.
  CNNL_CHECK(api, onchip_dtype == CNNL_DTYPE_INVALID || cnnlsim::dtype_size(onchip_dtype) != 0,
             "unknown dtype {}", static_cast<int>(onchip_dtype));
  live->onchip_dtype = onchip_dtype;
  return CNNL_STATUS_SUCCESS;
}

cnnlStatus_t cnnlSetTensorDescriptorPositionScaleAndOffset(cnnlTensorDescriptor_t desc,
                                                           int position, float scale,
                                                           int offset) {
  const auto live = cnnlsim::find_tensor(desc);
  CNNL_CHECK("cnnlSetTensorDescriptorPositionScaleAndOffset", live != nullptr,
             "descriptor {} is not a live descriptor", static_cast<void *>(desc));
  live->position = position;
  live->scale = scale;
  live->offset = offset;
  return CNNL_STATUS_SUCCESS;
}
