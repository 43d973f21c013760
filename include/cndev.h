/* cndev.h: the subset of Cambricon's CNDev device-management API that host
 * tools query (mlu-ops' gtest harness: which device to pick, its memory
 * bandwidth and clock; the BANG C guide's samples: peak compute). Names,
 * structures and numeric values follow CNDev's public header, API version 5. One simulated device (index 0), described by
 * the current device preset; this process is the one process using it.
 * docs/host_api.md lists what is simulated. */
#ifndef MLUSIM_CNDEV_H_
#define MLUSIM_CNDEV_H_

#include <libgen.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Structure versions: a caller sets .version before a query. */
#define CNDEV_VERSION_1 1
#define CNDEV_VERSION_2 2
#define CNDEV_VERSION_3 3
#define CNDEV_VERSION_4 4
#define CNDEV_VERSION_5 5
#define CNDEV_MLU_CLUSTER_FREQUENCY_COUNT 20

typedef int32_t cndevDevice_t; /* a device handle: the device index */

typedef enum {
  CNDEV_SUCCESS = 0,
  CNDEV_ERROR_NO_DRIVER = 1,
  CNDEV_ERROR_LOW_DRIVER_VERSION = 2,
  CNDEV_ERROR_UNSUPPORTED_API_VERSION = 3,
  CNDEV_ERROR_UNINITIALIZED = 4,     /* a query before cndevInit */
  CNDEV_ERROR_INVALID_ARGUMENT = 5,  /* null pointer */
  CNDEV_ERROR_INVALID_DEVICE_ID = 6, /* not device 0 */
  CNDEV_ERROR_UNKNOWN = 7,
  CNDEV_ERROR_MALLOC = 8,
  CNDEV_ERROR_INSUFFICIENT_SPACE = 9, /* fewer process slots than processes */
  CNDEV_ERROR_NOT_SUPPORTED = 10
} cndevRet_t;

/* One process using the device: this one, with its GDRAM in KiB. */
typedef struct {
  int version;
  unsigned int pid;
  uint64_t physicalMemoryUsed;
  uint64_t virtualMemoryUsed;
} cndevProcessInfo_t;

/* Clocks in MHz: boardFreq the cluster clock, ddrFreq the memory transfer rate. */
typedef struct {
  int version;
  int boardFreq;
  int ddrFreq;
  uint8_t overtempDfsFlag;
  uint8_t fastDfsFlag;
  uint16_t mluClusterFreqCount;
  uint16_t mluClusterFreq[CNDEV_MLU_CLUSTER_FREQUENCY_COUNT];
  int boardDefaultFreq;
  int boardFreqArange[2];
} cndevFrequencyInfo_t;

/* GDRAM bus width in bits and bandwidth in GB/s: bandWidth is the integer part,
 * bandWidthDecimal the digits after the point (307.2 GB/s: 307 and 2). */
typedef struct {
  int version;
  uint32_t dataWidth;
  uint32_t bandWidth;
  uint32_t bandWidthDecimal;
} cndevDDRInfo_t;

/* Peak work per cycle of one MLU core: the Tensor fields in multiply-adds of
 * the matrix unit, the Vector fields in operations of the vector unit (a
 * multiply-add counts two). 0: the device does not compute that type. */
typedef struct {
  uint32_t version;
  uint64_t int4Tensor;
  uint64_t int8Tensor;
  uint64_t int16Tensor;
  uint64_t fp16Tensor;
  uint64_t bf16Tensor;
  uint64_t fp32Tensor;
  uint64_t fp16Vector;
  uint64_t bf16Vector;
  uint64_t fp32Vector;
  uint64_t int8Vector;
  uint64_t int16Vector;
} cndevDeviceMaxPerformance_t;

/* `reserved` must be 0. */
cndevRet_t cndevInit(int reserved);
cndevRet_t cndevRelease(void);
const char *cndevGetErrorString(cndevRet_t errorId);
cndevRet_t cndevGetDeviceHandleByIndex(int index, cndevDevice_t *handle);
/* *infoCount: in, the slots in procInfo; out, the processes using the device. */
cndevRet_t cndevGetProcessInfo(unsigned *infoCount, cndevProcessInfo_t *procInfo,
                               cndevDevice_t device);
cndevRet_t cndevGetFrequencyInfo(cndevFrequencyInfo_t *freqInfo, cndevDevice_t device);
cndevRet_t cndevGetDDRInfo(cndevDDRInfo_t *ddrInfo, cndevDevice_t device);
/* maxperformance->version: CNDEV_VERSION_1 to CNDEV_VERSION_5. */
cndevRet_t cndevGetDeviceMaxPerformance(cndevDeviceMaxPerformance_t *maxperformance,
                                        cndevDevice_t device);

#ifdef __cplusplus
}
#endif

/* Prints the code, its message and where, and exits, as CNDev's macro does. */
#ifndef cndevCheckErrors
#define cndevCheckErrors(call)                                                          \
  do {                                                                                  \
    cndevRet_t cndev_check_ret_ = (call);                                               \
    if (cndev_check_ret_ != CNDEV_SUCCESS) {                                            \
      fprintf(stderr, "cndevCheckErrors(%d): %s, from file <%s>, line %i.\n",           \
              (int)cndev_check_ret_, cndevGetErrorString(cndev_check_ret_),             \
              basename((char *)__FILE__), __LINE__);                                    \
      exit(1);                                                                          \
    }                                                                                   \
  } while (0)
#endif

#endif /* MLUSIM_CNDEV_H_ */
