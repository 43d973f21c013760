#include "mlu_op.h"

struct mluOpContext {
  cnrtQueue_t queue;
};

mluOpStatus_t mluOpCreate(mluOpHandle_t *handle) {
  if (handle == nullptr) return MLUOP_STATUS_BAD_PARAM;
  auto *context = new mluOpContext;
  if (cnrtQueueCreate(&context->queue) != cnrtSuccess) {
    delete context;
    return MLUOP_STATUS_EXECUTION_FAILED;
  }
  *handle = context;
  return MLUOP_STATUS_SUCCESS;
}

mluOpStatus_t mluOpDestroy(mluOpHandle_t handle) {
  if (handle == nullptr) return MLUOP_STATUS_BAD_PARAM;
  cnrtQueueDestroy(handle->queue);
  delete handle;
  return MLUOP_STATUS_SUCCESS;
}

cnrtQueue_t mluOpGetQueue(mluOpHandle_t handle) { return handle->queue; }
