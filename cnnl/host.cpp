// The helpers of host.h: dtype and layout names, the registries of live
// handles and descriptors, the argument checks every operator makes.
#include "cnnl/host.h"

#include <algorithm>

#include <spdlog/fmt/ranges.h>

#include "runtime/operator_kit.h"

namespace cnnlsim {

namespace {

template <typename T>
mlusim::HandleRegistry<T> &registry() {
  static mlusim::HandleRegistry<T> live;
  return live;
}

}  // namespace

size_t dtype_size(cnnlDataType_t dtype) {
  switch (dtype) {
    case CNNL_DTYPE_INT8:
    case CNNL_DTYPE_UINT8:
    case CNNL_DTYPE_BOOL: return 1;
    case CNNL_DTYPE_HALF:
    case CNNL_DTYPE_INT16:
    case CNNL_DTYPE_UINT16:
    case CNNL_DTYPE_BFLOAT16: return 2;
    case CNNL_DTYPE_FLOAT:
    case CNNL_DTYPE_INT31:
    case CNNL_DTYPE_INT32:
    case CNNL_DTYPE_UINT32:
    case CNNL_DTYPE_COMPLEX_HALF: return 4;
    case CNNL_DTYPE_INT64:
    case CNNL_DTYPE_UINT64:
    case CNNL_DTYPE_DOUBLE:
    case CNNL_DTYPE_COMPLEX_FLOAT: return 8;
    case CNNL_DTYPE_INVALID: return 0;
  }
  return 0;
}

const char *dtype_name(cnnlDataType_t dtype) {
  switch (dtype) {
    case CNNL_DTYPE_INVALID: return "invalid";
    case CNNL_DTYPE_HALF: return "half";
    case CNNL_DTYPE_FLOAT: return "float";
    case CNNL_DTYPE_INT8: return "int8";
    case CNNL_DTYPE_INT16: return "int16";
    case CNNL_DTYPE_INT31: return "int31";
    case CNNL_DTYPE_INT32: return "int32";
    case CNNL_DTYPE_UINT8: return "uint8";
    case CNNL_DTYPE_BOOL: return "bool";
    case CNNL_DTYPE_INT64: return "int64";
    case CNNL_DTYPE_UINT32: return "uint32";
    case CNNL_DTYPE_UINT64: return "uint64";
    case CNNL_DTYPE_UINT16: return "uint16";
    case CNNL_DTYPE_DOUBLE: return "double";
    case CNNL_DTYPE_COMPLEX_HALF: return "complex_half";
    case CNNL_DTYPE_COMPLEX_FLOAT: return "complex_float";
    case CNNL_DTYPE_BFLOAT16: return "bfloat16";
  }
  return "unknown";
}

const char *layout_name(cnnlTensorLayout_t layout) {
  switch (layout) {
    case CNNL_LAYOUT_NCHW: return "NCHW";
    case CNNL_LAYOUT_NHWC: return "NHWC";
    case CNNL_LAYOUT_HWCN: return "HWCN";
    case CNNL_LAYOUT_NDHWC: return "NDHWC";
    case CNNL_LAYOUT_ARRAY: return "ARRAY";
    case CNNL_LAYOUT_NCDHW: return "NCDHW";
    case CNNL_LAYOUT_TNC: return "TNC";
    case CNNL_LAYOUT_NTC: return "NTC";
    case CNNL_LAYOUT_NC: return "NC";
    case CNNL_LAYOUT_NLC: return "NLC";
    case CNNL_LAYOUT_NCL: return "NCL";
  }
  return "unknown";
}

std::string describe(const Tensor &t) {
  std::string text = fmt::format("[{}] {} {}", fmt::join(t.dims, ","), layout_name(t.layout),
                                 dtype_name(t.dtype));
  if (!t.dense()) text += fmt::format(" strides [{}]", fmt::join(t.strides, ","));
  return text;
}

std::shared_ptr<cnnlContext> find_handle(cnnlHandle_t handle) {
  return registry<cnnlContext>().find(handle);
}
std::shared_ptr<cnnlTensorStruct> find_tensor(cnnlTensorDescriptor_t desc) {
  return registry<cnnlTensorStruct>().find(desc);
}
std::shared_ptr<cnnlTransposeStruct> find_transpose(cnnlTransposeDescriptor_t desc) {
  return registry<cnnlTransposeStruct>().find(desc);
}
std::shared_ptr<cnnlRoiAlignStruct> find_roi_align(cnnlRoiAlignDescriptor_t desc) {
  return registry<cnnlRoiAlignStruct>().find(desc);
}
std::shared_ptr<cnnlNmsStruct> find_nms(cnnlNmsDescriptor_t desc) {
  return registry<cnnlNmsStruct>().find(desc);
}
std::shared_ptr<cnnlUniqueStruct> find_unique(cnnlUniqueDescriptor_t desc) {
  return registry<cnnlUniqueStruct>().find(desc);
}

std::shared_ptr<cnnlMatMulStruct> find_matmul(cnnlMatMulDescriptor_t desc) {
  return registry<cnnlMatMulStruct>().find(desc);
}
std::shared_ptr<cnnlMatMulAlgoStruct> find_matmul_algo(cnnlMatMulAlgo_t algo) {
  return registry<cnnlMatMulAlgoStruct>().find(algo);
}
std::shared_ptr<cnnlMatMulHeuristicResultStruct> find_matmul_result(
    cnnlMatMulHeuristicResult_t result) {
  return registry<cnnlMatMulHeuristicResultStruct>().find(result);
}

template <typename T>
T *create_object() {
  return registry<T>().create();
}
template <typename T>
bool destroy_object(const void *object) {
  return registry<T>().destroy(object);
}
template cnnlContext *create_object<cnnlContext>();
template cnnlTensorStruct *create_object<cnnlTensorStruct>();
template cnnlTransposeStruct *create_object<cnnlTransposeStruct>();
template cnnlRoiAlignStruct *create_object<cnnlRoiAlignStruct>();
template cnnlNmsStruct *create_object<cnnlNmsStruct>();
template cnnlUniqueStruct *create_object<cnnlUniqueStruct>();
template cnnlMatMulStruct *create_object<cnnlMatMulStruct>();
template cnnlMatMulAlgoStruct *create_object<cnnlMatMulAlgoStruct>();
template cnnlMatMulHeuristicResultStruct *create_object<cnnlMatMulHeuristicResultStruct>();
template bool destroy_object<cnnlContext>(const void *);
template bool destroy_object<cnnlTensorStruct>(const void *);
template bool destroy_object<cnnlTransposeStruct>(const void *);
template bool destroy_object<cnnlRoiAlignStruct>(const void *);
template bool destroy_object<cnnlNmsStruct>(const void *);
template bool destroy_object<cnnlUniqueStruct>(const void *);
template bool destroy_object<cnnlMatMulStruct>(const void *);
template bool destroy_object<cnnlMatMulAlgoStruct>(const void *);
template bool destroy_object<cnnlMatMulHeuristicResultStruct>(const void *);

cnnlStatus_t queue_of(const char *api, cnnlHandle_t handle, cnrtQueue_t &queue) {
  const auto live = find_handle(handle);
  CNNL_CHECK(api, live != nullptr, "handle {} is not a live handle from cnnlCreate",
             static_cast<void *>(handle));
  queue = live->queue;
  CNNL_CHECK(api, mlusim::queue_is_live(queue),
             "the handle's queue {} is no longer live (destroyed after cnnlSetQueue)",
             static_cast<void *>(queue));
  return CNNL_STATUS_SUCCESS;
}

cnnlStatus_t required(const char *api, const char *name, cnnlTensorDescriptor_t desc, Tensor &t) {
  CNNL_CHECK(api, desc != nullptr, "{} is NULL", name);
  const auto live = find_tensor(desc);
  CNNL_CHECK(api, live != nullptr, "{} = {} is not a live tensor descriptor", name,
             static_cast<void *>(desc));
  CNNL_CHECK(api, live->set, "{} was never set (cnnlSetTensorDescriptor*)", name);
  t = *live;
  return CNNL_STATUS_SUCCESS;
}

cnnlStatus_t optional(const char *api, const char *name, cnnlTensorDescriptor_t desc, Tensor &t,
                      bool &present) {
  present = false;
  if (desc == nullptr) return CNNL_STATUS_SUCCESS;
  const auto live = find_tensor(desc);
  CNNL_CHECK(api, live != nullptr, "{} = {} is not a live tensor descriptor", name,
             static_cast<void *>(desc));
  if (!live->set) return CNNL_STATUS_SUCCESS;
  t = *live;
  present = true;
  return CNNL_STATUS_SUCCESS;
}

cnnlStatus_t check_device_bytes(const char *api, const char *name, const void *ptr,
                                size_t bytes) {
  if (bytes == 0) return CNNL_STATUS_SUCCESS;
  CNNL_CHECK(api, ptr != nullptr && mlusim::gdram_contains(ptr, bytes),
             "{} = {} is not device memory from cnrtMalloc holding {} bytes", name, ptr, bytes);
  return CNNL_STATUS_SUCCESS;
}

cnnlStatus_t check_device(const char *api, const char *name, const void *ptr, const Tensor &t) {
  return check_device_bytes(api, name, ptr, t.span_bytes());
}

bool overlap(const void *a, size_t a_bytes, const void *b, size_t b_bytes) {
  const auto lo_a = reinterpret_cast<uintptr_t>(a), lo_b = reinterpret_cast<uintptr_t>(b);
  return a_bytes != 0 && b_bytes != 0 && lo_a < lo_b + b_bytes && lo_b < lo_a + a_bytes;
}

cnnlStatus_t check_buffers(const char *api, std::initializer_list<Buffer> inputs,
                           std::initializer_list<Buffer> outputs) {
  for (const auto *list : {&inputs, &outputs})
    for (const Buffer &b : *list) CNNL_RETURN_IF_ERROR(check_device(api, b.name, b.ptr, *b.t));
  for (const Buffer &out : outputs)
    for (const auto *list : {&inputs, &outputs})
      for (const Buffer &other : *list)
        CNNL_CHECK(api,
                   &other == &out ||
                       !overlap(out.ptr, out.t->span_bytes(), other.ptr, other.t->span_bytes()),
                   "{} and {} share memory: in-place is not supported", out.name, other.name);
  return CNNL_STATUS_SUCCESS;
}

cnnlStatus_t no_workspace(const char *api, cnnlHandle_t handle, const char *name,
                          cnnlTensorDescriptor_t desc, size_t *size) {
  cnrtQueue_t queue = nullptr;
  CNNL_RETURN_IF_ERROR(queue_of(api, handle, queue));
  Tensor t;
  CNNL_RETURN_IF_ERROR(required(api, name, desc, t));
  CNNL_CHECK(api, size != nullptr, "the size pointer is NULL");
  *size = 0;
  return CNNL_STATUS_SUCCESS;
}

cnnlStatus_t launched(const char *api, cnrtRet_t ret) {
  if (ret == cnrtSuccess) return CNNL_STATUS_SUCCESS;
  CNNL_LOG_FAILURE(api, "kernel launch failed", "{}", mlusimGetLastError());
  return CNNL_STATUS_EXECUTION_FAILED;
}

double io_bytes(std::initializer_list<const Tensor *> tensors) {
  double total = 0;
  for (const Tensor *t : tensors)
    if (t != nullptr) total += static_cast<double>(t->elements()) * dtype_size(t->dtype);
  return total;
}

int cluster_count() { return mlusim::current_device().clusters; }
int cores_per_cluster() { return mlusim::current_device().cores_per_cluster; }
int core_count() { return mlusim::core_count(mlusim::current_device()); }
int nram_bytes() { return static_cast<int>(mlusim::nram_usable(mlusim::current_device())); }
int transpose_align_bytes() { return mlusim::current_device().transpose_align_bytes; }

int64_t channel_pitch(int64_t channels, int64_t items, int64_t bytes_per_channel, int64_t align) {
  const int64_t widest = nram_bytes() / bytes_per_channel / align * align;
  const int64_t blocks = ceil_div(core_count(), std::max<int64_t>(items, 1));
  return std::min(round_up(ceil_div(channels, blocks), align), widest);
}

cnrtDim3_t union1_dim(int64_t tasks) {
  const int64_t per_cluster = cores_per_cluster();
  const int64_t clusters = std::clamp<int64_t>((tasks + per_cluster - 1) / per_cluster, 1,
                                               cluster_count());
  return cnrtDim3_t{static_cast<unsigned>(per_cluster), static_cast<unsigned>(clusters), 1};
}

cnnlStatus_t check_index_tuples(const char *api, const Tensor &indices, const char *target_name,
                                const Tensor &target, const char *slices_name,
                                const Tensor &slices) {
  CNNL_SUPPORTS(api, indices.dtype == CNNL_DTYPE_INT32, "indices {}: int32", describe(indices));
  CNNL_CHECK(api, indices.rank() >= 1, "indices is {}: at least one dim", describe(indices));
  const int k = static_cast<int>(indices.last_dim());
  CNNL_CHECK(api, k >= 1 && k <= target.rank(),
             "indices {}: its last dim (indices per tuple) must be 1 to the rank of {} ({})",
             describe(indices), target_name, target.rank());
  CNNL_SUPPORTS(api, k <= IndexTuples::kMaxIndexDims, "at most {} indices per tuple, got {}",
                IndexTuples::kMaxIndexDims, k);
  std::vector<int64_t> want(indices.dims.begin(), indices.dims.end() - 1);
  want.insert(want.end(), target.dims.begin() + k, target.dims.end());
  CNNL_CHECK(api, slices.dims == want && slices.dtype == target.dtype,
             "{} is {}: must be indices' dims but the last, then the dims of {} from dim {} on, "
             "of its dtype ({})",
             slices_name, describe(slices), target_name, k, describe(target));
  for (const Tensor *t : {&indices, &target, &slices})
    CNNL_SUPPORTS(api, t->dense(), "{}: dense tensors", describe(*t));
  return CNNL_STATUS_SUCCESS;
}

IndexTuples index_tuples(const Tensor &indices, const Tensor &target) {
  IndexTuples p;
  p.index_dims = static_cast<int>(indices.last_dim());
  p.tuples = indices.elements() / p.index_dims;
  p.slice = 1;
  for (int d = target.rank() - 1; d >= 0; --d) {
    if (d < p.index_dims) {
      p.dims[d] = target.dim(d);
      p.strides[d] = p.slice;
    }
    p.slice *= target.dim(d);
  }
  for (int d = 0; d < p.index_dims; ++d) p.slice /= target.dim(d);
  return p;
}

}  // namespace cnnlsim

int64_t cnnlTensorStruct::elements() const {
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  return n;
}

bool cnnlTensorStruct::dense() const {
  int64_t expected = 1;
  for (int i = rank() - 1; i >= 0; --i) {
    if (dims[i] != 1 && strides[i] != expected) return false;
    expected *= dims[i];
  }
  return true;
}

size_t cnnlTensorStruct::span_bytes() const {
  if (elements() == 0) return 0;
  int64_t last = 0;
  for (int i = 0; i < rank(); ++i) last += (dims[i] - 1) * strides[i];
  return static_cast<size_t>(last + 1) * cnnlsim::dtype_size(dtype);
}
