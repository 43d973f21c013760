/* cn_api.h: the subset of Cambricon's CNDrv driver API that host code built on
 * CNRT calls (mlu-ops' handle creation, its gtest harness). Names, signatures
 * and numeric values follow CNDrv 2, so that code written for a board compiles
 * unchanged and compares against the numbers a board returns. There is one
 * simulated device (CNdev 0) with one context shared by every host thread;
 * device queries answer from the simulated device (mlusim.h, MLUSIM_DEVICE).
 * docs/host_api.md lists what is simulated and how it differs from a board. */
#ifndef MLUSIM_CN_API_H_
#define MLUSIM_CN_API_H_

#include <stdint.h>
#include <stdlib.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CN_MAJOR_VERSION 2
#define CN_MINOR_VERSION 7
#define CN_PATCH_VERSION 0
#define CN_VERSION (CN_MAJOR_VERSION * 100000 + CN_MINOR_VERSION * 1000 + CN_PATCH_VERSION)

typedef uint64_t cn_uint64_t;
typedef int64_t cn_int64_t;
typedef uint32_t cn_uint32_t;

/* CNDrv's context configuration calls are per thread: the header maps the
 * plain names onto the _pt entry points, as CNDrv 2 does. */
#define cnSetCtxConfigParam cnSetCtxConfigParam_pt
#define cnGetCtxConfigParam cnGetCtxConfigParam_pt

/* Return codes (CNDrv 2 numbers; the ones a simulated device can produce). */
typedef enum {
  CN_SUCCESS = 0,
  CN_ERROR_NOT_READY = 1,
  CN_ERROR_NOT_INITIALIZED = 100002,
  CN_ERROR_NO_DEVICE = 100004,
  CN_ERROR_INVALID_DEVICE = 100005,
  CN_ERROR_INVALID_VALUE = 100006,   /* null output pointer, bad enum value, bad size */
  CN_ERROR_OPERATING_SYSTEM = 100007,
  CN_ERROR_SYSTEM_OUT_OF_MEMORY = 100010,
  CN_ERROR_INVALID_ADDRESS = 100011, /* a host address CNDrv did not allocate */
  CN_ERROR_INVALID_HANDLE = 100014,  /* not a live queue */
  CN_ERROR_ILLEGAL_STATE = 100015,   /* e.g. freeing memory a running launch uses */
  CN_OPS_ERROR_NOT_SUPPORTED = 100050,
  CN_OPS_ERROR_NOT_PERMITTED = 100051,
  CN_QUEUE_ERROR_INVALID = 100060,
  CN_MEMORY_ERROR_OUT_OF_MEMORY = 100100,
  CN_MEMORY_ERROR_INVALID_ADDRESS = 100102, /* not an address cnMalloc/cnMallocConstant gave */
  CN_CONTEXT_ERROR_INVALID = 100201,
  CN_ERROR_UNKNOWN = 200000
} CNresult;

/* Device properties for cnDeviceGetAttribute (CNDrv 2 values). */
typedef enum CNdevice_attribute_enum {
  CN_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 0x01,
  CN_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 0x02,
  CN_DEVICE_ATTRIBUTE_MAX_QUEUE_COUNT = 0x101,
  CN_DEVICE_ATTRIBUTE_MAX_NOTIFIER_COUNT = 0x102,
  CN_DEVICE_ATTRIBUTE_MAX_BLOCK_TASK_DIM_X = 0x201,
  CN_DEVICE_ATTRIBUTE_MAX_BLOCK_TASK_DIM_Y = 0x202,
  CN_DEVICE_ATTRIBUTE_MAX_BLOCK_TASK_DIM_Z = 0x203,
  CN_DEVICE_ATTRIBUTE_MAX_CLUSTER_COUNT_PER_UNION_TASK = 0x204,
  CN_DEVICE_ATTRIBUTE_MAX_CLUSTER_COUNT = 0x205,
  CN_DEVICE_ATTRIBUTE_MAX_CORE_COUNT_PER_CLUSTER = 0x206,
  CN_DEVICE_ATTRIBUTE_MAX_QUADRANT_COUNT = 0x207,
  CN_DEVICE_ATTRIBUTE_MAX_UNION_TYPE_PER_QUADRANT = 0x208,
  CN_DEVICE_ATTRIBUTE_MAX_CLUSTERS_PER_UNION_LIMIT_TASK = 0x209,
  CN_DEVICE_ATTRIBUTE_MLU_ISA_VERSION = 0x20a,
  CN_DEVICE_ATTRIBUTE_IS_MULTIPLE_TENSOR_PROCESSOR = 0x20b,
  CN_DEVICE_ATTRIBUTE_MAX_L2_CACHE_SIZE = 0x301,
  CN_DEVICE_ATTRIBUTE_NRAM_SIZE_PER_CORE = 0x302,
  CN_DEVICE_ATTRIBUTE_NEURAL_RAM_SIZE_PER_CORE = CN_DEVICE_ATTRIBUTE_NRAM_SIZE_PER_CORE,
  CN_DEVICE_ATTRIBUTE_WEIGHT_RAM_SIZE_PER_CORE = 0x303,
  CN_DEVICE_ATTRIBUTE_TOTAL_CONST_MEMORY_SIZE = 0x304,
  CN_DEVICE_ATTRIBUTE_LOCAL_MEMORY_SIZE_PER_CORE = 0x305,
  CN_DEVICE_ATTRIBUTE_MAX_SHARED_RAM_SIZE_PER_CLUSTER = 0x306,
  CN_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_NODE_COUNT = 0x307,
  CN_DEVICE_ATTRIBUTE_CLUSTER_L1_CACHE_SUPPORTED = 0x308,
  CN_DEVICE_ATTRIBUTE_MAX_PERSISTING_L2_CACHE_SIZE = 0x309,
  CN_DEVICE_ATTRIBUTE_LINEAR_MAPPING_SUPPORTED = 0x310,
  CN_DEVICE_ATTRIBUTE_LINEAR_RECOMMEND_GRANULARITY = 0x311,
  CN_DEVICE_ATTRIBUTE_AVAILABLE_GLOBAL_MEMORY_SIZE = 0x312,
  CN_DEVICE_ATTRIBUTE_ECC_ENABLED = 0x401,
  CN_DEVICE_ATTRIBUTE_CLUSTER_CLOCK_RATE = 0x402,      /* kHz */
  CN_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE = 0x403,       /* kHz */
  CN_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH = 0x404, /* bits */
  CN_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_TOTAL_SIZE = 0x405, /* MiB */
  CN_DEVICE_ATTRIBUTE_PCI_BUS_ID = 0x406,
  CN_DEVICE_ATTRIBUTE_PCI_DEVICE_ID = 0x407,
  CN_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID = 0x408,
  CN_DEVICE_ATTRIBUTE_MAX
} CNdevice_attribute;

enum CN_memory_type {
  CN_MEMORYTYPE_UNKNOWN = 0,
  CN_MEMORYTYPE_HOST = 1,
  CN_MEMORYTYPE_DEVICE = 2
};

/* Pointer properties for cnGetMemAttribute (CNDrv 2 values). */
typedef enum CNmem_attribute_enum {
  CN_MEM_ATTRIBUTE_TYPE = 0x1,           /* unsigned int: a CN_memory_type */
  CN_MEM_ATTRIBUTE_DEVICE_POINTER = 0x2, /* CNaddr */
  CN_MEM_ATTRIBUTE_HOST_POINTER = 0x3,   /* void * */
  CN_MEM_ATTRIBUTE_CONTEXT = 0x6,        /* CNcontext */
  CN_MEM_ATTRIBUTE_DEVICE_ORDINAL = 0x7, /* int */
  CN_MEM_ATTRIBUTE_RANGE_START_ADDR = 0x11, /* CNaddr: the allocation's start */
  CN_MEM_ATTRIBUTE_RANGE_SIZE = 0x12,    /* size_t: the allocation's size */
  CN_MEM_ATTRIBUTE_ISLINEAR = 0x18,      /* int */
  CN_MEM_ATTRIBUTE_MAX
} CNmem_attribute;

/* Task classes, numbered as cnrtFunctionType_t numbers them. */
typedef enum cn_kernel_class {
  CN_KERNEL_CLASS_BLOCK = 1,
  CN_KERNEL_CLASS_UNION = 4,
  CN_KERNEL_CLASS_UNION2 = 8,
  CN_KERNEL_CLASS_UNION4 = 16,
  CN_KERNEL_CLASS_UNION8 = 32,
  CN_KERNEL_CLASS_UNION16 = 64,
  CN_KERNEL_CLASS_NONE = 0xFF
} KernelClass;

/* Per-thread context settings (cnGetCtxConfigParam / cnSetCtxConfigParam). */
typedef enum cn_ctx_config_type {
  CN_CTX_CONFIG_VISIBLE_CLUSTER = 0, /* bitmap of the clusters kernels may use */
  CN_CTX_CONFIG_VISIBLE_CLUSTER_NUM, /* number of visible clusters (get only) */
  CN_CTX_CONFIG_UNION_LIMIT,         /* the largest task class kernels may use */
  CN_CTX_CONFIG_NUM
} CNctxConfigParamType;

typedef union cn_ctx_config_param {
  cn_uint64_t visibleCluster;
  cn_uint64_t visibleClusterNumber;
  KernelClass unionLimit;
} CNctxConfigParam;

typedef cn_uint64_t CNdev; /* the device ordinal */
typedef cn_uint64_t CNaddr; /* a device address */
typedef struct CNcontext_st *CNcontext;
typedef struct CNqueue_st *CNqueue; /* the same queues as cnrtQueue_t */
typedef struct CNnotifier_st *CNnotifier;

CNresult cnInit(unsigned int flags);
CNresult cnGetLibVersion(int *major, int *minor, int *patch);
/* The simulated driver's version (mlusim reports the CNDrv version above). */
CNresult cnGetDriverVersion(int *major, int *minor, int *patch);
/* The enumerator's name and a description of a code, in *pStr (never NULL). */
CNresult cnGetErrorName(CNresult error, const char **pStr);
CNresult cnGetErrorString(CNresult error, const char **pStr);

CNresult cnDeviceGetCount(int *count);
CNresult cnDeviceGet(CNdev *device, int ordinal);
/* The simulated device's preset name, e.g. "MLU370-X4". */
CNresult cnDeviceGetName(char *name, int len, CNdev dev);
CNresult cnDeviceGetAttribute(int *pi, CNdevice_attribute attrib, CNdev dev);

/* One context, shared by every host thread and always current. */
CNresult cnCtxGetCurrent(CNcontext *pctx);
CNresult cnCtxGetDevice(CNdev *device);
CNresult cnSharedContextAcquire(CNcontext *pctx, CNdev dev);
CNresult cnSharedContextRelease(CNdev dev);
CNresult cnQueueGetContext(CNqueue hqueue, CNcontext *pctx);
/* The context's settings: every cluster visible, union limit the largest
 * UNIONn. Setting accepts only these values: narrower settings return
 * CN_OPS_ERROR_NOT_SUPPORTED, since the simulator's launches do not honour them. */
CNresult cnGetCtxConfigParam(CNcontext context, CNctxConfigParamType type,
                             CNctxConfigParam *param);
CNresult cnSetCtxConfigParam(CNcontext context, CNctxConfigParamType type,
                             CNctxConfigParam *param);
/* How many tasks of class c the device runs at once (0: wider than the device). */
CNresult cnGetCtxMaxParallelUnionTasks(CNcontext context, KernelClass c, int *number);

/* Device memory: the same GDRAM allocations as cnrtMalloc. */
CNresult cnMalloc(CNaddr *pmluAddr, cn_uint64_t bytes);
CNresult cnMallocConstant(CNaddr *pmluAddr, cn_uint64_t bytes);
CNresult cnFree(CNaddr mluAddr);
/* Host memory: the same allocations as cnrtHostMalloc. */
CNresult cnMallocHost(void **pp, cn_uint64_t bytes);
CNresult cnFreeHost(void *p);
/* Writes the attribute into `data`, whose type the attribute names. */
CNresult cnGetMemAttribute(void *data, CNmem_attribute attribute, CNaddr ptr);

#ifdef __cplusplus
}
#endif

#endif /* MLUSIM_CN_API_H_ */
