/*
 * cnnl.h: mlusim's stand-in for Cambricon CNNL (libcnnl.so), the closed
 * operator library that Cambricon's mlu-ops calls. Names, signatures, enum
 * values and status codes follow CNNL as mlu-ops v1.5.2 and v1.11.1 use it,
 * so mlu-ops' core/ and kernels build against this header unchanged and link
 * -lcnnl.
 *
 * Every operator here runs as a BANG C kernel on the simulated device
 * (cnnl/, docs/cnnl.md). The header has three parts:
 *   1. types, the handle and tensor descriptors;
 *   2. the operators mlusim implements: cnnlFill_v3, cnnlCopy_v2,
 *      cnnlTranspose_v2, the SyncBatchNorm family, RoiAlign, RoiPooling, Nms,
 *      ScatterNd_v2, Unique_v2, TopKTensor_v3, MatMul_v2;
 *   3. the calls mlu-ops names but mlusim does not implement: declared so that
 *      mlu-ops compiles, each returns CNNL_STATUS_NOT_SUPPORTED with a log line
 *      naming itself.
 * Enum values of parts 1 and 2 equal mlu-ops' own where mlu-ops converts its
 * enums to CNNL's by value. The enumerations of part 3 and part 2's MatMul
 * attributes, which mlu-ops passes by name, list only the names mlu-ops uses;
 * their numeric values are mlusim's.
 */
#ifndef CNNL_H_
#define CNNL_H_

#include <stddef.h>
#include <stdint.h>
#ifndef __cplusplus
#include <stdbool.h>
#endif

#include "cnrt.h"

#define CNNL_DIM_MAX 8

#ifndef CNNL_WIN_API
#ifdef _WIN32
#define CNNL_WIN_API __stdcall
#else
#define CNNL_WIN_API
#endif
#endif

/* In C++ every enumeration here has int as its fixed underlying type, so
 * that any int a caller passes (mlu-ops converts its own enums by value) is a
 * valid value the library can check and refuse, not undefined behaviour. The
 * size and calling convention are those of C's int-sized enums. */
#if defined(__cplusplus)
#define CNNL_ENUM_INT : int
#else
#define CNNL_ENUM_INT
#endif

#if defined(__cplusplus)
extern "C" {
#endif

/* ---- 1. Types, handle, tensor descriptors ------------------------------ */

typedef enum CNNL_ENUM_INT {
  CNNL_STATUS_SUCCESS = 0,
  CNNL_STATUS_NOT_INITIALIZED = 1,
  CNNL_STATUS_ALLOC_FAILED = 2,
  CNNL_STATUS_BAD_PARAM = 3,        /* a check on the arguments failed (logged) */
  CNNL_STATUS_INTERNAL_ERROR = 4,
  CNNL_STATUS_ARCH_MISMATCH = 5,
  CNNL_STATUS_EXECUTION_FAILED = 6, /* the kernel faulted on the simulated device */
  CNNL_STATUS_NOT_SUPPORTED = 7,    /* valid, but not simulated (logged) */
  CNNL_STATUS_NUMERICAL_OVERFLOW = 8,
} cnnlStatus_t;

typedef enum CNNL_ENUM_INT {
  CNNL_LAYOUT_NCHW = 0,
  CNNL_LAYOUT_NHWC = 1,
  CNNL_LAYOUT_HWCN = 2,
  CNNL_LAYOUT_NDHWC = 3,
  CNNL_LAYOUT_ARRAY = 4,
  CNNL_LAYOUT_NCDHW = 5,
  CNNL_LAYOUT_TNC = 6,
  CNNL_LAYOUT_NTC = 7,
  CNNL_LAYOUT_NC = 8,
  CNNL_LAYOUT_NLC = 9,
  CNNL_LAYOUT_NCL = 10,
} cnnlTensorLayout_t;

typedef enum CNNL_ENUM_INT {
  CNNL_DTYPE_INVALID = 0,
  CNNL_DTYPE_HALF = 1,
  CNNL_DTYPE_FLOAT = 2,
  CNNL_DTYPE_INT8 = 3,
  CNNL_DTYPE_INT16 = 4,
  CNNL_DTYPE_INT31 = 5,
  CNNL_DTYPE_INT32 = 6,
  CNNL_DTYPE_UINT8 = 7,
  CNNL_DTYPE_BOOL = 8,
  CNNL_DTYPE_INT64 = 9,
  CNNL_DTYPE_UINT32 = 11,
  CNNL_DTYPE_UINT64 = 12,
  CNNL_DTYPE_UINT16 = 13,
  CNNL_DTYPE_DOUBLE = 14,
  CNNL_DTYPE_COMPLEX_HALF = 15,
  CNNL_DTYPE_COMPLEX_FLOAT = 16,
  CNNL_DTYPE_BFLOAT16 = 17,
} cnnlDataType_t;

/* Where a scalar argument (such as cnnlFill_v3's value) lives. */
typedef enum CNNL_ENUM_INT {
  CNNL_POINTER_MODE_HOST = 0,
  CNNL_POINTER_MODE_DEVICE = 1,
} cnnlPointerMode_t;

typedef enum CNNL_ENUM_INT {
  CNNL_NOT_PROPAGATE_NAN = 0,
  CNNL_PROPAGATE_NAN = 1,
} cnnlNanPropagation_t;

typedef enum CNNL_ENUM_INT {
  CNNL_POOLING_MAX = 0,
  CNNL_POOLING_AVERAGE_COUNT_INCLUDE_PADDING = 1,
  CNNL_POOLING_AVERAGE_COUNT_EXCLUDE_PADDING = 2,
  CNNL_POOLING_FIXED = 3,
} cnnlPoolingMode_t;

struct cnnlContext;
/* A context: the queue the operators launch on (NULL: the calling thread's default queue). */
typedef struct cnnlContext *cnnlHandle_t;

struct cnnlTensorStruct;
/* Layout, dtype, dims and strides (in elements) of one tensor. */
typedef struct cnnlTensorStruct *cnnlTensorDescriptor_t;

cnnlStatus_t CNNL_WIN_API cnnlCreate(cnnlHandle_t *handle);
cnnlStatus_t CNNL_WIN_API cnnlDestroy(cnnlHandle_t handle);
/* queue may be NULL (the default queue of the thread that launches). */
cnnlStatus_t CNNL_WIN_API cnnlSetQueue(cnnlHandle_t handle, cnrtQueue_t queue);
cnnlStatus_t CNNL_WIN_API cnnlGetQueue(cnnlHandle_t handle, cnrtQueue_t *queue);
/* The enumerator's name; "CNNL_STATUS_BAD_PARAM" for a value that is none. */
const char *cnnlGetErrorString(cnnlStatus_t status);

cnnlStatus_t CNNL_WIN_API cnnlCreateTensorDescriptor(cnnlTensorDescriptor_t *desc);
cnnlStatus_t CNNL_WIN_API cnnlDestroyTensorDescriptor(cnnlTensorDescriptor_t desc);
/* Dense tensors: strides follow from the dims. dimNb 0 is a scalar (one element). */
cnnlStatus_t CNNL_WIN_API cnnlSetTensorDescriptor(cnnlTensorDescriptor_t desc,
                                                  cnnlTensorLayout_t layout,
                                                  cnnlDataType_t dtype, int dimNb,
                                                  const int dimSize[]);
cnnlStatus_t CNNL_WIN_API cnnlSetTensorDescriptor_v2(cnnlTensorDescriptor_t desc,
                                                     cnnlTensorLayout_t layout,
                                                     cnnlDataType_t dtype, int dimNb,
                                                     const int64_t dimSize[]);
/* Strided tensors: dimStride[i] elements between neighbours along dim i. */
cnnlStatus_t CNNL_WIN_API cnnlSetTensorDescriptorEx(cnnlTensorDescriptor_t desc,
                                                    cnnlTensorLayout_t layout,
                                                    cnnlDataType_t dtype, int dimNb,
                                                    const int dimSize[], const int dimStride[]);
cnnlStatus_t CNNL_WIN_API cnnlSetTensorDescriptorEx_v2(cnnlTensorDescriptor_t desc,
                                                       cnnlTensorLayout_t layout,
                                                       cnnlDataType_t dtype, int dimNb,
                                                       const int64_t dimSize[],
                                                       const int64_t dimStride[]);
/* Recorded for completeness; the operators here compute in their own precision. */
cnnlStatus_t CNNL_WIN_API cnnlSetTensorDescriptorOnchipDataType(cnnlTensorDescriptor_t desc,
                                                                cnnlDataType_t onchip_dtype);
cnnlStatus_t CNNL_WIN_API cnnlSetTensorDescriptorPositionScaleAndOffset(
    cnnlTensorDescriptor_t desc, int position, float scale, int offset);

/* ---- 2. Operators simulated by mlusim ---------------------------------- */

/* output[i] = *value for every element. HOST mode: value points to one element
 * of output's dtype in host memory; DEVICE mode: in device memory. Any dtype. */
cnnlStatus_t CNNL_WIN_API cnnlFill_v3(cnnlHandle_t handle, const cnnlPointerMode_t pointer_mode,
                                      const void *value,
                                      const cnnlTensorDescriptor_t output_desc, void *output);

/* output = input, element by element; the two descriptors have equal dims and
 * dtype, any strides. No workspace is needed (workspace may be NULL). */
cnnlStatus_t CNNL_WIN_API cnnlCopy_v2(cnnlHandle_t handle, const cnnlTensorDescriptor_t input_desc,
                                      const void *input, const cnnlTensorDescriptor_t output_desc,
                                      void *output, void *workspace, size_t workspace_size);

struct cnnlTransposeStruct;
typedef struct cnnlTransposeStruct *cnnlTransposeDescriptor_t;
cnnlStatus_t CNNL_WIN_API cnnlCreateTransposeDescriptor(cnnlTransposeDescriptor_t *desc);
cnnlStatus_t CNNL_WIN_API cnnlDestroyTransposeDescriptor(cnnlTransposeDescriptor_t desc);
/* permute[i]: the input dim that output dim i takes (a permutation of 0..dims-1). */
cnnlStatus_t CNNL_WIN_API cnnlSetTransposeDescriptor(cnnlTransposeDescriptor_t desc,
                                                     const int dims, const int permute[]);
/* Always 0: the simulated transpose needs no workspace. */
cnnlStatus_t CNNL_WIN_API cnnlGetTransposeWorkspaceSize(cnnlHandle_t handle,
                                                        const cnnlTensorDescriptor_t x_desc,
                                                        const cnnlTransposeDescriptor_t desc,
                                                        size_t *size);
/* y = x with its dims permuted; y has dims x.dims[permute[i]]. */
cnnlStatus_t CNNL_WIN_API cnnlTranspose_v2(cnnlHandle_t handle,
                                           const cnnlTransposeDescriptor_t desc,
                                           const cnnlTensorDescriptor_t x_desc, const void *x,
                                           const cnnlTensorDescriptor_t y_desc, void *y,
                                           void *workspace, size_t workspace_size);

/* SyncBatchNorm (PyTorch's batch_norm_stats / gather_stats_with_counts /
 * batch_norm_elemt / batch_norm_backward_reduce / batch_norm_backward_elemt).
 * x, y, dz, diff_y, diff_x: channel-last (NHWC, NDHWC, NLC, NC), float or half;
 * per-channel tensors: 1-D of length C, float. Workspaces are never needed
 * (the workspace queries answer 0; a given workspace is ignored). */
cnnlStatus_t CNNL_WIN_API cnnlGetSyncBatchNormStatsWorkspaceSize(cnnlHandle_t handle,
                                                                 const cnnlTensorDescriptor_t x_desc,
                                                                 size_t *workspace_size);
/* mean[c] = E[x], invstd[c] = 1 / sqrt(E[x^2] - E[x]^2 + eps), over all but C. */
cnnlStatus_t CNNL_WIN_API cnnlSyncBatchNormStats(cnnlHandle_t handle,
                                                 const cnnlTensorDescriptor_t x_desc,
                                                 const void *x, const float eps,
                                                 const cnnlTensorDescriptor_t mean_desc, void *mean,
                                                 const cnnlTensorDescriptor_t invstd_desc,
                                                 void *invstd);
cnnlStatus_t CNNL_WIN_API cnnlSyncBatchNormStats_v2(
    cnnlHandle_t handle, const cnnlTensorDescriptor_t x_desc, const void *x, void *workspace,
    size_t workspace_size, const float eps, const cnnlTensorDescriptor_t mean_desc, void *mean,
    const cnnlTensorDescriptor_t invstd_desc, void *invstd);
/* mean_all, invstd_all: [devices, C]; count_all: [devices] (float or half).
 * Global mean and invstd over all devices; moving_mean / moving_var (both NULL
 * or both given) are updated in place with momentum, moving_var with the
 * unbiased variance. */
cnnlStatus_t CNNL_WIN_API cnnlSyncBatchNormGatherStatsWithCounts(
    cnnlHandle_t handle, const cnnlTensorDescriptor_t mean_all_desc, const void *mean_all,
    const cnnlTensorDescriptor_t invstd_all_desc, const void *invstd_all,
    const cnnlTensorDescriptor_t moving_mean_desc, void *moving_mean,
    const cnnlTensorDescriptor_t moving_var_desc, void *moving_var, float momentum, float eps,
    const cnnlTensorDescriptor_t count_all_desc, const void *count_all,
    const cnnlTensorDescriptor_t mean_desc, void *mean, const cnnlTensorDescriptor_t invstd_desc,
    void *invstd);
/* y = (x - mean) * invstd * filter + bias (filter and bias both NULL: no affine). */
cnnlStatus_t CNNL_WIN_API cnnlSyncBatchNormElemt(
    cnnlHandle_t handle, const cnnlTensorDescriptor_t x_desc, const void *x,
    const cnnlTensorDescriptor_t mean_desc, const void *mean,
    const cnnlTensorDescriptor_t invstd_desc, const void *invstd,
    const cnnlTensorDescriptor_t filter_desc, const void *filter,
    const cnnlTensorDescriptor_t bias_desc, const void *bias, const cnnlTensorDescriptor_t y_desc,
    void *y);
cnnlStatus_t CNNL_WIN_API cnnlGetSyncBatchnormBackwardReduceWorkspaceSize(
    cnnlHandle_t handle, const cnnlTensorDescriptor_t desc_x, size_t *workspace_size);
/* sum_dy = sum(dz), sum_dy_xmu = sum(dz * (x - mean)) (needs_input_grad0),
 * dfilter = sum_dy_xmu * invstd (needs_input_grad1), dbias = sum(dz)
 * (needs_input_grad2); an output not asked for may be NULL. */
cnnlStatus_t CNNL_WIN_API cnnlSyncBatchnormBackwardReduce(
    cnnlHandle_t handle, const cnnlTensorDescriptor_t desc_dz, const void *dz,
    const cnnlTensorDescriptor_t desc_x, const void *x, const cnnlTensorDescriptor_t desc_mean,
    const void *mean, const cnnlTensorDescriptor_t desc_invstd, const void *invstd,
    const cnnlTensorDescriptor_t desc_dfilter, void *dfilter,
    const cnnlTensorDescriptor_t desc_dbias, void *dbias,
    const cnnlTensorDescriptor_t desc_sum_dy, void *sum_dy,
    const cnnlTensorDescriptor_t desc_sum_dy_xmu, void *sum_dy_xmu, const bool needs_input_grad0,
    const bool needs_input_grad1, const bool needs_input_grad2);
cnnlStatus_t CNNL_WIN_API cnnlSyncBatchnormBackwardReduce_v2(
    cnnlHandle_t handle, const cnnlTensorDescriptor_t desc_dz, const void *dz,
    const cnnlTensorDescriptor_t desc_x, const void *x, const cnnlTensorDescriptor_t desc_mean,
    const void *mean, const cnnlTensorDescriptor_t desc_invstd, const void *invstd,
    void *workspace, size_t workspace_size, const cnnlTensorDescriptor_t desc_dfilter,
    void *dfilter, const cnnlTensorDescriptor_t desc_dbias, void *dbias,
    const cnnlTensorDescriptor_t desc_sum_dy, void *sum_dy,
    const cnnlTensorDescriptor_t desc_sum_dy_xmu, void *sum_dy_xmu, const bool needs_input_grad0,
    const bool needs_input_grad1, const bool needs_input_grad2);
/* diff_x = (diff_y - mean_dy - (x - mean) * invstd^2 * mean_dy_xmu) * invstd * filter
 * (filter NULL: 1). */
cnnlStatus_t CNNL_WIN_API cnnlSyncBatchNormBackwardElemt(
    cnnlHandle_t handle, const cnnlTensorDescriptor_t diff_y_desc, const void *diff_y,
    const cnnlTensorDescriptor_t x_desc, const void *x, const cnnlTensorDescriptor_t mean_desc,
    const void *mean, const cnnlTensorDescriptor_t invstd_desc, const void *invstd,
    const cnnlTensorDescriptor_t filter_desc, const void *filter,
    const cnnlTensorDescriptor_t mean_dy_desc, const void *mean_dy,
    const cnnlTensorDescriptor_t mean_dy_xmu_desc, const void *mean_dy_xmu,
    const cnnlTensorDescriptor_t diff_x_desc, void *diff_x);
/* As cnnlSyncBatchNormBackwardElemt with mean_dy = sum_dy / N and
 * mean_dy_xmu = sum_dy_xmu / N, N the sum of count (int32, one entry per device). */
cnnlStatus_t CNNL_WIN_API cnnlSyncBatchNormBackwardElemtV2(
    cnnlHandle_t handle, const cnnlTensorDescriptor_t diff_y_desc, const void *diff_y,
    const cnnlTensorDescriptor_t x_desc, const void *x, const cnnlTensorDescriptor_t mean_desc,
    const void *mean, const cnnlTensorDescriptor_t invstd_desc, const void *invstd,
    const cnnlTensorDescriptor_t filter_desc, const void *filter,
    const cnnlTensorDescriptor_t sum_dy_desc, const void *sum_dy,
    const cnnlTensorDescriptor_t sum_dy_xmu_desc, const void *sum_dy_xmu,
    const cnnlTensorDescriptor_t count_desc, const void *count,
    const cnnlTensorDescriptor_t diff_x_desc, void *diff_x);

/* RoiAlign (mmcv's roi_align) on NHWC feature maps; boxes: [rois, 5] rows of
 * (batch index, x1, y1, x2, y2). pool_mode 1: average of the bin's samples;
 * pool_mode 0: maximum, with the sample's x and y in argmax_x / argmax_y. */
struct cnnlRoiAlignStruct;
typedef struct cnnlRoiAlignStruct *cnnlRoiAlignDescriptor_t;
cnnlStatus_t CNNL_WIN_API cnnlCreateRoiAlignDescriptor(cnnlRoiAlignDescriptor_t *desc);
cnnlStatus_t CNNL_WIN_API cnnlDestroyRoiAlignDescriptor(cnnlRoiAlignDescriptor_t desc);
cnnlStatus_t CNNL_WIN_API cnnlSetRoiAlignDescriptor_v2(cnnlRoiAlignDescriptor_t desc,
                                                       const int pooled_height,
                                                       const int pooled_width,
                                                       const int sampling_ratio,
                                                       const float spatial_scale,
                                                       const int pool_mode, const bool aligned);
/* output: [rois, pooled_height, pooled_width, C]; argmax descriptors may be
 * NULL or never set in average mode. */
cnnlStatus_t CNNL_WIN_API cnnlRoiAlign_v2(
    cnnlHandle_t handle, const cnnlRoiAlignDescriptor_t roialign_desc,
    const cnnlTensorDescriptor_t input_desc, const void *input,
    const cnnlTensorDescriptor_t boxes_desc, const void *boxes,
    const cnnlTensorDescriptor_t output_desc, void *output,
    const cnnlTensorDescriptor_t argmax_x_desc, void *argmax_x,
    const cnnlTensorDescriptor_t argmax_y_desc, void *argmax_y);
/* The gradient of the average mode: grads [rois, PH, PW, C] spread back over
 * grads_image [N, H, W, C] (overwritten). */
cnnlStatus_t CNNL_WIN_API cnnlRoiAlignBackward(
    cnnlHandle_t handle, const float spatial_scale, const int sampling_ratio, const bool aligned,
    const cnnlTensorDescriptor_t grads_desc, const void *grads,
    const cnnlTensorDescriptor_t boxes_desc, const void *boxes,
    const cnnlTensorDescriptor_t grads_image_desc, void *grads_image);
/* Either mode; the max mode needs the forward's argmax_x / argmax_y. */
cnnlStatus_t CNNL_WIN_API cnnlRoiAlignBackward_v2(
    cnnlHandle_t handle, const cnnlTensorDescriptor_t grads_desc, const void *grads,
    const cnnlTensorDescriptor_t boxes_desc, const void *boxes,
    const cnnlTensorDescriptor_t argmax_x_desc, const void *argmax_x,
    const cnnlTensorDescriptor_t argmax_y_desc, const void *argmax_y, const float spatial_scale,
    const int sampling_ratio, const bool aligned, const int pool_mode,
    const cnnlTensorDescriptor_t grads_image_desc, void *grads_image);

/* RoiPooling (Caffe / mmcv roi_pool, max mode) on NHWC feature maps; rois as
 * RoiAlign's boxes; argmax: int32, h * W + w of each output's maximum, -1 for
 * an empty bin. */
cnnlStatus_t CNNL_WIN_API cnnlRoiPoolingForward(
    cnnlHandle_t handle, cnnlPoolingMode_t pooling_mode, const cnnlTensorDescriptor_t input_desc,
    const void *input, const cnnlTensorDescriptor_t rois_desc, const void *rois,
    float spatial_scale, const cnnlTensorDescriptor_t output_desc, void *output, int *argmax);
cnnlStatus_t CNNL_WIN_API cnnlRoiPoolingBackward(
    cnnlHandle_t handle, cnnlPoolingMode_t pooling_mode, const cnnlTensorDescriptor_t grads_desc,
    const void *grads, const cnnlTensorDescriptor_t rois_desc, const void *rois,
    const cnnlTensorDescriptor_t argmax_desc, const int *argmax, const float spatial_scale,
    const cnnlTensorDescriptor_t grads_image_desc, void *grads_image);

/* Non-maximum suppression: boxes [N, 4] (input_layout 0) or [4, N] (1) with
 * confidence [N]; or boxes [N, 7] / [7, N] (x, y, z, dx, dy, dz, heading) with
 * no confidence: rotated bird's-eye-view IoU, boxes taken in input order. */
typedef enum CNNL_ENUM_INT {
  CNNL_NMS_BOX_DIAGONAL = 0, /* [x1, y1, x2, y2] */
  CNNL_NMS_BOX_CENTER = 1,   /* [x_center, y_center, width, height] */
} cnnlNmsBoxPointMode_t;
typedef enum CNNL_ENUM_INT {
  CNNL_NMS_OUTPUT_TARGET_INDICES = 0,               /* int32 index per kept box */
  CNNL_NMS_OUTPUT_TARGET_CONFIDENCE_AND_POS_1 = 1,  /* [kept, 5]: score, x1, y1, x2, y2 */
  CNNL_NMS_OUTPUT_TARGET_CONFIDENCE_AND_POS_2 = 2,  /* [5, max_output_size] */
  CNNL_NMS_OUTPUT_TARGET_BATCH_AND_CLASS = 3,       /* (batch, class, index) triples */
} cnnlNmsOutputMode_t;
typedef enum CNNL_ENUM_INT {
  CNNL_NMS_HARD_NMS = 0,
  CNNL_NMS_SOFT_NMS_LINEAR = 1,
  CNNL_NMS_SOFT_NMS_GAUSSIAN = 2,
} cnnlNmsMethodMode_t;
typedef enum CNNL_ENUM_INT {
  CNNL_NMS_ALGO_EXCLUDE_BOUNDARY = 0,
  CNNL_NMS_ALGO_INCLUDE_BOUNDARY = 1, /* widths and heights + offset */
} cnnlNmsAlgo_t;
struct cnnlNmsStruct;
typedef struct cnnlNmsStruct *cnnlNmsDescriptor_t;
cnnlStatus_t CNNL_WIN_API cnnlCreateNmsDescriptor(cnnlNmsDescriptor_t *desc);
cnnlStatus_t CNNL_WIN_API cnnlDestroyNmsDescriptor(cnnlNmsDescriptor_t desc);
cnnlStatus_t CNNL_WIN_API cnnlSetNmsDescriptor_v5(
    cnnlNmsDescriptor_t nms_desc, const cnnlNmsBoxPointMode_t box_mode,
    const cnnlNmsOutputMode_t output_mode, const cnnlNmsAlgo_t algo,
    const cnnlNmsMethodMode_t method_mode, const float iou_threshold,
    const float soft_nms_sigma, const int max_output_size, const float confidence_threshold,
    const float offset, const int input_layout, const bool pad_to_max_output_size);
/* One parameter of an Nms descriptor at a time (CNNL 2.x; mlu-ops v1.11.1
 * sets its descriptors this way). The names are those mlu-ops uses; their
 * values are mlusim's (mlu-ops passes them by name). buf points to the
 * value: float for the thresholds and offset, int for the layout and
 * max_output_size, the enum for the modes, bool for the padding; size_in_bytes
 * is its size. A descriptor is usable once any parameter is set; the others
 * keep their defaults (corner boxes, indices, hard NMS excluding the
 * boundary, thresholds, offset and max_output_size 0, layout 0, no padding). */
typedef enum CNNL_ENUM_INT {
  CNNL_NMS_DESC_BOX_MODE = 0,               /* cnnlNmsBoxPointMode_t */
  CNNL_NMS_DESC_OUTPUT_MODE = 1,            /* cnnlNmsOutputMode_t */
  CNNL_NMS_DESC_IOU_THRESHOLD = 2,          /* float */
  CNNL_NMS_DESC_MAX_OUTPUT_SIZE = 3,        /* int, at least 0 */
  CNNL_NMS_DESC_CONFIDENCE_THRESHOLD = 4,   /* float */
  CNNL_NMS_DESC_OFFSET = 5,                 /* float */
  CNNL_NMS_DESC_INPUT_LAYOUT = 6,           /* int: 0 or 1 */
  CNNL_NMS_DESC_PAD_TO_MAX_OUTPUT_SIZE = 7, /* bool */
} cnnlNmsDescAttribute_t;
cnnlStatus_t CNNL_WIN_API cnnlSetNmsDescAttr(cnnlNmsDescriptor_t nms_desc,
                                             cnnlNmsDescAttribute_t attr, const void *buf,
                                             size_t size_in_bytes);
/* Always 0: the simulated Nms keeps its scores on chip. */
cnnlStatus_t CNNL_WIN_API cnnlGetNmsWorkspaceSize_v4(cnnlHandle_t handle,
                                                     const cnnlNmsDescriptor_t nms_desc,
                                                     const cnnlTensorDescriptor_t boxes_desc,
                                                     const cnnlTensorDescriptor_t confidence_desc,
                                                     size_t *size);
cnnlStatus_t CNNL_WIN_API cnnlGetNmsWorkspaceSize_v3(cnnlHandle_t handle,
                                                     const cnnlTensorDescriptor_t boxes_desc,
                                                     const cnnlTensorDescriptor_t confidence_desc,
                                                     size_t *size);
/* output_size: device memory, one int32: the number of boxes kept. */
cnnlStatus_t CNNL_WIN_API cnnlNms_v2(cnnlHandle_t handle, const cnnlNmsDescriptor_t nms_desc,
                                     const cnnlTensorDescriptor_t boxes_desc, const void *boxes,
                                     const cnnlTensorDescriptor_t confidence_desc,
                                     const void *confidence, void *workspace,
                                     size_t workspace_size,
                                     const cnnlTensorDescriptor_t output_desc, void *output,
                                     void *output_size);

/* ScatterNd: TensorFlow's scatter_nd onto the input (or, input NULL, onto the
 * output's own values); a tuple with an index out of range is skipped. The
 * mode and sort names are CNNL's; mlu-ops passes them by name. */
typedef enum CNNL_ENUM_INT { CNNL_SCATTERND_ADD = 0, CNNL_SCATTERND_UPDATE = 1 } cnnlScatterNdMode_t;
cnnlStatus_t CNNL_WIN_API cnnlScatterNd_v2(cnnlHandle_t handle, cnnlScatterNdMode_t mode,
                                           const cnnlTensorDescriptor_t indices_desc,
                                           const void *indices,
                                           const cnnlTensorDescriptor_t updates_desc,
                                           const void *updates,
                                           const cnnlTensorDescriptor_t input_desc,
                                           const void *input,
                                           const cnnlTensorDescriptor_t output_desc, void *output);

/* Unique: the distinct elements (rows, for dim 0 of a 2-D input) in ascending
 * order, with each input element's index among them and their counts. */
typedef enum CNNL_ENUM_INT { CNNL_SORT_ASCEND = 0 } cnnlUniqueSort_t;
typedef struct cnnlUniqueStruct *cnnlUniqueDescriptor_t;
cnnlStatus_t CNNL_WIN_API cnnlCreateUniqueDescriptor(cnnlUniqueDescriptor_t *unique_desc);
cnnlStatus_t CNNL_WIN_API cnnlDestroyUniqueDescriptor(cnnlUniqueDescriptor_t unique_desc);
cnnlStatus_t CNNL_WIN_API cnnlSetUniqueDescriptor(cnnlUniqueDescriptor_t unique_desc,
                                                  cnnlUniqueSort_t mode, int dim,
                                                  bool return_inverse, bool return_counts);
cnnlStatus_t CNNL_WIN_API cnnlGetUniqueWorkspaceSize(cnnlHandle_t handle,
                                                     const cnnlUniqueDescriptor_t unique_desc,
                                                     const cnnlTensorDescriptor_t input_desc,
                                                     size_t *workspace_size);
cnnlStatus_t CNNL_WIN_API cnnlUnique_v2(
    cnnlHandle_t handle, const cnnlUniqueDescriptor_t unique_desc,
    const cnnlTensorDescriptor_t input_desc, const void *input, void *workspace,
    const size_t workspace_size, int *output_num, const cnnlTensorDescriptor_t output_desc,
    void *output, const cnnlTensorDescriptor_t indices_desc, void *inverse_indices,
    const cnnlTensorDescriptor_t counts_desc, void *counts);

/* TopK along `dim`: the k largest values of each slice, largest first (ties:
 * lower index first), and their int32 indices along `dim`. NaN is ordered by
 * its sign: +NaN above +inf, -NaN below -inf. No workspace is needed. */
cnnlStatus_t CNNL_WIN_API cnnlGetTopKTensorWorkspaceSize(
    cnnlHandle_t handle, const cnnlTensorDescriptor_t input_desc, int k, int dim, bool largest,
    const cnnlTensorDescriptor_t output_desc, const cnnlTensorDescriptor_t index_desc,
    size_t *workspace_size);
cnnlStatus_t CNNL_WIN_API cnnlTopKTensor_v3(
    cnnlHandle_t handle, const cnnlTensorDescriptor_t input_desc, const void *input, int k,
    int dim, bool largest, bool sorted, bool lower_index_first, void *workspace,
    size_t workspace_size, const cnnlTensorDescriptor_t output_desc, void *output,
    const cnnlTensorDescriptor_t index_desc, void *index);

/* MatMul: D = alpha op(A) op(B) + beta C, op the transpose when the
 * descriptor's TRANSA / TRANSB is 1; float [m, k] (or [k, m]), [k, n] (or
 * [n, k]) and [m, n] matrices; alpha and beta are host floats; C is not read
 * when beta is 0, and d may be c itself. One algorithm, no workspace. The
 * attribute names are CNNL's (mlu-ops passes them by name), their values
 * mlusim's. TRANSA, TRANSB: int32 0 or 1; ALLOW_TF32: int32, recorded, no
 * effect on float; COMPUTE_TYPE: a cnnlDataType_t, float only. The
 * preference of cnnlGetMatMulAlgoHeuristic is not read (mlu-ops passes NULL). */
typedef enum CNNL_ENUM_INT {
  CNNL_MATMUL_DESC_COMPUTE_TYPE = 0,
  CNNL_MATMUL_DESC_TRANSA = 1,
  CNNL_MATMUL_DESC_TRANSB = 2,
  CNNL_MATMUL_ALLOW_TF32 = 3,
} cnnlMatMulDescAttribute_t;
typedef struct cnnlMatMulStruct *cnnlMatMulDescriptor_t;
typedef struct cnnlMatMulAlgoStruct *cnnlMatMulAlgo_t;
typedef struct cnnlMatMulHeuristicResultStruct *cnnlMatMulHeuristicResult_t;
typedef struct cnnlMatMulPreferStruct *cnnlMatMulPrefer_t;
cnnlStatus_t CNNL_WIN_API cnnlMatMulDescCreate(cnnlMatMulDescriptor_t *matmul_desc);
cnnlStatus_t CNNL_WIN_API cnnlMatMulDescDestroy(cnnlMatMulDescriptor_t matmul_desc);
cnnlStatus_t CNNL_WIN_API cnnlSetMatMulDescAttr(cnnlMatMulDescriptor_t matmul_desc,
                                                cnnlMatMulDescAttribute_t attr, const void *buf,
                                                size_t size_in_bytes);
cnnlStatus_t CNNL_WIN_API cnnlMatMulAlgoCreate(cnnlMatMulAlgo_t *algo);
cnnlStatus_t CNNL_WIN_API cnnlMatMulAlgoDestroy(cnnlMatMulAlgo_t algo);
/* CNNL 2.x's names for the four calls above (mlu-ops v1.11.1 uses these). */
cnnlStatus_t CNNL_WIN_API cnnlCreateMatMulDescriptor(cnnlMatMulDescriptor_t *matmul_desc);
cnnlStatus_t CNNL_WIN_API cnnlDestroyMatMulDescriptor(cnnlMatMulDescriptor_t matmul_desc);
cnnlStatus_t CNNL_WIN_API cnnlCreateMatMulAlgo(cnnlMatMulAlgo_t *algo);
cnnlStatus_t CNNL_WIN_API cnnlDestroyMatMulAlgo(cnnlMatMulAlgo_t algo);
cnnlStatus_t CNNL_WIN_API cnnlCreateMatMulHeuristicResult(cnnlMatMulHeuristicResult_t *result);
cnnlStatus_t CNNL_WIN_API cnnlDestroyMatMulHeuristicResult(cnnlMatMulHeuristicResult_t result);
cnnlStatus_t CNNL_WIN_API cnnlGetMatMulHeuristicResult(cnnlMatMulHeuristicResult_t result,
                                                       cnnlMatMulAlgo_t algo,
                                                       size_t *workspace_size);
cnnlStatus_t CNNL_WIN_API cnnlGetMatMulAlgoHeuristic(
    cnnlHandle_t handle, cnnlMatMulDescriptor_t matmul_desc, cnnlTensorDescriptor_t a_desc,
    cnnlTensorDescriptor_t b_desc, cnnlTensorDescriptor_t c_desc, cnnlTensorDescriptor_t d_desc,
    cnnlMatMulPrefer_t preference, int requested_algo_count,
    cnnlMatMulHeuristicResult_t result_array[], int *return_algo_count);
cnnlStatus_t CNNL_WIN_API cnnlMatMul_v2(
    cnnlHandle_t handle, const cnnlMatMulDescriptor_t matmul_desc,
    const cnnlMatMulAlgo_t algo, const void *alpha, const cnnlTensorDescriptor_t a_desc,
    const void *a, const cnnlTensorDescriptor_t b_desc, const void *b, const void *beta,
    const cnnlTensorDescriptor_t c_desc, void *c, void *workspace, size_t workspace_size,
    const cnnlTensorDescriptor_t d_desc, void *d);

/* ---- 3. Named by mlu-ops, not simulated: CNNL_STATUS_NOT_SUPPORTED ------ */

typedef enum CNNL_ENUM_INT { CNNL_OP_TENSOR_ADD = 0, CNNL_OP_TENSOR_MUL = 1, CNNL_OP_TENSOR_SUB = 2 } cnnlOpTensorDesc_t;
typedef enum CNNL_ENUM_INT { CNNL_REDUCE_ADD = 0 } cnnlReduceOp_t;
typedef enum CNNL_ENUM_INT { CNNL_REDUCE_NO_INDICES = 0 } cnnlReduceIndices_t;
typedef enum CNNL_ENUM_INT { CNNL_32BIT_INDICES = 0, CNNL_16BIT_INDICES = 1 } cnnlIndicesType_t;
typedef enum CNNL_ENUM_INT { CNNL_QUANTIZE_POSITION_SCALE = 0 } cnnlQuantizeMode_t;
typedef enum CNNL_ENUM_INT { CNNL_MATMUL_FASTEST = 0 } cnnlMatMulPreference_t;
typedef enum CNNL_ENUM_INT { CNNL_MATMUL_BYPASS_QUANTIZE = 0 } cnnlMatMulCastMode_t;

typedef struct cnnlOpTensorStruct *cnnlOpTensorDescriptor_t;
typedef struct cnnlReduceStruct *cnnlReduceDescriptor_t;
typedef struct cnnlDCNStruct *cnnlDCNDescriptor_t;

/* Deformable convolution. */
cnnlStatus_t CNNL_WIN_API cnnlCreateDCNDescriptor(cnnlDCNDescriptor_t *dcn_desc);
cnnlStatus_t CNNL_WIN_API cnnlDestroyDCNDescriptor(cnnlDCNDescriptor_t dcn_desc);
cnnlStatus_t CNNL_WIN_API cnnlSetDCNDescriptor(cnnlDCNDescriptor_t dcn_desc, int dimNb,
                                               const int pad[], const int stride[],
                                               const int dilation[], int deformable_group,
                                               int conv_group, int im2col_step,
                                               const cnnlDataType_t compute_type);
cnnlStatus_t CNNL_WIN_API cnnlGetDCNForwardWorkspaceSize(
    cnnlHandle_t handle, const cnnlDCNDescriptor_t dcn_desc,
    const cnnlTensorDescriptor_t input_desc, const cnnlTensorDescriptor_t offset_desc,
    const cnnlTensorDescriptor_t mask_desc, const cnnlTensorDescriptor_t filter_desc,
    const cnnlTensorDescriptor_t bias_desc, const cnnlTensorDescriptor_t output_desc,
    size_t *size);
cnnlStatus_t CNNL_WIN_API cnnlDCNForward(
    cnnlHandle_t handle, const cnnlDCNDescriptor_t dcn_desc,
    const cnnlTensorDescriptor_t input_desc, const void *input,
    const cnnlTensorDescriptor_t offset_desc, const void *offset,
    const cnnlTensorDescriptor_t mask_desc, const void *mask,
    const cnnlTensorDescriptor_t filter_desc, const void *filter,
    const cnnlTensorDescriptor_t bias_desc, const void *bias, void *workspace,
    size_t workspace_size, const cnnlTensorDescriptor_t output_desc, void *output);
/* (sic: CNNL spells this query "Bakcward") */
cnnlStatus_t CNNL_WIN_API cnnlGetDCNBakcwardDataWorkspaceSize(
    cnnlHandle_t handle, const cnnlDCNDescriptor_t dcn_desc,
    const cnnlTensorDescriptor_t input_desc, const cnnlTensorDescriptor_t offset_desc,
    const cnnlTensorDescriptor_t mask_desc, const cnnlTensorDescriptor_t filter_desc,
    const cnnlTensorDescriptor_t grad_output_desc, const cnnlTensorDescriptor_t grad_input_desc,
    const cnnlTensorDescriptor_t grad_offset_desc, const cnnlTensorDescriptor_t grad_mask_desc,
    size_t *size);
cnnlStatus_t CNNL_WIN_API cnnlDCNBackwardData(
    cnnlHandle_t handle, const cnnlDCNDescriptor_t dcn_desc,
    const cnnlTensorDescriptor_t input_desc, const void *input,
    const cnnlTensorDescriptor_t offset_desc, const void *offset,
    const cnnlTensorDescriptor_t mask_desc, const void *mask,
    const cnnlTensorDescriptor_t filter_desc, const void *filter,
    const cnnlTensorDescriptor_t grad_output_desc, const void *grad_output, void *workspace,
    size_t workspace_size, const cnnlTensorDescriptor_t grad_input_desc, void *grad_input,
    const cnnlTensorDescriptor_t grad_offset_desc, void *grad_offset,
    const cnnlTensorDescriptor_t grad_mask_desc, void *grad_mask);
cnnlStatus_t CNNL_WIN_API cnnlGetDCNBackwardWeightWorkspaceSize(
    cnnlHandle_t handle, const cnnlDCNDescriptor_t dcn_desc,
    const cnnlTensorDescriptor_t input_desc, const cnnlTensorDescriptor_t offset_desc,
    const cnnlTensorDescriptor_t mask_desc, const cnnlTensorDescriptor_t grad_output_desc,
    const cnnlTensorDescriptor_t grad_filter_desc, const cnnlTensorDescriptor_t grad_bias_desc,
    size_t *size);
cnnlStatus_t CNNL_WIN_API cnnlDCNBackwardWeight(
    cnnlHandle_t handle, const cnnlDCNDescriptor_t dcn_desc,
    const cnnlTensorDescriptor_t input_desc, const void *input,
    const cnnlTensorDescriptor_t offset_desc, const void *offset,
    const cnnlTensorDescriptor_t mask_desc, const void *mask,
    const cnnlTensorDescriptor_t grad_output_desc, const void *grad_output, void *workspace,
    size_t workspace_size, const cnnlTensorDescriptor_t grad_filter_desc, void *grad_filter,
    const cnnlTensorDescriptor_t grad_bias_desc, void *grad_bias);

/* Batched and quantized matrix multiplication (MatMul itself is in part 2). */
cnnlStatus_t CNNL_WIN_API cnnlGetBatchMatMulExAlgoHeuristic(
    cnnlHandle_t handle, cnnlMatMulDescriptor_t bmm_desc, cnnlTensorDescriptor_t a_desc,
    cnnlTensorDescriptor_t b_desc, cnnlTensorDescriptor_t c_desc, cnnlMatMulPrefer_t preference,
    int requested_algo_count, cnnlMatMulHeuristicResult_t result_array[],
    int *return_algo_count);
cnnlStatus_t CNNL_WIN_API cnnlGetBatchMatMulExHeuristicResult(cnnlMatMulHeuristicResult_t result,
                                                              cnnlMatMulAlgo_t algo,
                                                              size_t *workspace_size);
cnnlStatus_t CNNL_WIN_API cnnlBatchMatMulEx(
    cnnlHandle_t handle, const cnnlMatMulDescriptor_t bmm_desc, const cnnlMatMulAlgo_t algo,
    const void *alpha, const cnnlTensorDescriptor_t a_desc, const void *a,
    const cnnlTensorDescriptor_t b_desc, const void *b, const void *beta,
    const cnnlTensorDescriptor_t c_desc, void *c, void *workspace, size_t workspace_size);
cnnlStatus_t CNNL_WIN_API cnnlGetQuantizeParamWorkspaceSize(cnnlHandle_t handle,
                                                            const cnnlTensorDescriptor_t input_desc,
                                                            size_t *size);
cnnlStatus_t CNNL_WIN_API cnnlQuantizeParam(cnnlHandle_t handle, const cnnlQuantizeMode_t mode,
                                            const cnnlTensorDescriptor_t input_desc,
                                            const void *input, const int bitwidth,
                                            void *workspace, size_t workspace_size,
                                            void *position, void *scale, void *offset);
cnnlStatus_t CNNL_WIN_API cnnlGetQuantizeMatMulAlgorithm(
    cnnlHandle_t handle, const cnnlMatMulDescriptor_t matmul_desc,
    const cnnlTensorDescriptor_t a_desc, const cnnlTensorDescriptor_t b_desc,
    const cnnlTensorDescriptor_t c_desc, const cnnlMatMulPreference_t preference,
    cnnlMatMulAlgo_t *algo);
cnnlStatus_t CNNL_WIN_API cnnlGetQuantizeMatMulWorkspaceSize(
    cnnlHandle_t handle, const cnnlMatMulDescriptor_t matmul_desc,
    const cnnlTensorDescriptor_t a_desc, const cnnlTensorDescriptor_t b_desc,
    const cnnlTensorDescriptor_t c_desc, const cnnlMatMulAlgo_t algo, size_t *size);
cnnlStatus_t CNNL_WIN_API cnnlQuantizeMatMul(
    cnnlHandle_t handle, const cnnlMatMulDescriptor_t matmul_desc, const void *alpha,
    const cnnlTensorDescriptor_t a_desc, const void *a, const void *a_position,
    const void *a_scale, const void *a_offset, const cnnlTensorDescriptor_t b_desc,
    const void *b, const void *b_position, const void *b_scale, const void *b_offset,
    const void *beta, const cnnlTensorDescriptor_t c_desc, void *c, const cnnlMatMulAlgo_t algo,
    void *workspace, size_t workspace_size);

/* Element-wise, data movement, reductions. */
cnnlStatus_t CNNL_WIN_API cnnlCreateOpTensorDescriptor(cnnlOpTensorDescriptor_t *op_tensor_desc);
cnnlStatus_t CNNL_WIN_API cnnlDestroyOpTensorDescriptor(cnnlOpTensorDescriptor_t op_tensor_desc);
cnnlStatus_t CNNL_WIN_API cnnlSetOpTensorDescriptor(cnnlOpTensorDescriptor_t op_tensor_desc,
                                                    cnnlOpTensorDesc_t op_tensor_op,
                                                    cnnlDataType_t op_tensor_comp_type,
                                                    cnnlNanPropagation_t op_tensor_nan_opt);
cnnlStatus_t CNNL_WIN_API cnnlGetOpTensorWorkspaceSize(cnnlHandle_t handle,
                                                       const cnnlTensorDescriptor_t a_desc,
                                                       const cnnlTensorDescriptor_t b_desc,
                                                       const cnnlTensorDescriptor_t c_desc,
                                                       size_t *size);
cnnlStatus_t CNNL_WIN_API cnnlOpTensor(
    cnnlHandle_t handle, const cnnlOpTensorDescriptor_t op_tensor_desc, const void *alpha1,
    const cnnlTensorDescriptor_t a_desc, const void *a, const void *alpha2,
    const cnnlTensorDescriptor_t b_desc, const void *b, void *workspace, size_t workspace_size,
    const void *beta, const cnnlTensorDescriptor_t c_desc, void *c);
cnnlStatus_t CNNL_WIN_API cnnlTransform_v2(cnnlHandle_t handle, const cnnlPointerMode_t pointer_mode,
                                           const void *alpha,
                                           const cnnlTensorDescriptor_t input_desc,
                                           const void *input, const void *beta,
                                           const cnnlTensorDescriptor_t output_desc, void *output);
cnnlStatus_t CNNL_WIN_API cnnlPad(cnnlHandle_t handle, const cnnlTensorDescriptor_t input_desc,
                                  const void *input, const void *paddings,
                                  const void *padding_value,
                                  const cnnlTensorDescriptor_t output_desc, void *output);
cnnlStatus_t CNNL_WIN_API cnnlStridedSlice_v2(cnnlHandle_t handle,
                                              const cnnlTensorDescriptor_t input_desc,
                                              const void *input, const int64_t begin[],
                                              const int64_t end[], const int64_t stride[],
                                              const cnnlTensorDescriptor_t output_desc,
                                              void *output);
cnnlStatus_t CNNL_WIN_API cnnlConcat(cnnlHandle_t handle, const int concat_input_num,
                                     const int axis, const cnnlTensorDescriptor_t inputs_desc[],
                                     const void *const inputs[], void *workspace,
                                     size_t workspace_size,
                                     const cnnlTensorDescriptor_t output_desc, void *output);
cnnlStatus_t CNNL_WIN_API cnnlGetAddNWorkspaceSize(cnnlHandle_t handle,
                                                   const cnnlTensorDescriptor_t input_descs[],
                                                   const uint32_t input_num,
                                                   const cnnlTensorDescriptor_t output_desc,
                                                   size_t *workspace_size);
cnnlStatus_t CNNL_WIN_API cnnlAddN_v2(cnnlHandle_t handle, const cnnlTensorDescriptor_t input_descs[],
                                      const void *const inputs[], const uint32_t input_num,
                                      const cnnlTensorDescriptor_t output_desc, void *output,
                                      void *workspace, size_t workspace_size);
cnnlStatus_t CNNL_WIN_API cnnlGatherNd(cnnlHandle_t handle, const cnnlTensorDescriptor_t params_desc,
                                       const void *params,
                                       const cnnlTensorDescriptor_t indices_desc,
                                       const void *indices,
                                       const cnnlTensorDescriptor_t output_desc, void *output);
/* CNNL 2.x's GatherNd (mlu-ops v1.11.1's sparse convolution): the second
 * argument, which mlu-ops passes as 0, is taken to be the batch dims. */
cnnlStatus_t CNNL_WIN_API cnnlGatherNd_v2(cnnlHandle_t handle, const int batch_dims,
                                          const cnnlTensorDescriptor_t params_desc,
                                          const void *params,
                                          const cnnlTensorDescriptor_t indices_desc,
                                          const void *indices,
                                          const cnnlTensorDescriptor_t output_desc, void *output);
cnnlStatus_t CNNL_WIN_API cnnlCreateReduceDescriptor(cnnlReduceDescriptor_t *reduce_desc);
cnnlStatus_t CNNL_WIN_API cnnlDestroyReduceDescriptor(cnnlReduceDescriptor_t reduce_desc);
cnnlStatus_t CNNL_WIN_API cnnlSetReduceDescriptor(cnnlReduceDescriptor_t reduce_desc, int axis[],
                                                  int axis_num, cnnlReduceOp_t reduce_op,
                                                  cnnlDataType_t tensor_type,
                                                  cnnlNanPropagation_t nan_propagation,
                                                  cnnlReduceIndices_t tensor_indices,
                                                  cnnlIndicesType_t indices_type);
cnnlStatus_t CNNL_WIN_API cnnlGetReduceOpWorkspaceSize(cnnlHandle_t handle,
                                                       const cnnlTensorDescriptor_t input_desc,
                                                       const cnnlTensorDescriptor_t output_desc,
                                                       const cnnlReduceDescriptor_t reduce_op,
                                                       size_t *workspace_size_inbytes);
cnnlStatus_t CNNL_WIN_API cnnlReduce(cnnlHandle_t handle, const cnnlReduceDescriptor_t reduce_desc,
                                     void *workspace, size_t workspace_size, const void *alpha,
                                     const cnnlTensorDescriptor_t input_desc, const void *input,
                                     const size_t indices_size_inbytes, void *indices,
                                     const void *beta, const cnnlTensorDescriptor_t output_desc,
                                     void *output);
/* CNNL 2.x's Reduce: the descriptor adds the norm's p; the queries and the
 * call take an indices descriptor (NULL when no indices are asked for). */
cnnlStatus_t CNNL_WIN_API cnnlSetReduceDescriptor_v2(cnnlReduceDescriptor_t reduce_desc, int axis[],
                                                     int axis_num, cnnlReduceOp_t reduce_op,
                                                     cnnlDataType_t tensor_type,
                                                     cnnlNanPropagation_t nan_propagation,
                                                     cnnlReduceIndices_t tensor_indices,
                                                     cnnlIndicesType_t indices_type, float p);
cnnlStatus_t CNNL_WIN_API cnnlGetReduceOpWorkspaceSize_v2(
    cnnlHandle_t handle, const cnnlTensorDescriptor_t input_desc,
    const cnnlTensorDescriptor_t output_desc, const cnnlTensorDescriptor_t indices_desc,
    const cnnlReduceDescriptor_t reduce_desc, size_t *workspace_size_inbytes);
cnnlStatus_t CNNL_WIN_API cnnlReduce_v2(cnnlHandle_t handle,
                                        const cnnlReduceDescriptor_t reduce_desc,
                                        const cnnlTensorDescriptor_t input_desc, const void *input,
                                        const void *alpha, const void *beta, void *workspace,
                                        size_t workspace_size,
                                        const cnnlTensorDescriptor_t output_desc, void *output,
                                        const cnnlTensorDescriptor_t indices_desc, void *indices);
#if defined(__cplusplus)
}
#endif

#endif /* CNNL_H_ */
