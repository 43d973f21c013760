/* mlu_op.h of mlusim's own operators (libmlusim_ops, CMake target mlusim::ops):
 * handle, tensor descriptors and operator entry points with Cambricon's mlu-ops
 * names and signatures, run on the simulated device. It lives apart from
 * Cambricon's mlu_op.h (whose handle layouts differ): a program links
 * mlusim::ops, whose include directory makes #include "mlu_op.h" find this file,
 * or Cambricon's libmluops with its own header, never both. */
#ifndef MLUSIM_MLU_OP_H_
#define MLUSIM_MLU_OP_H_

#include <stddef.h>
#include <stdint.h>

#include "cnrt.h"

#ifndef MLUOP_WIN_API
#define MLUOP_WIN_API
#endif
#define mluOp_WIN_API MLUOP_WIN_API

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  MLUOP_STATUS_SUCCESS = 0,
  MLUOP_STATUS_NOT_INITIALIZED = 1,
  MLUOP_STATUS_ALLOC_FAILED = 2,
  MLUOP_STATUS_BAD_PARAM = 3,
  MLUOP_STATUS_INTERNAL_ERROR = 4,
  MLUOP_STATUS_ARCH_MISMATCH = 5,
  MLUOP_STATUS_EXECUTION_FAILED = 6,
  MLUOP_STATUS_NOT_SUPPORTED = 7,
  MLUOP_STATUS_NUMERICAL_OVERFLOW = 8
} mluOpStatus_t;

typedef enum {
  MLUOP_LAYOUT_NCHW = 0,
  MLUOP_LAYOUT_NHWC = 1,
  MLUOP_LAYOUT_HWCN = 2,
  MLUOP_LAYOUT_NDHWC = 3,
  MLUOP_LAYOUT_ARRAY = 4
} mluOpTensorLayout_t;

typedef enum {
  MLUOP_DTYPE_INVALID = 0,
  MLUOP_DTYPE_HALF = 1,
  MLUOP_DTYPE_FLOAT = 2,
  MLUOP_DTYPE_INT8 = 3,
  MLUOP_DTYPE_INT16 = 4,
  MLUOP_DTYPE_INT31 = 5,
  MLUOP_DTYPE_INT32 = 6,
  MLUOP_DTYPE_UINT8 = 7,
  MLUOP_DTYPE_BOOL = 8,
  MLUOP_DTYPE_INT64 = 9
} mluOpDataType_t;

#define MLUOP_DIM_MAX 8

/* Handles and descriptors are known to the library: destroying one twice, or
 * passing one that was never created to a Set/Get/Destroy call, is BAD_PARAM
 * with a log line, never a crash. */
typedef struct mluOpContext *mluOpHandle_t;
typedef struct mluOpTensorStruct *mluOpTensorDescriptor_t;

const char *mluOpGetErrorString(mluOpStatus_t status);

mluOpStatus_t MLUOP_WIN_API mluOpCreate(mluOpHandle_t *handle);
mluOpStatus_t MLUOP_WIN_API mluOpDestroy(mluOpHandle_t handle);
mluOpStatus_t MLUOP_WIN_API mluOpSetQueue(mluOpHandle_t handle, cnrtQueue_t queue);
mluOpStatus_t MLUOP_WIN_API mluOpGetQueue(mluOpHandle_t handle, cnrtQueue_t *queue);

mluOpStatus_t MLUOP_WIN_API mluOpCreateTensorDescriptor(mluOpTensorDescriptor_t *desc);
mluOpStatus_t MLUOP_WIN_API mluOpSetTensorDescriptor(mluOpTensorDescriptor_t desc,
                                                     mluOpTensorLayout_t layout,
                                                     mluOpDataType_t dtype, int dimNb,
                                                     const int dimSize[]);
size_t MLUOP_WIN_API mluOpGetTensorElementNum(const mluOpTensorDescriptor_t desc);
mluOpStatus_t MLUOP_WIN_API mluOpGetSizeOfDataType(mluOpDataType_t dtype, size_t *size);
mluOpStatus_t MLUOP_WIN_API mluOpDestroyTensorDescriptor(mluOpTensorDescriptor_t desc);

/* psamask (PSANet). x [N,H,W,h_mask*w_mask] -> y [N,H,W,H*W], NHWC, float.
 * psa_type 0 = COLLECT, 1 = DISTRIBUTE; positions no mask window reaches are 0.
 * Returns SUCCESS; BAD_PARAM for a null handle/descriptor/pointer, an unknown
 * device pointer, x and y overlapping, psa_type not 0/1, a non-positive mask,
 * or any shape, layout or dtype mismatch (one log line names it); SUCCESS with
 * nothing launched for zero elements; NOT_SUPPORTED when one point no longer
 * fits NRAM or a tensor has 2^31 elements or more; EXECUTION_FAILED when the kernel faults. */
mluOpStatus_t MLUOP_WIN_API mluOpPsamaskForward(mluOpHandle_t handle, const int psa_type,
                                                const mluOpTensorDescriptor_t x_desc,
                                                const void *x, const int h_mask,
                                                const int w_mask,
                                                const mluOpTensorDescriptor_t y_desc, void *y);
/* Gradient of mluOpPsamaskForward: dy [N,H,W,H*W] -> dx [N,H,W,h_mask*w_mask]. */
mluOpStatus_t MLUOP_WIN_API mluOpPsamaskBackward(mluOpHandle_t handle, const int psa_type,
                                                 const mluOpTensorDescriptor_t dy_desc,
                                                 const void *dy, const int h_mask,
                                                 const int w_mask,
                                                 const mluOpTensorDescriptor_t dx_desc,
                                                 void *dx);

/* Gradient of mmcv's border_align. grad_output [N,K,4,C] NHWC, boxes [N,K,4]
 * (x0,y0,x1,y1), argmax_idx [N,K,4,C] int32 NHWC -> grad_input [N,H,W,4C] NHWC
 * (zeroed on the device, then accumulated with atomic adds). half/float.
 * argmax values outside [0, pool_size] and points off the map contribute nothing.
 * Returns SUCCESS; BAD_PARAM for null or unknown pointers, grad_input
 * overlapping an input, any shape, layout or dtype mismatch, pool_size <= 0, or
 * zero elements; NOT_SUPPORTED for tensors of 2^31 elements or more;
 * EXECUTION_FAILED when a kernel faults. */
mluOpStatus_t MLUOP_WIN_API mluOpBorderAlignBackward(
    mluOpHandle_t handle, const mluOpTensorDescriptor_t grad_output_desc,
    const void *grad_output, const mluOpTensorDescriptor_t boxes_desc, const void *boxes,
    const mluOpTensorDescriptor_t argmax_idx_desc, const void *argmax_idx,
    const int32_t pool_size, const mluOpTensorDescriptor_t grad_input_desc,
    void *grad_input);

/* mmcv's DeformRoIPool forward. input [B,H,W,C] NHWC, rois [R,5] (batch, x1, y1,
 * x2, y2), offset [R,2,ph,pw] or NULL (with its descriptor) -> output [R,ph,pw,C].
 * half/float. sampling_ratio 0 is adaptive; a roi whose batch index is outside [0,
 * B) yields zeros. Returns SUCCESS (also for H or W zero: the output is zeros);
 * BAD_PARAM for null or unknown pointers, output overlapping an input, offset and
 * its descriptor not both given, any shape, layout or dtype mismatch, pooled sizes
 * <= 0, or B, R or C zero; NOT_SUPPORTED for tensors of 2^31 elements or more;
 * EXECUTION_FAILED when the kernel faults. */
mluOpStatus_t MLUOP_WIN_API mluOpDeformRoiPoolForward(
    const mluOpHandle_t handle, const mluOpTensorDescriptor_t input_desc, const void *input,
    const mluOpTensorDescriptor_t rois_desc, const void *rois,
    const mluOpTensorDescriptor_t offset_desc, const void *offset, const int pooled_height,
    const int pooled_width, const float spatial_scale, const int sampling_ratio,
    const float gamma, const mluOpTensorDescriptor_t output_desc, void *output);

/* Gradient of PointNet++'s three_interpolate. grad_output [B,C,N], indices [B,N,3]
 * int32, weights [B,N,3] -> grad_features [B,C,M], ARRAY layout, half/float.
 * Indices outside [0, M) contribute nothing. Returns SUCCESS (also for M zero,
 * writing nothing); BAD_PARAM for null or unknown pointers, grad_features
 * overlapping an input, any shape, layout or dtype mismatch, or B, C or N zero;
 * NOT_SUPPORTED for tensors of 2^31 elements or more; EXECUTION_FAILED when the
 * kernel faults. */
mluOpStatus_t MLUOP_WIN_API mluOpThreeInterpolateBackward(
    mluOpHandle_t handle, const mluOpTensorDescriptor_t grad_output_desc,
    const void *grad_output, const mluOpTensorDescriptor_t indices_desc, const void *indices,
    const mluOpTensorDescriptor_t weights_desc, const void *weights,
    const mluOpTensorDescriptor_t grad_features_desc, void *grad_features);

/* Workspace bytes mluOpMaskedIm2colForward needs for these shapes:
 * (C*H*W + mask_cnt*kernel_h*kernel_w*C) * sizeof(dtype); 0 when mask_cnt is 0.
 * Same checks and status codes as mluOpMaskedIm2colForward's shapes. */
mluOpStatus_t MLUOP_WIN_API mluOpGetMaskedIm2colForwardWorkspaceSize(
    mluOpHandle_t handle, const mluOpTensorDescriptor_t feature_desc,
    const mluOpTensorDescriptor_t mask_h_idx_desc,
    const mluOpTensorDescriptor_t mask_w_idx_desc, const int kernel_h, const int kernel_w,
    const mluOpTensorDescriptor_t data_col_desc, size_t *workspace_size);

/* mmcv's masked_im2col. feature [1,C,H,W] NCHW, mask_h_idx/mask_w_idx [mask_cnt]
 * int32 -> data_col [C*kernel_h*kernel_w, mask_cnt] ARRAY; zero outside the feature
 * (any index or pad is safe). Four device steps on the handle's queue: transpose,
 * fill, per-mask strided copy, permute. Returns SUCCESS (with nothing written when
 * mask_cnt is 0); BAD_PARAM for null or unknown pointers, data_col, feature and
 * workspace overlapping, a workspace NULL or smaller than the query, any shape,
 * layout or dtype mismatch, kernel sizes <= 0, or zero feature elements;
 * NOT_SUPPORTED for tensors of 2^31 elements or bytes or more; EXECUTION_FAILED
 * when a kernel faults. */
mluOpStatus_t MLUOP_WIN_API mluOpMaskedIm2colForward(
    mluOpHandle_t handle, const mluOpTensorDescriptor_t feature_desc, const void *feature,
    const mluOpTensorDescriptor_t mask_h_idx_desc, const void *mask_h_idx,
    const mluOpTensorDescriptor_t mask_w_idx_desc, const void *mask_w_idx,
    const int kernel_h, const int kernel_w, const int pad_h, const int pad_w, void *workspace,
    const size_t workspace_size, const mluOpTensorDescriptor_t data_col_desc,
    void *data_col);

#ifdef __cplusplus
}
#endif

#endif /* MLUSIM_MLU_OP_H_ */
