/* cnrt.h: the subset of Cambricon's CNRT host runtime that mlusim simulates.
 * Names and signatures follow CNRT so that existing host code compiles unchanged.
 * Device memory is host memory underneath, but every device pointer is known to
 * the runtime; anything else is rejected with an error code, never dereferenced. */
#ifndef MLUSIM_CNRT_H_
#define MLUSIM_CNRT_H_

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  cnrtSuccess = 0,
  cnrtErrorArgsInvalid = 1,     /* null output pointer, bad size, bad enum value */
  cnrtErrorNoMem = 2,           /* allocation failed or would exceed the device's GDRAM */
  cnrtErrorInvalidDevicePtr = 3, /* pointer not from cnrtMalloc, or outside its allocation */
  cnrtErrorDoubleFree = 4,      /* freeing memory that was already freed */
  cnrtErrorInvalidDirection = 5, /* memcpy direction disagrees with where pointers live */
  cnrtErrorNoDevice = 6,        /* cnrtSetDevice with an ordinal that does not exist */
  cnrtErrorInvalidQueue = 7,
  cnrtErrorInvalidNotifier = 8, /* notifier not placed, or placed on another queue */
  cnrtErrorInvalidKernelDim = 9, /* launch dimension or function type the device rejects */
  cnrtErrorKernelFault = 10,    /* the simulated kernel broke a device rule (see mlusimGetLastError) */
  cnrtErrorSys = 11
} cnrtRet_t;

typedef enum {
  cnrtMemcpyHostToDev = 0,
  cnrtMemcpyDevToDev = 1,
  cnrtMemcpyDevToHost = 2,
  cnrtMemcpyHostToHost = 3,
  cnrtMemcpyNoDirection = 4
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
#define CNRT_FUNC_TYPE_BLOCK cnrtFuncTypeBlock
#define CNRT_FUNC_TYPE_UNION1 cnrtFuncTypeUnion1
#define CNRT_FUNC_TYPE_UNION2 cnrtFuncTypeUnion2
#define CNRT_FUNC_TYPE_UNION4 cnrtFuncTypeUnion4
#define CNRT_FUNC_TYPE_UNION8 cnrtFuncTypeUnion8
#define CNRT_FUNC_TYPE_UNION16 cnrtFuncTypeUnion16

typedef struct cnrtQueue *cnrtQueue_t;
typedef struct cnrtNotifier *cnrtNotifier_t;

const char *cnrtGetErrorStr(cnrtRet_t ret);

cnrtRet_t cnrtGetDeviceCount(unsigned int *count);
cnrtRet_t cnrtGetDevice(int *ordinal);
cnrtRet_t cnrtSetDevice(int ordinal);

cnrtRet_t cnrtMalloc(void **ptr, size_t bytes);
cnrtRet_t cnrtFree(void *ptr);
cnrtRet_t cnrtMemset(void *ptr, int value, size_t bytes);
cnrtRet_t cnrtMemcpy(void *dst, void *src, size_t bytes, cnrtMemTransDir_t dir);

cnrtRet_t cnrtQueueCreate(cnrtQueue_t *queue);
cnrtRet_t cnrtQueueDestroy(cnrtQueue_t queue);
cnrtRet_t cnrtQueueSync(cnrtQueue_t queue);

cnrtRet_t cnrtNotifierCreate(cnrtNotifier_t *notifier);
cnrtRet_t cnrtNotifierDestroy(cnrtNotifier_t notifier);
cnrtRet_t cnrtPlaceNotifier(cnrtNotifier_t notifier, cnrtQueue_t queue);
/* Simulated device time between two notifiers of one queue, in microseconds. */
cnrtRet_t cnrtNotifierDuration(cnrtNotifier_t start, cnrtNotifier_t end, float *us);

#ifdef __cplusplus
}
#endif

#define CNRT_CHECK(call)                                                       \
  do {                                                                         \
    cnrtRet_t cnrt_check_ret_ = (call);                                        \
    if (cnrt_check_ret_ != cnrtSuccess) {                                      \
      fprintf(stderr, "CNRT error %d (%s) at %s:%d\n", (int)cnrt_check_ret_,   \
              cnrtGetErrorStr(cnrt_check_ret_), __FILE__, __LINE__);           \
      exit(EXIT_FAILURE);                                                      \
    }                                                                          \
  } while (0)

#endif /* MLUSIM_CNRT_H_ */
