/* cnrt.h: the subset of Cambricon's CNRT host runtime that mlusim simulates.
 * Names, signatures and numeric values follow CNRT 6 (cnrtRet_t codes, the copy
 * directions, function types, device attributes, data types and the CNRT 5-style
 * compatibility macros), so that existing host code compiles unchanged and
 * compares return codes against the numbers a real board gives. Device memory is
 * host memory underneath, but every device pointer and every handle is known to
 * the runtime; anything else is rejected with an error code, never dereferenced.
 * docs/host_api.md lists what is simulated and how it differs from a board. */
#ifndef MLUSIM_CNRT_H_
#define MLUSIM_CNRT_H_

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Return codes. The cnrtSuccess .. cnrtErrorUnknown values are CNRT 6's public
 * numbers. mlusim's own codes (900001..) name conditions a board does not
 * report as such; they never collide with CNRT's. */
typedef enum {
  cnrtSuccess = 0,
  cnrtErrorNotReady = 1,
  cnrtErrorInit = 100002,
  cnrtErrorNoDevice = 100004,
  cnrtErrorDeviceInvalid = 100005,
  cnrtErrorArgsInvalid = 100006,   /* null output pointer, bad size, bad enum value */
  cnrtErrorSys = 100007,
  cnrtErrorSysNoMem = 100010,
  cnrtErrorInvalidResourceHandle = 100014, /* not a live queue or notifier */
  cnrtErrorIllegalState = 100015,  /* e.g. freeing memory a running launch uses */
  cnrtErrorNotSupport = 100050,
  cnrtErrorOpsNotPermitted = 100051,
  cnrtErrorQueue = 100060,
  cnrtErrorNoMem = 100100,         /* allocation would exceed the device's GDRAM */
  cnrtErrorNoKernel = 101312,      /* cnrtInvokeKernel of a kernel the runtime does not know */
  cnrtErrorNoModule = 101315,
  cnrtErrorSetOnActiveProcess = 632002,
  cnrtErrorDevice = 632006,
  cnrtErrorNoAttribute = 632009,
  cnrtErrorMemcpyDirectionInvalid = 632013, /* not a cnrtMemTransDir_t value */
  cnrtErrorBusy = 632014,
  cnrtErrorCndrvFuncCall = 632015,
  cnrtErrorCndevFuncCall = 632017,
  cnrtErrorNoCnrtContext = 632019,
  cnrtErrorCndrvFuncNotFound = 632020,
  cnrtErrorUnknown = 999991,

  /* Earlier mlusim names, kept: a bad queue or notifier is CNRT's invalid handle. */
  cnrtErrorInvalidQueue = cnrtErrorInvalidResourceHandle,
  cnrtErrorInvalidNotifier = cnrtErrorInvalidResourceHandle,

  /* mlusim's own codes. */
  cnrtErrorInvalidDevicePtr = 900001, /* pointer not from cnrtMalloc, or outside its allocation */
  cnrtErrorDoubleFree = 900002,       /* freeing memory that is not a live allocation */
  cnrtErrorInvalidDirection = 900003, /* memcpy direction disagrees with where pointers live */
  cnrtErrorInvalidKernelDim = 900004, /* launch dimension or function type the device rejects */
  cnrtErrorKernelFault = 900005       /* the kernel broke a device rule (see mlusimGetLastError) */
} cnrtRet_t;

/* Copy directions, numbered as CNRT 6 numbers them. */
typedef enum {
  cnrtMemcpyHostToDev = 0,
  cnrtMemcpyDevToDev = 1,
  cnrtMemcpyDevToHost = 2,
  cnrtMemcpyHostToHost = 3,
  cnrtMemcpyPeerToPeer = 4,  /* between two devices: mlusim has one, so always rejected */
  cnrtMemcpyNoDirection = 5  /* the runtime infers the direction from the pointers */
} cnrtMemTransDir_t;

typedef struct {
  unsigned int x;
  unsigned int y;
  unsigned int z;
} cnrtDim3_t;

/* Task types: BLOCK runs tasks on single cores; UNIONn gangs n clusters whose
 * cores run concurrently and may synchronise. */
typedef enum {
  cnrtFuncTypeBlock = 1,
  cnrtFuncTypeUnion1 = 4,
  cnrtFuncTypeUnion2 = 8,
  cnrtFuncTypeUnion4 = 16,
  cnrtFuncTypeUnion8 = 32,
  cnrtFuncTypeUnion16 = 64
} cnrtFunctionType_t;

/* Device attributes (CNRT 6 values). cnrtDeviceGetAttribute answers the ones
 * the simulated device spec defines and returns cnrtErrorNotSupport for the rest. */
typedef enum {
  cnrtAttrComputeCapabilityMajor = 0x01,
  cnrtAttrComputeCapabilityMinor = 0x02,
  cnrtAttrMaxDimX = 0x201,
  cnrtAttrMaxDimY = 0x202,
  cnrtAttrMaxDimZ = 0x203,
  cnrtAttrMaxClusterCountPerUnionTask = 0x204,
  cnrtAttrClusterCount = 0x205,
  cnrtAttrMcorePerCluster = 0x206,
  cnrtAttrMaxL2CacheSize = 0x301,
  cnrtAttrNramSizePerMcore = 0x302,  /* bytes, physical (mlu-ops subtracts 128 KiB of stack) */
  cnrtAttrWramSizePerMcore = 0x303,  /* bytes */
  cnrtAttrSramSizePerMcore = 0x306,  /* bytes of SRAM per cluster, physical */
  cnrtAttrIpuClockRate = 0x402,      /* cluster clock, kHz */
  cnrtAttrMemClockRate = 0x403,
  cnrtAttrGmemBusWidth = 0x404,
  cnrtAttrTotalMemSize = 0x405       /* GDRAM, MiB */
} cnrtDeviceAttr_t;

/* Data types (CNRT 6 values), for host code that tags buffers with them. */
typedef enum cnrtDataType {
  cnrtInvalid = 0x0,
  cnrtFloat16 = 0x12,
  cnrtFloat32 = 0x13,
  cnrtFloat64 = 0x14,
  cnrtInt4 = 0x20,
  cnrtInt8 = 0x21,
  cnrtInt16 = 0x22,
  cnrtInt32 = 0x23,
  cnrtInt64 = 0x24,
  cnrtAuto = 0x25,
  cnrtUInt8 = 0x31,
  cnrtUInt16 = 0x32,
  cnrtUInt32 = 0x33,
  cnrtFix8 = 0x41,
  cnrtQuant8 = 0x51,
  cnrtBool = 0x61
} cnrtDataType_t;

typedef struct cnrtQueue *cnrtQueue_t;
typedef struct cnrtNotifier *cnrtNotifier_t;

/* A short description ("invalid resource handle") and the enumerator's name
 * ("cnrtErrorInvalidResourceHandle") of a code; never NULL. */
const char *cnrtGetErrorStr(cnrtRet_t ret);
const char *cnrtGetErrorName(cnrtRet_t ret);
/* The code of the last failed CNRT call or launch on this host thread
 * (cnrtSuccess if none). Get also resets it to cnrtSuccess; Peek does not. */
cnrtRet_t cnrtGetLastError(void);
cnrtRet_t cnrtPeekAtLastError(void);

cnrtRet_t cnrtGetDeviceCount(unsigned int *count);
cnrtRet_t cnrtGetDevice(int *ordinal);
cnrtRet_t cnrtSetDevice(int ordinal);
cnrtRet_t cnrtDeviceGetAttribute(int *value, cnrtDeviceAttr_t attr, int device);

cnrtRet_t cnrtMalloc(void **ptr, size_t bytes);
/* Refused with cnrtErrorIllegalState while a launch that may use the memory runs. */
cnrtRet_t cnrtFree(void *ptr);
cnrtRet_t cnrtMemset(void *ptr, int value, size_t bytes);
cnrtRet_t cnrtMemcpy(void *dst, void *src, size_t bytes, cnrtMemTransDir_t dir);
/* Checked as cnrtMemcpy and done at once (launches are synchronous too); it
 * adds no device time to the queue. */
cnrtRet_t cnrtMemcpyAsync(void *dst, void *src, size_t bytes, cnrtQueue_t queue,
                          cnrtMemTransDir_t dir);

cnrtRet_t cnrtQueueCreate(cnrtQueue_t *queue);
cnrtRet_t cnrtQueueDestroy(cnrtQueue_t queue);
/* Returns cnrtErrorKernelFault once after a kernel on this queue faulted (on a
 * board the fault surfaces at the next synchronisation). */
cnrtRet_t cnrtQueueSync(cnrtQueue_t queue);

cnrtRet_t cnrtNotifierCreate(cnrtNotifier_t *notifier);
cnrtRet_t cnrtNotifierDestroy(cnrtNotifier_t notifier);
cnrtRet_t cnrtPlaceNotifier(cnrtNotifier_t notifier, cnrtQueue_t queue);
/* Simulated device time between two notifiers of one queue, in microseconds. */
cnrtRet_t cnrtNotifierDuration(cnrtNotifier_t start, cnrtNotifier_t end, float *us);
/* The same interval in milliseconds (on a board: host-observed time; here the
 * simulated device time, so it equals cnrtNotifierDuration / 1000). */
cnrtRet_t cnrtNotifierElapsedTime(cnrtNotifier_t start, cnrtNotifier_t end, float *ms);

/* Launches `kernel` with args[i] pointing at its i-th argument, as
 * kernel<<<dim, type, queue>>>(...) would. From C++ the typed overload below
 * makes any kernel known; a kernel passed only as void* must have been
 * registered (mlusim::register_kernel), else cnrtErrorNoKernel. `reserved` must be 0. */
cnrtRet_t cnrtInvokeKernel(const void *kernel, cnrtDim3_t dim, cnrtFunctionType_t type,
                           void **args, size_t reserved, cnrtQueue_t queue);

#ifdef __cplusplus
}
#endif

/* CNRT 5 spellings that CNRT 6 keeps as macros. */
#define CNRT_RET_SUCCESS cnrtSuccess

#define CNRT_FUNC_TYPE_BLOCK ((cnrtFunctionType_t)1)
#define CNRT_FUNC_TYPE_UNION1 ((cnrtFunctionType_t)4)
#define CNRT_FUNC_TYPE_UNION2 ((cnrtFunctionType_t)8)
#define CNRT_FUNC_TYPE_UNION4 ((cnrtFunctionType_t)16)
#define CNRT_FUNC_TYPE_UNION8 ((cnrtFunctionType_t)32)
#define CNRT_FUNC_TYPE_UNION16 ((cnrtFunctionType_t)64)

#define CNRT_MEM_TRANS_DIR_HOST2DEV ((cnrtMemTransDir_t)0)
#define CNRT_MEM_TRANS_DIR_DEV2DEV ((cnrtMemTransDir_t)1)
#define CNRT_MEM_TRANS_DIR_DEV2HOST ((cnrtMemTransDir_t)2)
#define CNRT_MEM_TRANS_DIR_HOST2HOST ((cnrtMemTransDir_t)3)
#define CNRT_MEM_TRANS_DIR_PEER2PEER ((cnrtMemTransDir_t)4)
#define CNRT_MEM_TRANS_DIR_NODIR ((cnrtMemTransDir_t)5)

#define CNRT_INVALID ((cnrtDataType_t)0x0)
#define CNRT_FLOAT16 ((cnrtDataType_t)0x12)
#define CNRT_FLOAT32 ((cnrtDataType_t)0x13)
#define CNRT_FLOAT64 ((cnrtDataType_t)0x14)
#define CNRT_INT8 ((cnrtDataType_t)0x21)
#define CNRT_INT16 ((cnrtDataType_t)0x22)
#define CNRT_INT32 ((cnrtDataType_t)0x23)
#define CNRT_INT64 ((cnrtDataType_t)0x24)
#define CNRT_UINT8 ((cnrtDataType_t)0x31)
#define CNRT_UINT16 ((cnrtDataType_t)0x32)
#define CNRT_UINT32 ((cnrtDataType_t)0x33)
#define CNRT_BOOL ((cnrtDataType_t)0x61)

/* Prints the code, its name and the call, and exits, as CNRT 6's macro does. */
#define CNRT_CHECK(call)                                                           \
  do {                                                                             \
    cnrtRet_t cnrt_check_ret_ = (call);                                            \
    if (cnrt_check_ret_ != cnrtSuccess) {                                          \
      fprintf(stderr, "[%s:%d] CNRT error, code=%d(%s) \"%s\"\n", __FILE__, __LINE__, \
              (int)cnrt_check_ret_, cnrtGetErrorStr(cnrt_check_ret_), #call);     \
      exit(EXIT_FAILURE);                                                          \
    }                                                                              \
  } while (0)

#ifdef __cplusplus
#include <cstddef>
#include <type_traits>
#include <utility>

namespace mlusim {

// Calls a kernel whose `arity` arguments are behind args[0..arity): what
// cnrtInvokeKernel needs to call a kernel it only has as an address.
using KernelInvoker = void (*)(const void *kernel, void **args);

// Makes a kernel known to cnrtInvokeKernel(const void *, ...) under `name`
// (used in fault messages and reports); a null name keeps the one registered
// before, or names the kernel by its address.
void register_kernel(const void *kernel, const char *name, KernelInvoker invoke, size_t arity);

namespace detail {
template <typename... Params, size_t... I>
void call_unpacked(void (*kernel)(Params...), void **args, std::index_sequence<I...>) {
  kernel(*static_cast<std::remove_cv_t<std::remove_reference_t<Params>> *>(args[I])...);
}
template <typename... Params>
void invoke_unpacked(const void *kernel, void **args) {
  call_unpacked(reinterpret_cast<void (*)(Params...)>(const_cast<void *>(kernel)), args,
                std::index_sequence_for<Params...>{});
}
}  // namespace detail

template <typename... Params>
void register_kernel(void (*kernel)(Params...), const char *name) {
  register_kernel(reinterpret_cast<const void *>(kernel), name,
                  &detail::invoke_unpacked<Params...>, sizeof...(Params));
}

}  // namespace mlusim

// cnrtInvokeKernel(kernel, ...) with the kernel itself: its parameter types are
// known here, so it needs no registration.
template <typename... Params>
cnrtRet_t cnrtInvokeKernel(void (*kernel)(Params...), cnrtDim3_t dim, cnrtFunctionType_t type,
                           void **args, size_t reserved, cnrtQueue_t queue) {
  ::mlusim::register_kernel(kernel, nullptr);
  return cnrtInvokeKernel(reinterpret_cast<const void *>(kernel), dim, type, args, reserved,
                          queue);
}
#endif

#endif /* MLUSIM_CNRT_H_ */
