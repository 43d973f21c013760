// What the CNNL stand-in's entry points share: the structs behind cnnl.h's
// handles and descriptors, their registries (a destroyed, foreign or garbage
// handle is refused, never dereferenced), the check macros (each failure is
// one log line on the "op" logger naming the call, the condition and the
// values) and the helpers every operator's host side uses.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

#include <spdlog/fmt/fmt.h>

#include "cnnl.h"
#include "cnnl/index_tuples.h"
#include "cnnl/plan.h"
#include "runtime/operator_kit.h"

#define CNNL_LOG_FAILURE(api, what, ...) \
  ::mlusim::log::op().error("[{}] {}: {}", api, what, fmt::format(__VA_ARGS__))

// Fails the call with `status` and one log line when `cond` does not hold.
#define CNNL_FAIL_UNLESS(api, cond, status, kind, ...)                \
  do {                                                                \
    if (!(cond)) {                                                    \
      CNNL_LOG_FAILURE(api, kind " " #cond, __VA_ARGS__);             \
      return status;                                                  \
    }                                                                 \
  } while (0)
#define CNNL_CHECK(api, cond, ...) \
  CNNL_FAIL_UNLESS(api, cond, CNNL_STATUS_BAD_PARAM, "check failed:", __VA_ARGS__)
// Valid arguments that mlusim does not simulate.
#define CNNL_SUPPORTS(api, cond, ...) \
  CNNL_FAIL_UNLESS(api, cond, CNNL_STATUS_NOT_SUPPORTED, "not supported, needs", __VA_ARGS__)

#define CNNL_RETURN_IF_ERROR(expr)                                   \
  do {                                                               \
    if (const cnnlStatus_t status_ = (expr); status_ != CNNL_STATUS_SUCCESS) return status_; \
  } while (0)

struct cnnlContext {
  // NULL: the default queue of the launching thread. Atomic: threads may share
  // a handle while one of them sets its queue.
  std::atomic<cnrtQueue_t> queue{nullptr};
};

struct cnnlTensorStruct {
  // mlu-ops creates descriptors for optional tensors it does not have and
  // never sets them: such a descriptor stands for an absent tensor.
  bool set = false;
  cnnlTensorLayout_t layout = CNNL_LAYOUT_ARRAY;
  cnnlDataType_t dtype = CNNL_DTYPE_INVALID;
  cnnlDataType_t onchip_dtype = CNNL_DTYPE_INVALID;
  std::vector<int64_t> dims, strides;  // strides in elements
  int position = 0;
  float scale = 1.0f;
  int offset = 0;

  int rank() const { return static_cast<int>(dims.size()); }
  int64_t dim(int i) const { return dims[static_cast<size_t>(i)]; }
  int64_t last_dim() const { return dims.empty() ? 1 : dims.back(); }
  int64_t elements() const;
  bool dense() const;          // strides are those of the dims, row-major
  size_t span_bytes() const;   // bytes from the first element to past the last
};

struct cnnlTransposeStruct {
  std::vector<int> permute;  // empty until set
};

struct cnnlRoiAlignStruct {
  bool set = false;
  int pooled_height = 0, pooled_width = 0, sampling_ratio = 0;
  float spatial_scale = 1.0f;
  int pool_mode = 1;  // 0 max, 1 average
  bool aligned = false;
};

struct cnnlNmsStruct {
  bool set = false;
  cnnlNmsBoxPointMode_t box_mode = CNNL_NMS_BOX_DIAGONAL;
  cnnlNmsOutputMode_t output_mode = CNNL_NMS_OUTPUT_TARGET_INDICES;
  cnnlNmsAlgo_t algo = CNNL_NMS_ALGO_EXCLUDE_BOUNDARY;
  cnnlNmsMethodMode_t method_mode = CNNL_NMS_HARD_NMS;
  float iou_threshold = 0, soft_nms_sigma = 0, confidence_threshold = 0, offset = 0;
  int max_output_size = 0, input_layout = 0;
  bool pad_to_max_output_size = false;
};

struct cnnlUniqueStruct {
  bool set = false;
  cnnlUniqueSort_t mode = CNNL_SORT_ASCEND;
  int dim = 0;
  bool return_inverse = false, return_counts = false;
};

// A MatMul descriptor (either name of its create call). The compute type is
// float: the only one cnnlSetMatMulDescAttr accepts.
struct cnnlMatMulStruct {
  bool trans_a = false, trans_b = false;
  bool allow_tf32 = false;  // recorded; float is computed in float regardless
  cnnlDataType_t compute_type = CNNL_DTYPE_FLOAT;
};

// MatMul's one algorithm: nothing to choose, so nothing to hold.
struct cnnlMatMulAlgoStruct {};

// What cnnlGetMatMulAlgoHeuristic writes into a result: that it holds the
// algorithm, and its workspace (always 0).
struct cnnlMatMulHeuristicResultStruct {
  bool filled = false;
  size_t workspace_size = 0;
};

namespace cnnlsim {

using Tensor = cnnlTensorStruct;

size_t dtype_size(cnnlDataType_t dtype);  // 0 for INVALID and unknown values
const char *dtype_name(cnnlDataType_t dtype);
const char *layout_name(cnnlTensorLayout_t layout);
std::string describe(const Tensor &t);  // "[2,3,4] NHWC float"

// The registry of live objects of each handle type (cnnlContext and the
// descriptor structs): create, and destroy (false when `object` is not live).
template <typename T>
T *create_object();
template <typename T>
bool destroy_object(const void *object);

// The create and destroy calls of every handle and descriptor type.
template <typename T>
cnnlStatus_t create_call(const char *api, T **out) {
  CNNL_CHECK(api, out != nullptr, "null output pointer");
  *out = create_object<T>();
  return CNNL_STATUS_SUCCESS;
}
template <typename T>
cnnlStatus_t destroy_call(const char *api, T *object) {
  CNNL_CHECK(api, destroy_object<T>(object),
             "{} is not a live handle or descriptor of its kind (destroyed already, or never "
             "created)",
             static_cast<void *>(object));
  return CNNL_STATUS_SUCCESS;
}

// Registry lookups: the live object, or nullptr.
std::shared_ptr<cnnlContext> find_handle(cnnlHandle_t handle);
std::shared_ptr<cnnlTensorStruct> find_tensor(cnnlTensorDescriptor_t desc);
std::shared_ptr<cnnlTransposeStruct> find_transpose(cnnlTransposeDescriptor_t desc);
std::shared_ptr<cnnlRoiAlignStruct> find_roi_align(cnnlRoiAlignDescriptor_t desc);
std::shared_ptr<cnnlNmsStruct> find_nms(cnnlNmsDescriptor_t desc);
std::shared_ptr<cnnlUniqueStruct> find_unique(cnnlUniqueDescriptor_t desc);
std::shared_ptr<cnnlMatMulStruct> find_matmul(cnnlMatMulDescriptor_t desc);
std::shared_ptr<cnnlMatMulAlgoStruct> find_matmul_algo(cnnlMatMulAlgo_t algo);
std::shared_ptr<cnnlMatMulHeuristicResultStruct> find_matmul_result(
    cnnlMatMulHeuristicResult_t result);

// The queue of a live handle, itself live; else BAD_PARAM with a log line.
cnnlStatus_t queue_of(const char *api, cnnlHandle_t handle, cnrtQueue_t &queue);

// A tensor argument, copied at the start of a call. required(): the
// descriptor must be live and set. optional(): NULL or a descriptor never set
// is an absent tensor (present = false).
cnnlStatus_t required(const char *api, const char *name, cnnlTensorDescriptor_t desc, Tensor &t);
cnnlStatus_t optional(const char *api, const char *name, cnnlTensorDescriptor_t desc, Tensor &t,
                      bool &present);

// `ptr` is live device memory holding t's elements (nothing to check for an
// empty tensor).
cnnlStatus_t check_device(const char *api, const char *name, const void *ptr, const Tensor &t);
cnnlStatus_t check_device_bytes(const char *api, const char *name, const void *ptr, size_t bytes);

// True when [a, a + a_bytes) and [b, b + b_bytes) share a byte.
bool overlap(const void *a, size_t a_bytes, const void *b, size_t b_bytes);

// A tensor argument and its device pointer. An absent tensor (default
// Tensor, dtype INVALID) holds no bytes.
struct Buffer {
  const char *name;
  const Tensor *t;
  const void *ptr;
};
// Every buffer is device memory holding its tensor; no output shares a byte
// with an input or another output (in-place calls are refused).
cnnlStatus_t check_buffers(const char *api, std::initializer_list<Buffer> inputs,
                           std::initializer_list<Buffer> outputs);

// The workspace queries of operators that need none: the handle and the
// descriptor `name` must be live (and set), `size` non-NULL; *size = 0.
cnnlStatus_t no_workspace(const char *api, cnnlHandle_t handle, const char *name,
                          cnnlTensorDescriptor_t desc, size_t *size);

// Launches a fill of t's elements at `ptr` with zeros (operators whose output
// is accumulated into, such as the backward of RoiAlign): fill.cpp.
cnnlStatus_t zero_fill(const char *api, cnrtQueue_t queue, void *ptr, const Tensor &t);

// A launch that failed (bad dimension or kernel fault) fails the call.
cnnlStatus_t launched(const char *api, cnrtRet_t ret);

// The theory figures of an operator's report: every tensor's bytes once.
double io_bytes(std::initializer_list<const Tensor *> tensors);

// What host-side policies read about the current device.
int cluster_count();
int cores_per_cluster();
int core_count();
int nram_bytes();  // usable NRAM per core
int transpose_align_bytes();  // __bang_transpose's rows and cols are multiples of this

// The NRAM pitch (a multiple of `align` channels) of the channel blocks of an
// operator whose work items are `items` times its blocks and need
// `bytes_per_channel` of NRAM per channel: narrow enough that every core gets
// an item, no wider than NRAM holds. Blocks are then min(pitch, channels) wide.
int64_t channel_pitch(int64_t channels, int64_t items, int64_t bytes_per_channel, int64_t align);

// Index tuples into `target`'s first K dims (ScatterNd's output, GatherNd's
// params): int32 indices [..., K], 1 <= K <= target's rank
// (at most IndexTuples::kMaxIndexDims); `slices` (ScatterNd's updates,
// GatherNd's output) shaped as indices' dims but the last followed by
// target's dims from K on, of target's dtype; all dense.
cnnlStatus_t check_index_tuples(const char *api, const Tensor &indices, const char *target_name,
                                const Tensor &target, const char *slices_name,
                                const Tensor &slices);
IndexTuples index_tuples(const Tensor &indices, const Tensor &target);

// A UNION1 launch of whole clusters, as few as give `tasks` tasks (at least
// one cluster, at most the device).
cnrtDim3_t union1_dim(int64_t tasks);

}  // namespace cnnlsim
