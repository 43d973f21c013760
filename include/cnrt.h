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

/* CNRT's header brings in CNDrv's: mlu-ops v1.11.1's adam_w_light includes
 * cnrt.h alone and calls cnCtxGetCurrent and cnGetCtxConfigParam. */
#include "cn_api.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The CNRT version mlusim answers cnrtGetLibVersion with. */
#define CNRT_MAJOR_VERSION 6
#define CNRT_MINOR_VERSION 7
#define CNRT_PATCH_VERSION 0
#define CNRT_VERSION (CNRT_MAJOR_VERSION * 10000 + CNRT_MINOR_VERSION * 100 + CNRT_PATCH_VERSION)

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
  cnrtErrorInvalidSymbol = 632100, /* a symbol name the runtime does not know (mlusim never returns it) */
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
  cnrtFuncTypeUnion16 = 64,
  cnrtFuncTypeMutable = -1 /* a name only: no launch takes it */
} cnrtFunctionType_t;

/* Device attributes (CNRT 6 values, the same numbers as CNDrv's
 * CN_DEVICE_ATTRIBUTE_*). cnrtDeviceGetAttribute answers the ones the simulated
 * device defines (docs/host_api.md) and returns cnrtErrorNotSupport for the rest. */
typedef enum {
  cnrtAttrComputeCapabilityMajor = 0x01,
  cnrtAttrComputeCapabilityMinor = 0x02,
  cnrtAttrSparseComputingSupported = 0x03,
  cnrtAttrFP16ComputingSupported = 0x04,
  cnrtAttrINT4ComputingSupported = 0x05,
  cnrtAttrINT8ComputingSupported = 0x06,
  cnrtAttrBF16ComputingSupported = 0x07,
  cnrtAttrTF32ComputingSupported = 0x08,
  cnrtAttrQueueSize = 0x101,
  cnrtAttrNotifierSize = 0x102,
  cnrtAttrSupportQueuePriorities = 0x103,
  cnrtAttrTinyCoreSupported = 0x104,
  cnrtAttrCodecJPEGSupported = 0x105,
  cnrtAttrCodecH264Supported = 0x107,
  cnrtAttrCodecH265Supported = 0x108,
  cnrtAttrMaxDimX = 0x201,
  cnrtAttrMaxDimY = 0x202,
  cnrtAttrMaxDimZ = 0x203,
  cnrtAttrMaxClusterCountPerUnionTask = 0x204,
  cnrtAttrClusterCount = 0x205,
  cnrtAttrMcorePerCluster = 0x206,
  cnrtAttrMaxQuadrantCount = 0x207,
  cnrtAttrMaxUnionTypePerQuadrant = 0x208,
  cnrtAttrMaxClusterPerUnionLimitTask = 0x209,
  cnrtAttrISAVersion = 0x20a,        /* 372 for the MLU370 */
  cnrtAttrIsMultipleTensorProcessor = 0x20b,
  cnrtAttrMaxL2CacheSize = 0x301,    /* bytes */
  cnrtAttrNramSizePerMcore = 0x302,  /* bytes, physical (mlu-ops subtracts 128 KiB of stack) */
  cnrtAttrWramSizePerMcore = 0x303,  /* bytes */
  cnrtAttrTotalConstMemorySize = 0x304,
  cnrtAttrLmemSizePerMcore = 0x305,
  cnrtAttrSramSizePerMcore = 0x306,  /* bytes of SRAM per cluster, physical */
  cnrtAttrGlobalMemoryNodeCount = 0x307,
  cnrtAttrMaxPersistingL2CacheSize = 0x309,
  cnrtAttrEccEnable = 0x401,
  cnrtAttrIpuClockRate = 0x402,      /* cluster clock, kHz */
  cnrtAttrMemClockRate = 0x403,      /* kHz */
  cnrtAttrGmemBusWidth = 0x404,      /* bits */
  cnrtAttrTotalMemSize = 0x405,      /* GDRAM, MiB */
  cnrtAttrPciBusID = 0x406,
  cnrtAttrPciDeviceID = 0x407,
  cnrtAttrPciDomainID = 0x408
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

/* Element types of cnrtCastDataType_V2 (CNRT 6 values). */
typedef enum cnrtDataType_V2 {
  cnrtUnknown = 0x0,
  cnrtDouble = 0x1,
  cnrtFloat = 0x2,
  cnrtHalf = 0x3,
  cnrtBfloat = 0x4,
  cnrtUlonglong = 0x11,
  cnrtUint = 0x12,
  cnrtUshort = 0x13,
  cnrtUchar = 0x14,
  cnrtLonglong = 0x21,
  cnrtInt = 0x22,
  cnrtShort = 0x23,
  cnrtChar = 0x24,
  cnrtBoolean = 0x31
} cnrtDataType_V2_t;

/* Rounding of cnrtCastDataType_V2 (CNRT 6 values): rn to nearest, ties to
 * even; rz toward zero; rd toward -inf; ru toward +inf; ro away from zero; rm
 * to nearest, ties away from zero (mlusim's reading of ro and rm: docs/host_api.md). */
typedef enum cnrtRoundingMode {
  cnrtRounding_rn = 0,
  cnrtRounding_rz = 1,
  cnrtRounding_rd = 2,
  cnrtRounding_ru = 3,
  cnrtRounding_ro = 4,
  cnrtRounding_rm = 5,
  cnrtRounding_max
} cnrtRoundingMode_t;

/* Quantization of cnrtCastDataType_V2: quantized = real * scale / 2^pos + offset. */
typedef struct cnrtQuantizedParam *cnrtQuantizedParam_t;

/* What cnrtPointerGetAttributes tells about a pointer. */
typedef enum {
  cnrtMemTypeUnregistered = 0, /* host memory CNRT did not allocate */
  cnrtMemTypeHost,             /* from cnrtHostMalloc */
  cnrtMemTypeDevice            /* from cnrtMalloc or cnrtMallocConstant */
} cnrtMemType_t;

typedef enum {
  cnrtUvaNotSupport = -1,
  cnrtUvaUnknown = 0,
  cnrtUvaUnCached,
  cnrtUvaCached
} cnrtUvaCacheMode_t;

typedef struct {
  cnrtMemType_t type;
  int device;
  size_t size;              /* the whole allocation's bytes */
  void *devicePointer;
  void *hostPointer;
  cnrtUvaCacheMode_t cacheMode;
  void *deviceBasePointer;  /* the allocation's start */
} cnrtPointerAttributes_t;

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
/* Frees every device allocation of this process (cnrtErrorIllegalState while
 * a launch runs); queues and notifiers stay valid. */
cnrtRet_t cnrtDeviceReset(void);
/* The simulated device's PCI address, "0000:01:00.0", NUL-terminated in len bytes. */
cnrtRet_t cnrtDeviceGetPCIBusId(char *pciBusId, int len, int device);
cnrtRet_t cnrtGetLibVersion(int *major, int *minor, int *patch);

cnrtRet_t cnrtMalloc(void **ptr, size_t bytes);
/* Refused with cnrtErrorIllegalState while a launch that may use the memory runs. */
cnrtRet_t cnrtFree(void *ptr);
cnrtRet_t cnrtMemset(void *ptr, int value, size_t bytes);
/* Device memory for __mlu_const__ data: GDRAM, as cnrtMalloc. */
cnrtRet_t cnrtMallocConstant(void **pPtr, size_t bytes);
/* Page-locked host memory on a board; here host memory the runtime knows. */
cnrtRet_t cnrtHostMalloc(void **pPtr, size_t bytes);
cnrtRet_t cnrtFreeHost(void *ptr);
/* GDRAM not allocated and the device's whole GDRAM, in bytes; either may be NULL. */
cnrtRet_t cnrtMemGetInfo(size_t *free, size_t *total);
cnrtRet_t cnrtPointerGetAttributes(cnrtPointerAttributes_t *attr, const void *ptr);
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
/* Work queued on `queue` after this starts when the notifier's place was
 * reached: the queue's simulated clock moves up to the notifier's time. A
 * notifier never placed is reached already. `flag` must be 0. */
cnrtRet_t cnrtQueueWaitNotifier(cnrtNotifier_t notifier, cnrtQueue_t queue, unsigned int flag);

/* Converts `count` elements of `src` from srcDataType into dstDataType at `dst`
 * with the given rounding, saturating to the destination's range (NaN to an
 * integer gives 0). With `param` the integer side is quantized (see
 * cnrtQuantizedParam_t). count 0 does nothing. */
cnrtRet_t cnrtCastDataType_V2(void *src, cnrtDataType_V2_t srcDataType, void *dst,
                              cnrtDataType_V2_t dstDataType, int count,
                              cnrtQuantizedParam_t param, cnrtRoundingMode_t roundingMode);
cnrtRet_t cnrtCreateQuantizedParam(cnrtQuantizedParam_t *param, int pos, float scale,
                                   int offset);
cnrtRet_t cnrtDestroyQuantizedParam(cnrtQuantizedParam_t param);

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
#define CNRT_RET_ERR_INVALID ((cnrtRet_t)632007)

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
