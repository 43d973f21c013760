// Device fill (see fill_kernel.h): the kernel on the BANG-style API, then its
// host-side launcher.
#include "ops/common/fill_kernel.h"

#include <algorithm>

#include "ops/common/host.h"
#include "ops/common/kernel.h"

namespace mluop {

template <typename T>
__mlu_global__ void MLUKernelFill(T *dst, int64_t count, T value) {
  if (__is_mpu()) return;  // the memory core has no NRAM
  __nram_buffer__(char, nram_buffer, MAX_NRAM_SIZE);
  const Share mine = split_evenly(count, taskId, taskDim);
  if (mine.begin == mine.end) return;
  // One block of the value, as long as NRAM or the share allows; the vector
  // fill covers whole 128-byte granules, the copies only the block.
  const int64_t nram_elems = PAD_DOWN(MAX_NRAM_SIZE, NFU_ALIGN_SIZE) / sizeof(T);
  const int64_t block = std::min(mine.end - mine.begin, nram_elems);
  __bang_write_value(nram_buffer, PAD_UP(block * sizeof(T), NFU_ALIGN_SIZE) / sizeof(T), value);
  for (int64_t i = mine.begin; i < mine.end; i += block) {
    const int64_t n = std::min(block, mine.end - i);
    __memcpy(dst + i, nram_buffer, n * sizeof(T), NRAM2GDRAM);
  }
}

template void MLUKernelFill<half>(half *, int64_t, half);
template void MLUKernelFill<float>(float *, int64_t, float);
template void MLUKernelFill<int8_t>(int8_t *, int64_t, int8_t);
template void MLUKernelFill<uint8_t>(uint8_t *, int64_t, uint8_t);
template void MLUKernelFill<int16_t>(int16_t *, int64_t, int16_t);
template void MLUKernelFill<int32_t>(int32_t *, int64_t, int32_t);
template void MLUKernelFill<int64_t>(int64_t *, int64_t, int64_t);

namespace {

bool fill_supports(mluOpDataType_t dtype) {
  return dtype == MLUOP_DTYPE_HALF || dtype == MLUOP_DTYPE_FLOAT || dtype == MLUOP_DTYPE_INT8 ||
         dtype == MLUOP_DTYPE_UINT8 || dtype == MLUOP_DTYPE_BOOL || dtype == MLUOP_DTYPE_INT16 ||
         dtype == MLUOP_DTYPE_INT31 || dtype == MLUOP_DTYPE_INT32 || dtype == MLUOP_DTYPE_INT64;
}

template <typename T>
mluOpStatus_t launch_typed(mluOpHandle_t handle, const char *api, T value, void *dst,
                           size_t count) {
  // Union1 over as many clusters as there are groups of cores_per_cluster elements.
  const size_t cpc = static_cast<size_t>(cores_per_cluster());
  const size_t clusters = std::min(static_cast<size_t>(cluster_count()), (count + cpc - 1) / cpc);
  const cnrtDim3_t dim{static_cast<unsigned>(cpc), static_cast<unsigned>(clusters), 1};
  MLUOP_KERNEL_CHECK(api, MLUSIM_LAUNCH(MLUKernelFill<T>, dim, cnrtFuncTypeUnion1, handle->queue,
                                        static_cast<T *>(dst), static_cast<int64_t>(count), value));
  return MLUOP_STATUS_SUCCESS;
}

}  // namespace

mluOpStatus_t launch_fill(mluOpHandle_t handle, const char *api, mluOpDataType_t dtype,
                          double value, void *dst, size_t count) {
  MLUOP_CHECK(api, handle != nullptr, "fill: handle is NULL");
  MLUOP_CHECK(api, fill_supports(dtype), "fill: dtype {} is not supported", dtype_name(dtype));
  if (count == 0) return MLUOP_STATUS_SUCCESS;
  MLUOP_CHECK_DEVICE_PTR(api, dst, count * dtype_size(dtype));
  switch (dtype) {
    case MLUOP_DTYPE_HALF: return launch_typed(handle, api, static_cast<half>(value), dst, count);
    case MLUOP_DTYPE_FLOAT: return launch_typed(handle, api, static_cast<float>(value), dst, count);
    case MLUOP_DTYPE_INT8: return launch_typed(handle, api, static_cast<int8_t>(value), dst, count);
    case MLUOP_DTYPE_UINT8:
    case MLUOP_DTYPE_BOOL:
      return launch_typed(handle, api, static_cast<uint8_t>(value), dst, count);
    case MLUOP_DTYPE_INT16:
      return launch_typed(handle, api, static_cast<int16_t>(value), dst, count);
    case MLUOP_DTYPE_INT31:
    case MLUOP_DTYPE_INT32:
      return launch_typed(handle, api, static_cast<int32_t>(value), dst, count);
    case MLUOP_DTYPE_INT64:
    default:  // fill_supports let nothing else through
      return launch_typed(handle, api, static_cast<int64_t>(value), dst, count);
  }
}

}  // namespace mluop
