// The fake mlu-ops API: a handle and two operators.
#pragma once
#include <stddef.h>

#include "cnrt.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { MLUOP_STATUS_SUCCESS = 0, MLUOP_STATUS_BAD_PARAM = 3, MLUOP_STATUS_EXECUTION_FAILED = 6 } mluOpStatus_t;
typedef struct mluOpContext *mluOpHandle_t;

mluOpStatus_t mluOpCreate(mluOpHandle_t *handle);
mluOpStatus_t mluOpDestroy(mluOpHandle_t handle);
cnrtQueue_t mluOpGetQueue(mluOpHandle_t handle);

// y[i] = alpha * x[i], i < n (device pointers).
mluOpStatus_t mluOpScaleForward(mluOpHandle_t handle, int n, float alpha, const float *x, float *y);
mluOpStatus_t mluOpBrokenForward(mluOpHandle_t handle, int n, float *y);

#ifdef __cplusplus
}
#endif
