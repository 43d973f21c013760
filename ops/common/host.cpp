// Handle and tensor descriptors of mlu_op.h, and the pointer checks every
// operator makes. Handles and descriptors live in registries
// (runtime/handles.h): destroying one twice, or one that never was, is
// BAD_PARAM with a log line, not a double free.
#include "ops/common/host.h"

#include "runtime/operator_kit.h"

namespace {

mlusim::HandleRegistry<mluOpContext> &handles() {
  static mlusim::HandleRegistry<mluOpContext> registry;
  return registry;
}

mlusim::HandleRegistry<mluOpTensorStruct> &descriptors() {
  static mlusim::HandleRegistry<mluOpTensorStruct> registry;
  return registry;
}

}  // namespace

namespace mluop {

size_t dtype_size(mluOpDataType_t dtype) {
  switch (dtype) {
    case MLUOP_DTYPE_HALF:
    case MLUOP_DTYPE_INT16: return 2;
    case MLUOP_DTYPE_FLOAT:
    case MLUOP_DTYPE_INT31:
    case MLUOP_DTYPE_INT32: return 4;
    case MLUOP_DTYPE_INT8:
    case MLUOP_DTYPE_UINT8:
    case MLUOP_DTYPE_BOOL: return 1;
    case MLUOP_DTYPE_INT64: return 8;
    default: return 0;
  }
}

const char *dtype_name(mluOpDataType_t dtype) {
  switch (dtype) {
    case MLUOP_DTYPE_HALF: return "half";
    case MLUOP_DTYPE_FLOAT: return "float";
    case MLUOP_DTYPE_INT8: return "int8";
    case MLUOP_DTYPE_INT16: return "int16";
    case MLUOP_DTYPE_INT31: return "int31";
    case MLUOP_DTYPE_INT32: return "int32";
    case MLUOP_DTYPE_UINT8: return "uint8";
    case MLUOP_DTYPE_BOOL: return "bool";
    case MLUOP_DTYPE_INT64: return "int64";
    default: return "invalid";
  }
}

const char *layout_name(mluOpTensorLayout_t layout) {
  switch (layout) {
    case MLUOP_LAYOUT_NCHW: return "NCHW";
    case MLUOP_LAYOUT_NHWC: return "NHWC";
    case MLUOP_LAYOUT_HWCN: return "HWCN";
    case MLUOP_LAYOUT_NDHWC: return "NDHWC";
    case MLUOP_LAYOUT_ARRAY: return "ARRAY";
  }
  return "invalid";
}

size_t element_count(const mluOpTensorStruct &t) {
  size_t n = 1;
  for (int d : t.dims) n *= static_cast<size_t>(d);
  return n;
}

std::string shape_string(const mluOpTensorStruct &t) {
  return fmt::format("[{}] {} {}", fmt::join(t.dims, ","), layout_name(t.layout),
                     dtype_name(t.dtype));
}

namespace {

bool holds_device_memory(const DeviceTensor &t) {
  return t.ptr != nullptr && mlusim::gdram_contains(t.ptr, t.bytes);
}

bool share_a_byte(const DeviceTensor &a, const DeviceTensor &b) {
  const auto lo_a = reinterpret_cast<uintptr_t>(a.ptr), lo_b = reinterpret_cast<uintptr_t>(b.ptr);
  return a.bytes != 0 && b.bytes != 0 && lo_a < lo_b + b.bytes && lo_b < lo_a + a.bytes;
}

}  // namespace

mluOpStatus_t check_device_tensors(const char *api, std::initializer_list<DeviceTensor> inputs,
                                   std::initializer_list<DeviceTensor> outputs) {
  for (const auto &tensors : {inputs, outputs})
    for (const DeviceTensor &t : tensors)
      MLUOP_CHECK(api, t.bytes == 0 || holds_device_memory(t),
                  "{} = {} is not device memory from cnrtMalloc holding {} bytes", t.name, t.ptr,
                  t.bytes);
  for (auto out = outputs.begin(); out != outputs.end(); ++out) {
    for (const DeviceTensor &in : inputs)
      MLUOP_CHECK(api, !share_a_byte(in, *out), "{} and {} overlap: in-place is not supported",
                  in.name, out->name);
    for (auto earlier = outputs.begin(); earlier != out; ++earlier)
      MLUOP_CHECK(api, !share_a_byte(*earlier, *out),
                  "{} and {} overlap: in-place is not supported", earlier->name, out->name);
  }
  return MLUOP_STATUS_SUCCESS;
}

}  // namespace mluop

const char *mluOpGetErrorString(mluOpStatus_t status) {
  switch (status) {
    case MLUOP_STATUS_SUCCESS: return "MLUOP_STATUS_SUCCESS";
    case MLUOP_STATUS_NOT_INITIALIZED: return "MLUOP_STATUS_NOT_INITIALIZED";
    case MLUOP_STATUS_ALLOC_FAILED: return "MLUOP_STATUS_ALLOC_FAILED";
    case MLUOP_STATUS_BAD_PARAM: return "MLUOP_STATUS_BAD_PARAM";
    case MLUOP_STATUS_INTERNAL_ERROR: return "MLUOP_STATUS_INTERNAL_ERROR";
    case MLUOP_STATUS_ARCH_MISMATCH: return "MLUOP_STATUS_ARCH_MISMATCH";
    case MLUOP_STATUS_EXECUTION_FAILED: return "MLUOP_STATUS_EXECUTION_FAILED";
    case MLUOP_STATUS_NOT_SUPPORTED: return "MLUOP_STATUS_NOT_SUPPORTED";
    case MLUOP_STATUS_NUMERICAL_OVERFLOW: return "MLUOP_STATUS_NUMERICAL_OVERFLOW";
  }
  return "unknown mluOpStatus_t";
}

mluOpStatus_t mluOpCreate(mluOpHandle_t *handle) {
  MLUOP_CHECK("mluOpCreate", handle != nullptr, "null output pointer");
  *handle = handles().create();
  return MLUOP_STATUS_SUCCESS;
}

mluOpStatus_t mluOpDestroy(mluOpHandle_t handle) {
  MLUOP_CHECK("mluOpDestroy", handles().destroy(handle),
              "handle {} is not a live handle (destroyed already, or never created)",
              static_cast<void *>(handle));
  return MLUOP_STATUS_SUCCESS;
}

mluOpStatus_t mluOpSetQueue(mluOpHandle_t handle, cnrtQueue_t queue) {
  const auto live = handles().find(handle);  // held: another thread may destroy it meanwhile
  MLUOP_CHECK("mluOpSetQueue", live != nullptr, "handle {} is not a live handle",
              static_cast<void *>(handle));
  MLUOP_CHECK("mluOpSetQueue", mlusim::queue_is_live(queue),
              "queue {} is not a live queue", static_cast<void *>(queue));
  live->queue = queue;
  return MLUOP_STATUS_SUCCESS;
}

mluOpStatus_t mluOpGetQueue(mluOpHandle_t handle, cnrtQueue_t *queue) {
  const auto live = handles().find(handle);
  MLUOP_CHECK("mluOpGetQueue", live != nullptr, "handle {} is not a live handle",
              static_cast<void *>(handle));
  MLUOP_CHECK("mluOpGetQueue", queue != nullptr, "null output pointer");
  *queue = live->queue;
  return MLUOP_STATUS_SUCCESS;
}

mluOpStatus_t mluOpCreateTensorDescriptor(mluOpTensorDescriptor_t *desc) {
  MLUOP_CHECK("mluOpCreateTensorDescriptor", desc != nullptr, "null output pointer");
  *desc = descriptors().create();
  return MLUOP_STATUS_SUCCESS;
}

mluOpStatus_t mluOpSetTensorDescriptor(mluOpTensorDescriptor_t desc, mluOpTensorLayout_t layout,
                                       mluOpDataType_t dtype, int dimNb, const int dimSize[]) {
  const char *api = "mluOpSetTensorDescriptor";
  const auto live = descriptors().find(desc);  // held: another thread may destroy it meanwhile
  MLUOP_CHECK(api, live != nullptr, "descriptor {} is not a live descriptor",
              static_cast<void *>(desc));
  MLUOP_CHECK(api, dimNb > 0 && dimNb <= MLUOP_DIM_MAX, "dimNb = {} not in [1, {}]", dimNb,
              MLUOP_DIM_MAX);
  MLUOP_CHECK(api, dimSize != nullptr, "null dimSize");
  MLUOP_CHECK(api, layout >= MLUOP_LAYOUT_NCHW && layout <= MLUOP_LAYOUT_ARRAY,
              "unknown layout {}", static_cast<int>(layout));
  MLUOP_CHECK(api, mluop::dtype_size(dtype) != 0, "unknown or invalid dtype {}",
              static_cast<int>(dtype));
  for (int i = 0; i < dimNb; ++i)
    MLUOP_CHECK(api, dimSize[i] >= 0, "dimSize[{}] = {} is negative", i, dimSize[i]);
  live->layout = layout;
  live->dtype = dtype;
  live->dims.assign(dimSize, dimSize + dimNb);
  return MLUOP_STATUS_SUCCESS;
}

size_t mluOpGetTensorElementNum(const mluOpTensorDescriptor_t desc) {
  const auto live = descriptors().find(desc);
  if (live == nullptr) {
    mlusim::log::op().error("[mluOpGetTensorElementNum] descriptor {} is not a live descriptor",
                            static_cast<void *>(desc));
    return 0;
  }
  return mluop::element_count(*live);
}

mluOpStatus_t mluOpGetSizeOfDataType(mluOpDataType_t dtype, size_t *size) {
  MLUOP_CHECK("mluOpGetSizeOfDataType", size != nullptr, "null output pointer");
  MLUOP_CHECK("mluOpGetSizeOfDataType", mluop::dtype_size(dtype) != 0, "invalid dtype {}",
              static_cast<int>(dtype));
  *size = mluop::dtype_size(dtype);
  return MLUOP_STATUS_SUCCESS;
}

mluOpStatus_t mluOpDestroyTensorDescriptor(mluOpTensorDescriptor_t desc) {
  MLUOP_CHECK("mluOpDestroyTensorDescriptor", descriptors().destroy(desc),
              "descriptor {} is not a live descriptor (destroyed already, or never created)",
              static_cast<void *>(desc));
  return MLUOP_STATUS_SUCCESS;
}
