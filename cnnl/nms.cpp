// Nms: the descriptor calls (all parameters at once, or one attribute at a
// time), the workspace queries (0) and cnnlNms_v2: checks
// (2-D boxes of 4 coordinates with 1-D confidences, or of 7 for the rotated
// 3-D mode; the output's dtype and room for the chosen output mode; NRAM for
// every box), the plan of nms_kernel.h and the launch. Semantics: mlu-ops'
// nms (greedy by score, hard or soft suppression) and mmdet3d's nms_bev.
#include <algorithm>
#include <cstring>

#include "cnnl/host.h"
#include "cnnl/nms_kernel.h"
#include "runtime/operator_kit.h"

namespace {

using cnnlsim::Tensor;
namespace nms = cnnlsim::nms;

// The output's elements per kept box, by output mode (mode 2 is planar).
int64_t per_box(int output_mode) { return output_mode == 1 ? 5 : output_mode == 3 ? 3 : 1; }

// How many boxes the output holds: max_output_size, bounded by the output's
// elements (mode 2 must hold all five planes of max_output_size).
cnnlStatus_t keep_limit(const char *api, const cnnlNmsStruct &d, const Tensor &output,
                        int64_t &limit) {
  if (d.output_mode == 2) {
    CNNL_CHECK(api, output.elements() >= 5 * int64_t{d.max_output_size},
               "output is {}: output mode 2 needs 5 x max_output_size = {} elements",
               cnnlsim::describe(output), 5 * int64_t{d.max_output_size});
    limit = d.max_output_size;
  } else {
    limit = std::min<int64_t>(d.max_output_size, output.elements() / per_box(d.output_mode));
  }
  return CNNL_STATUS_SUCCESS;
}

// Every field of a descriptor (set by cnnlSetNmsDescriptor_v5 or one
// attribute at a time by cnnlSetNmsDescAttr) within its range.
cnnlStatus_t check_descriptor(const char *api, const cnnlNmsStruct &d) {
  CNNL_CHECK(api, d.box_mode == CNNL_NMS_BOX_DIAGONAL || d.box_mode == CNNL_NMS_BOX_CENTER,
             "box_mode is {}: 0 (diagonal corners) or 1 (center and size)",
             static_cast<int>(d.box_mode));
  CNNL_CHECK(api, d.output_mode >= 0 && d.output_mode <= 3,
             "output_mode is {}: 0 (indices), 1 or 2 (scores and boxes), 3 (batch, class, index)",
             static_cast<int>(d.output_mode));
  CNNL_CHECK(api,
             d.algo == CNNL_NMS_ALGO_EXCLUDE_BOUNDARY || d.algo == CNNL_NMS_ALGO_INCLUDE_BOUNDARY,
             "algo is {}: 0 (exclude boundary) or 1 (include boundary)", static_cast<int>(d.algo));
  CNNL_CHECK(api, d.method_mode >= 0 && d.method_mode <= 2,
             "method_mode is {}: 0 (hard), 1 (soft, linear) or 2 (soft, Gaussian)",
             static_cast<int>(d.method_mode));
  CNNL_CHECK(api, d.max_output_size >= 0, "max_output_size = {} is negative", d.max_output_size);
  CNNL_CHECK(api, d.input_layout == 0 || d.input_layout == 1,
             "input_layout is {}: 0 ([boxes, coordinates]) or 1 ([coordinates, boxes])",
             d.input_layout);
  CNNL_CHECK(api, d.soft_nms_sigma >= 0, "soft_nms_sigma = {} is negative", d.soft_nms_sigma);
  return CNNL_STATUS_SUCCESS;
}

// The workspace queries: the boxes, and the confidence if given, are live
// descriptors; the answer is 0.
cnnlStatus_t no_workspace(const char *api, cnnlHandle_t handle,
                          const cnnlTensorDescriptor_t boxes_desc,
                          const cnnlTensorDescriptor_t confidence_desc, size_t *size) {
  Tensor confidence;
  bool present = false;
  CNNL_RETURN_IF_ERROR(cnnlsim::optional(api, "confidence_desc", confidence_desc, confidence, present));
  return cnnlsim::no_workspace(api, handle, "boxes_desc", boxes_desc, size);
}

}  // namespace

cnnlStatus_t cnnlCreateNmsDescriptor(cnnlNmsDescriptor_t *desc) {
  return cnnlsim::create_call("cnnlCreateNmsDescriptor", desc);
}

cnnlStatus_t cnnlDestroyNmsDescriptor(cnnlNmsDescriptor_t desc) {
  return cnnlsim::destroy_call("cnnlDestroyNmsDescriptor", desc);
}

cnnlStatus_t cnnlSetNmsDescriptor_v5(cnnlNmsDescriptor_t nms_desc,
                                     const cnnlNmsBoxPointMode_t box_mode,
                                     const cnnlNmsOutputMode_t output_mode,
                                     const cnnlNmsAlgo_t algo,
                                     const cnnlNmsMethodMode_t method_mode,
                                     const float iou_threshold, const float soft_nms_sigma,
                                     const int max_output_size, const float confidence_threshold,
                                     const float offset, const int input_layout,
                                     const bool pad_to_max_output_size) {
  const char *api = "cnnlSetNmsDescriptor_v5";
  const auto live = cnnlsim::find_nms(nms_desc);
  CNNL_CHECK(api, live != nullptr, "nms_desc {} is not a live Nms descriptor",
             static_cast<void *>(nms_desc));
  const cnnlNmsStruct d{true,          box_mode,        output_mode,
                        algo,          method_mode,     iou_threshold,
                        soft_nms_sigma, confidence_threshold, offset,
                        max_output_size, input_layout,  pad_to_max_output_size};
  CNNL_RETURN_IF_ERROR(check_descriptor(api, d));
  *live = d;
  return CNNL_STATUS_SUCCESS;
}

cnnlStatus_t cnnlSetNmsDescAttr(cnnlNmsDescriptor_t nms_desc, cnnlNmsDescAttribute_t attr,
                                const void *buf, size_t size_in_bytes) {
  const char *api = "cnnlSetNmsDescAttr";
  const auto live = cnnlsim::find_nms(nms_desc);
  CNNL_CHECK(api, live != nullptr, "nms_desc {} is not a live Nms descriptor",
             static_cast<void *>(nms_desc));
  CNNL_CHECK(api, buf != nullptr, "buf is NULL (attribute {})", static_cast<int>(attr));
  cnnlNmsStruct d = *live;
  void *field = nullptr;
  size_t want = 0;
  const auto pick = [&](auto &member) {
    field = &member;
    want = sizeof member;
  };
  switch (attr) {
    case CNNL_NMS_DESC_BOX_MODE: pick(d.box_mode); break;
    case CNNL_NMS_DESC_OUTPUT_MODE: pick(d.output_mode); break;
    case CNNL_NMS_DESC_IOU_THRESHOLD: pick(d.iou_threshold); break;
    case CNNL_NMS_DESC_MAX_OUTPUT_SIZE: pick(d.max_output_size); break;
    case CNNL_NMS_DESC_CONFIDENCE_THRESHOLD: pick(d.confidence_threshold); break;
    case CNNL_NMS_DESC_OFFSET: pick(d.offset); break;
    case CNNL_NMS_DESC_INPUT_LAYOUT: pick(d.input_layout); break;
    case CNNL_NMS_DESC_PAD_TO_MAX_OUTPUT_SIZE: pick(d.pad_to_max_output_size); break;
  }
  CNNL_CHECK(api, field != nullptr, "attr is {}: not a cnnlNmsDescAttribute_t (0 to 7)",
             static_cast<int>(attr));
  CNNL_CHECK(api, size_in_bytes == want, "size_in_bytes is {}: attribute {} takes {} bytes",
             size_in_bytes, static_cast<int>(attr), want);
  if (attr == CNNL_NMS_DESC_PAD_TO_MAX_OUTPUT_SIZE) {
    d.pad_to_max_output_size = *static_cast<const unsigned char *>(buf) != 0;
  } else {
    std::memcpy(field, buf, want);
  }
  d.set = true;
  CNNL_RETURN_IF_ERROR(check_descriptor(api, d));
  *live = d;
  return CNNL_STATUS_SUCCESS;
}

cnnlStatus_t cnnlGetNmsWorkspaceSize_v4(cnnlHandle_t handle, const cnnlNmsDescriptor_t nms_desc,
                                        const cnnlTensorDescriptor_t boxes_desc,
                                        const cnnlTensorDescriptor_t confidence_desc,
                                        size_t *size) {
  const char *api = "cnnlGetNmsWorkspaceSize_v4";
  CNNL_CHECK(api, cnnlsim::find_nms(nms_desc) != nullptr,
             "nms_desc {} is not a live Nms descriptor", static_cast<void *>(nms_desc));
  return no_workspace(api, handle, boxes_desc, confidence_desc, size);
}

cnnlStatus_t cnnlGetNmsWorkspaceSize_v3(cnnlHandle_t handle, const cnnlTensorDescriptor_t boxes_desc,
                                        const cnnlTensorDescriptor_t confidence_desc,
                                        size_t *size) {
  const char *api = "cnnlGetNmsWorkspaceSize_v3";
  return no_workspace(api, handle, boxes_desc, confidence_desc, size);
}

cnnlStatus_t cnnlNms_v2(cnnlHandle_t handle, const cnnlNmsDescriptor_t nms_desc,
                        const cnnlTensorDescriptor_t boxes_desc, const void *boxes,
                        const cnnlTensorDescriptor_t confidence_desc, const void *confidence,
                        void * /*workspace*/, size_t /*workspace_size*/,
                        const cnnlTensorDescriptor_t output_desc, void *output,
                        void *output_size) {
  const char *api = "cnnlNms_v2";
  cnrtQueue_t queue = nullptr;
  CNNL_RETURN_IF_ERROR(cnnlsim::queue_of(api, handle, queue));
  const auto desc = cnnlsim::find_nms(nms_desc);
  CNNL_CHECK(api, desc != nullptr, "nms_desc {} is not a live Nms descriptor",
             static_cast<void *>(nms_desc));
  CNNL_CHECK(api, desc->set, "nms_desc was never set (cnnlSetNmsDescriptor_v5 or cnnlSetNmsDescAttr)");
  const cnnlNmsStruct d = *desc;
  Tensor boxes_t, confidence_t, output_t;
  bool has_confidence = false;
  CNNL_RETURN_IF_ERROR(cnnlsim::required(api, "boxes_desc", boxes_desc, boxes_t));
  CNNL_RETURN_IF_ERROR(
      cnnlsim::optional(api, "confidence_desc", confidence_desc, confidence_t, has_confidence));
  CNNL_RETURN_IF_ERROR(cnnlsim::required(api, "output_desc", output_desc, output_t));
  CNNL_SUPPORTS(api, boxes_t.rank() == 2,
                "2-D boxes (one batch, one class), got {}", cnnlsim::describe(boxes_t));
  CNNL_CHECK(api, boxes_t.dtype == CNNL_DTYPE_FLOAT || boxes_t.dtype == CNNL_DTYPE_HALF,
             "boxes is {}: float or half", cnnlsim::describe(boxes_t));
  CNNL_SUPPORTS(api, boxes_t.dense(), "boxes {}: a dense tensor", cnnlsim::describe(boxes_t));
  const int64_t box_dim = boxes_t.dim(d.input_layout == 0 ? 1 : 0);
  const int64_t count = boxes_t.dim(d.input_layout == 0 ? 0 : 1);
  CNNL_CHECK(api, box_dim == 4 || box_dim == 7,
             "boxes is {} with input_layout {}: 4 coordinates per box, or 7 for rotated 3-D boxes",
             cnnlsim::describe(boxes_t), d.input_layout);
  if (box_dim == 4) {
    CNNL_CHECK(api,
               has_confidence && confidence_t.rank() == 1 && confidence_t.dim(0) == count &&
                   confidence_t.dtype == boxes_t.dtype,
               "confidence must be 1-D of {} (one score per box) of the boxes' dtype, got {}",
               count, has_confidence ? cnnlsim::describe(confidence_t) : "none");
    CNNL_SUPPORTS(api, confidence_t.dense(), "confidence {}: a dense tensor",
                  cnnlsim::describe(confidence_t));
  } else {
    CNNL_SUPPORTS(api, d.output_mode == CNNL_NMS_OUTPUT_TARGET_INDICES,
                  "output mode 0 (indices) for rotated 3-D boxes, got {}",
                  static_cast<int>(d.output_mode));
    confidence_t = Tensor{};  // the 3-D mode takes boxes in order: no scores
  }
  const bool indices = d.output_mode == 0 || d.output_mode == 3;
  CNNL_CHECK(api, output_t.dtype == (indices ? CNNL_DTYPE_INT32 : boxes_t.dtype),
             "output is {}: output mode {} writes {}", cnnlsim::describe(output_t),
             static_cast<int>(d.output_mode),
             indices ? "int32" : cnnlsim::dtype_name(boxes_t.dtype));
  CNNL_SUPPORTS(api, output_t.dense(), "output {}: a dense tensor", cnnlsim::describe(output_t));

  nms::Plan plan{};
  plan.boxes = count;
  plan.padded = std::max<int64_t>(cnnlsim::round_up(count, nms::kAlign), nms::kAlign);
  plan.box_dim = static_cast<int>(box_dim);
  plan.input_layout = d.input_layout;
  plan.half = boxes_t.dtype == CNNL_DTYPE_HALF;
  plan.box_mode = d.box_mode;
  plan.output_mode = d.output_mode;
  plan.algo = d.algo;
  plan.method_mode = d.method_mode;
  plan.iou_threshold = d.iou_threshold;
  plan.soft_nms_sigma = d.soft_nms_sigma;
  plan.confidence_threshold = d.confidence_threshold;
  plan.offset = d.offset;
  CNNL_RETURN_IF_ERROR(keep_limit(api, d, output_t, plan.keep_limit));
  plan.plane = d.max_output_size;
  plan.pad = d.pad_to_max_output_size;
  plan.output_elements = output_t.elements();
  plan.nram_bytes = cnnlsim::nram_bytes();
  CNNL_SUPPORTS(api, nms::nram_needed(plan) <= plan.nram_bytes,
                "every box in NRAM: {} boxes and {} kept need {} bytes, the device has {}",
                count, plan.keep_limit, nms::nram_needed(plan), plan.nram_bytes);
  Tensor size_t_desc;  // output_size: one int32
  size_t_desc.dims = {1};
  size_t_desc.strides = {1};
  size_t_desc.dtype = CNNL_DTYPE_INT32;
  CNNL_RETURN_IF_ERROR(cnnlsim::check_buffers(
      api, {{"boxes", &boxes_t, boxes}, {"confidence", &confidence_t, confidence}},
      {{"output", &output_t, output}, {"output_size", &size_t_desc, output_size}}));

  const nms::Args args{plan, boxes, confidence, output, static_cast<int32_t *>(output_size)};
  mlusim::OpScope scope(queue, api, cnnlsim::io_bytes({&boxes_t, &confidence_t, &output_t}),
                        24.0 * static_cast<double>(count) * static_cast<double>(plan.keep_limit),
                        boxes_t.dtype);
  return cnnlsim::launched(api, nms::launch(queue, args));
}
