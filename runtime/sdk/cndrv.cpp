// cn_api.h on the simulated device: one device (CNdev 0) with one context that
// every host thread shares and that is always current. Device queries answer
// from the current device (runtime/sdk/device_facts.h); memory is the same
// GDRAM and host blocks as CNRT's.
#include "cn_api.h"

#include <cstring>
#include <string_view>

#include "cnrt.h"
#include "runtime/devices.h"
#include "runtime/gdram.h"
#include "runtime/logging.h"
#include "runtime/queue.h"
#include "runtime/sdk/device_facts.h"
#include "runtime/sdk/host_memory.h"

// The one context: an object only so that CNcontext handles can be compared.
struct CNcontext_st {};

using namespace mlusim;

namespace {

CNcontext_st g_context;

struct CodeInfo {
  CNresult code;
  const char *name;
  const char *text;
};

#define MLUSIM_CN_CODE(code, text) {code, #code, text}
constexpr CodeInfo kCodes[] = {
    MLUSIM_CN_CODE(CN_SUCCESS, "success"),
    MLUSIM_CN_CODE(CN_ERROR_NOT_READY, "not ready"),
    MLUSIM_CN_CODE(CN_ERROR_NOT_INITIALIZED, "not initialised"),
    MLUSIM_CN_CODE(CN_ERROR_NO_DEVICE, "no device"),
    MLUSIM_CN_CODE(CN_ERROR_INVALID_DEVICE, "invalid device"),
    MLUSIM_CN_CODE(CN_ERROR_INVALID_VALUE, "invalid argument"),
    MLUSIM_CN_CODE(CN_ERROR_OPERATING_SYSTEM, "operating system call failed"),
    MLUSIM_CN_CODE(CN_ERROR_SYSTEM_OUT_OF_MEMORY, "out of host memory"),
    MLUSIM_CN_CODE(CN_ERROR_INVALID_ADDRESS, "not host memory the driver allocated"),
    MLUSIM_CN_CODE(CN_ERROR_INVALID_HANDLE, "invalid handle"),
    MLUSIM_CN_CODE(CN_ERROR_ILLEGAL_STATE, "resource in use"),
    MLUSIM_CN_CODE(CN_OPS_ERROR_NOT_SUPPORTED, "not supported"),
    MLUSIM_CN_CODE(CN_OPS_ERROR_NOT_PERMITTED, "not permitted"),
    MLUSIM_CN_CODE(CN_QUEUE_ERROR_INVALID, "invalid queue"),
    MLUSIM_CN_CODE(CN_MEMORY_ERROR_OUT_OF_MEMORY, "out of device memory"),
    MLUSIM_CN_CODE(CN_MEMORY_ERROR_INVALID_ADDRESS, "not device memory the driver allocated"),
    MLUSIM_CN_CODE(CN_CONTEXT_ERROR_INVALID, "invalid context"),
    MLUSIM_CN_CODE(CN_ERROR_UNKNOWN, "unknown error"),
};
#undef MLUSIM_CN_CODE

const CodeInfo *find_code(CNresult code) {
  for (const CodeInfo &c : kCodes)
    if (c.code == code) return &c;
  return nullptr;
}

CNresult null_output(const char *api) {
  log::runtime().error("{}: null output pointer", api);
  return CN_ERROR_INVALID_VALUE;
}

CNresult check_device(CNdev dev, const char *api) {
  if (sdk::valid_ordinal(static_cast<int64_t>(dev))) return CN_SUCCESS;
  log::runtime().error("{}: device {} does not exist (one simulated device: 0)", api, dev);
  return CN_ERROR_INVALID_DEVICE;
}

CNresult check_context(CNcontext context, const char *api) {
  if (context == &g_context) return CN_SUCCESS;
  log::runtime().error("{}: {} is not the context (cnCtxGetCurrent gives it)", api,
                       static_cast<void *>(context));
  return CN_CONTEXT_ERROR_INVALID;
}

// The CNRT code a shared runtime function returned, as CNDrv numbers it.
CNresult from_cnrt(cnrtRet_t ret) {
  switch (ret) {
    case cnrtSuccess: return CN_SUCCESS;
    case cnrtErrorArgsInvalid: return CN_ERROR_INVALID_VALUE;
    case cnrtErrorNoMem: return CN_MEMORY_ERROR_OUT_OF_MEMORY;
    case cnrtErrorSysNoMem: return CN_ERROR_SYSTEM_OUT_OF_MEMORY;
    case cnrtErrorIllegalState: return CN_ERROR_ILLEGAL_STATE;
    case cnrtErrorInvalidDevicePtr:
    case cnrtErrorDoubleFree: return CN_MEMORY_ERROR_INVALID_ADDRESS;
    default: return CN_ERROR_UNKNOWN;
  }
}

bool is_kernel_class(KernelClass c) {
  switch (c) {
    case CN_KERNEL_CLASS_BLOCK:
    case CN_KERNEL_CLASS_UNION:
    case CN_KERNEL_CLASS_UNION2:
    case CN_KERNEL_CLASS_UNION4:
    case CN_KERNEL_CLASS_UNION8:
    case CN_KERNEL_CLASS_UNION16: return true;
    default: return false;
  }
}

// Clusters a task of class c occupies (BLOCK: one core of one cluster).
int clusters_of(KernelClass c) { return c == CN_KERNEL_CLASS_BLOCK ? 1 : c / 4; }

// The largest task class the device runs: UNIONn for its largest n.
KernelClass widest_class(const DeviceSpec &spec) {
  return static_cast<KernelClass>(sdk::max_union_clusters(spec) * 4);
}

uint64_t all_clusters(const DeviceSpec &spec) {
  return spec.clusters >= 64 ? ~uint64_t{0} : (uint64_t{1} << spec.clusters) - 1;
}

template <typename T>
void put(void *data, T value) {
  std::memcpy(data, &value, sizeof(T));
}

}  // namespace

CNresult cnInit(unsigned int flags) {
  if (flags != 0) {
    log::runtime().error("cnInit: flags is {}, must be 0", flags);
    return CN_ERROR_INVALID_VALUE;
  }
  return CN_SUCCESS;
}

CNresult cnGetLibVersion(int *major, int *minor, int *patch) {
  if (major == nullptr || minor == nullptr || patch == nullptr)
    return null_output("cnGetLibVersion");
  *major = CN_MAJOR_VERSION;
  *minor = CN_MINOR_VERSION;
  *patch = CN_PATCH_VERSION;
  return CN_SUCCESS;
}

CNresult cnGetDriverVersion(int *major, int *minor, int *patch) {
  if (major == nullptr || minor == nullptr || patch == nullptr)
    return null_output("cnGetDriverVersion");
  return cnGetLibVersion(major, minor, patch);
}

CNresult cnGetErrorName(CNresult error, const char **pStr) {
  if (pStr == nullptr) return null_output("cnGetErrorName");
  const CodeInfo *c = find_code(error);
  *pStr = c != nullptr ? c->name : "CN_ERROR_UNRECOGNISED";
  return CN_SUCCESS;
}

CNresult cnGetErrorString(CNresult error, const char **pStr) {
  if (pStr == nullptr) return null_output("cnGetErrorString");
  const CodeInfo *c = find_code(error);
  *pStr = c != nullptr ? c->text : "unrecognised CNresult code";
  return CN_SUCCESS;
}

CNresult cnDeviceGetCount(int *count) {
  if (count == nullptr) return null_output("cnDeviceGetCount");
  *count = 1;
  return CN_SUCCESS;
}

CNresult cnDeviceGet(CNdev *device, int ordinal) {
  if (device == nullptr) return null_output("cnDeviceGet");
  if (CNresult ret = check_device(static_cast<CNdev>(ordinal), "cnDeviceGet"); ret != CN_SUCCESS)
    return ret;
  *device = static_cast<CNdev>(ordinal);
  return CN_SUCCESS;
}

CNresult cnDeviceGetName(char *name, int len, CNdev dev) {
  if (name == nullptr || len <= 0) {
    log::runtime().error("cnDeviceGetName: {}", name == nullptr ? "null output pointer"
                                                                 : "no room for the name");
    return CN_ERROR_INVALID_VALUE;
  }
  if (CNresult ret = check_device(dev, "cnDeviceGetName"); ret != CN_SUCCESS) return ret;
  std::snprintf(name, static_cast<size_t>(len), "%s", current_device().name);
  return CN_SUCCESS;
}

CNresult cnDeviceGetAttribute(int *pi, CNdevice_attribute attrib, CNdev dev) {
  if (pi == nullptr) return null_output("cnDeviceGetAttribute");
  if (CNresult ret = check_device(dev, "cnDeviceGetAttribute"); ret != CN_SUCCESS) return ret;
  switch (sdk::device_attribute(attrib, pi, "cnDeviceGetAttribute")) {
    case sdk::Attribute::answered: return CN_SUCCESS;
    case sdk::Attribute::not_supported: return CN_OPS_ERROR_NOT_SUPPORTED;
    case sdk::Attribute::unknown: break;
  }
  return CN_ERROR_INVALID_VALUE;
}

CNresult cnCtxGetCurrent(CNcontext *pctx) {
  if (pctx == nullptr) return null_output("cnCtxGetCurrent");
  *pctx = &g_context;
  return CN_SUCCESS;
}

CNresult cnCtxGetDevice(CNdev *device) {
  if (device == nullptr) return null_output("cnCtxGetDevice");
  *device = 0;
  return CN_SUCCESS;
}

CNresult cnSharedContextAcquire(CNcontext *pctx, CNdev dev) {
  if (pctx == nullptr) return null_output("cnSharedContextAcquire");
  if (CNresult ret = check_device(dev, "cnSharedContextAcquire"); ret != CN_SUCCESS) return ret;
  *pctx = &g_context;
  return CN_SUCCESS;
}

CNresult cnSharedContextRelease(CNdev dev) { return check_device(dev, "cnSharedContextRelease"); }

CNresult cnQueueGetContext(CNqueue hqueue, CNcontext *pctx) {
  if (pctx == nullptr) return null_output("cnQueueGetContext");
  if (resolve_queue(reinterpret_cast<cnrtQueue_t>(hqueue)) == nullptr) {
    log::runtime().error("cnQueueGetContext: {} is not a live queue", static_cast<void *>(hqueue));
    return CN_QUEUE_ERROR_INVALID;
  }
  *pctx = &g_context;
  return CN_SUCCESS;
}

CNresult cnGetCtxConfigParam(CNcontext context, CNctxConfigParamType type,
                             CNctxConfigParam *param) {
  if (param == nullptr) return null_output("cnGetCtxConfigParam");
  if (CNresult ret = check_context(context, "cnGetCtxConfigParam"); ret != CN_SUCCESS) return ret;
  const DeviceSpec &spec = current_device();
  switch (type) {
    case CN_CTX_CONFIG_VISIBLE_CLUSTER: param->visibleCluster = all_clusters(spec); break;
    case CN_CTX_CONFIG_VISIBLE_CLUSTER_NUM:
      param->visibleClusterNumber = static_cast<cn_uint64_t>(spec.clusters);
      break;
    case CN_CTX_CONFIG_UNION_LIMIT: param->unionLimit = widest_class(spec); break;
    default:
      log::runtime().error("cnGetCtxConfigParam: {} is not a CNctxConfigParamType value",
                           static_cast<int>(type));
      return CN_ERROR_INVALID_VALUE;
  }
  return CN_SUCCESS;
}

CNresult cnSetCtxConfigParam(CNcontext context, CNctxConfigParamType type,
                             CNctxConfigParam *param) {
  if (param == nullptr) return null_output("cnSetCtxConfigParam");
  if (CNresult ret = check_context(context, "cnSetCtxConfigParam"); ret != CN_SUCCESS) return ret;
  CNctxConfigParam whole;
  if (type == CN_CTX_CONFIG_VISIBLE_CLUSTER_NUM ||
      cnGetCtxConfigParam(context, type, &whole) != CN_SUCCESS) {
    log::runtime().error("cnSetCtxConfigParam: {} is not a setting", static_cast<int>(type));
    return CN_ERROR_INVALID_VALUE;
  }
  const bool unchanged = type == CN_CTX_CONFIG_VISIBLE_CLUSTER
                             ? param->visibleCluster == whole.visibleCluster
                             : param->unionLimit == whole.unionLimit;
  if (unchanged) return CN_SUCCESS;
  log::runtime().error("cnSetCtxConfigParam: the simulated device runs every launch on all its "
                       "clusters; only the whole device (visible clusters {:#x}, union limit "
                       "{}) can be set",
                       whole.visibleCluster, static_cast<int>(whole.unionLimit));
  return CN_OPS_ERROR_NOT_SUPPORTED;
}

CNresult cnGetCtxMaxParallelUnionTasks(CNcontext context, KernelClass c, int *number) {
  if (number == nullptr) return null_output("cnGetCtxMaxParallelUnionTasks");
  if (CNresult ret = check_context(context, "cnGetCtxMaxParallelUnionTasks"); ret != CN_SUCCESS)
    return ret;
  if (!is_kernel_class(c)) {
    log::runtime().error("cnGetCtxMaxParallelUnionTasks: {} is not a KernelClass value",
                         static_cast<int>(c));
    return CN_ERROR_INVALID_VALUE;
  }
  // A class wider than the device runs none at once.
  const DeviceSpec &spec = current_device();
  *number = c == CN_KERNEL_CLASS_BLOCK ? core_count(spec) : spec.clusters / clusters_of(c);
  return CN_SUCCESS;
}

CNresult cnMalloc(CNaddr *pmluAddr, cn_uint64_t bytes) {
  if (pmluAddr == nullptr) return null_output("cnMalloc");
  void *p = nullptr;
  if (CNresult ret = from_cnrt(gdram_alloc(&p, bytes)); ret != CN_SUCCESS) return ret;
  *pmluAddr = reinterpret_cast<CNaddr>(p);
  return CN_SUCCESS;
}

CNresult cnMallocConstant(CNaddr *pmluAddr, cn_uint64_t bytes) {
  return cnMalloc(pmluAddr, bytes);  // constant memory is GDRAM on the simulator
}

CNresult cnFree(CNaddr mluAddr) { return from_cnrt(gdram_free(reinterpret_cast<void *>(mluAddr))); }

CNresult cnMallocHost(void **pp, cn_uint64_t bytes) {
  return from_cnrt(sdk::host_alloc(pp, bytes, "cnMallocHost"));
}

CNresult cnFreeHost(void *p) {
  return sdk::host_free(p, "cnFreeHost") == cnrtSuccess ? CN_SUCCESS : CN_ERROR_INVALID_ADDRESS;
}

CNresult cnGetMemAttribute(void *data, CNmem_attribute attribute, CNaddr ptr) {
  if (data == nullptr) return null_output("cnGetMemAttribute");
  const auto *p = reinterpret_cast<const void *>(ptr);
  GdramRange range{};
  const bool device = gdram_find_live(p, &range);
  void *host_start = nullptr;
  size_t host_bytes = 0;
  const bool host = !device && sdk::host_find(p, &host_start, &host_bytes);
  switch (attribute) {
    case CN_MEM_ATTRIBUTE_TYPE:
      put<unsigned int>(data, device ? CN_MEMORYTYPE_DEVICE
                              : host ? CN_MEMORYTYPE_HOST
                                     : CN_MEMORYTYPE_UNKNOWN);
      return CN_SUCCESS;
    case CN_MEM_ATTRIBUTE_ISLINEAR: put<int>(data, 0); return CN_SUCCESS;
    default: break;
  }
  if (!device) {
    log::runtime().error("cnGetMemAttribute: {:#x} is not device memory", ptr);
    return CN_MEMORY_ERROR_INVALID_ADDRESS;
  }
  switch (attribute) {
    case CN_MEM_ATTRIBUTE_DEVICE_POINTER: put<CNaddr>(data, ptr); return CN_SUCCESS;
    case CN_MEM_ATTRIBUTE_HOST_POINTER: put<void *>(data, nullptr); return CN_SUCCESS;
    case CN_MEM_ATTRIBUTE_CONTEXT: put<CNcontext>(data, &g_context); return CN_SUCCESS;
    case CN_MEM_ATTRIBUTE_DEVICE_ORDINAL: put<int>(data, 0); return CN_SUCCESS;
    case CN_MEM_ATTRIBUTE_RANGE_START_ADDR: put<CNaddr>(data, range.begin); return CN_SUCCESS;
    case CN_MEM_ATTRIBUTE_RANGE_SIZE: put<size_t>(data, range.end - range.begin); return CN_SUCCESS;
    default:
      log::runtime().error("cnGetMemAttribute: {:#x} is not a CNmem_attribute the simulator has",
                           static_cast<int>(attribute));
      return CN_ERROR_INVALID_VALUE;
  }
}
