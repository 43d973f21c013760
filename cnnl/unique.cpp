// cnnlUnique_v2 (with its descriptor calls and workspace query): checks (the
// ascending mode; dim 0 of a 1-D or 2-D int32 or float input, or -1 of a 1-D
// one; outputs with room for every input row; device memory), the plan of
// unique_kernel.h and the launch. Semantics: torch.unique(sorted=True,
// return_inverse, return_counts, dim): the distinct rows in ascending
// lexicographic order, output_num of them; NaN elements compare unequal to
// everything, so each row holding one is its own. Output rows past output_num
// are left as they were; the output and counts must have room for the distinct
// rows (a launch that finds more than their allocations hold faults).
#include <algorithm>

#include "cnnl/host.h"
#include "cnnl/unique_kernel.h"
#include "runtime/operator_kit.h"

namespace {

using cnnlsim::Tensor;
namespace un = cnnlsim::unique;

cnnlStatus_t live_unique(const char *api, cnnlUniqueDescriptor_t desc, cnnlUniqueStruct &out) {
  const auto live = cnnlsim::find_unique(desc);
  CNNL_CHECK(api, live != nullptr, "unique_desc {} is not a live Unique descriptor",
             static_cast<void *>(desc));
  CNNL_CHECK(api, live->set, "unique_desc was never set (cnnlSetUniqueDescriptor)");
  out = *live;
  return CNNL_STATUS_SUCCESS;
}

cnnlStatus_t check_input(const char *api, const cnnlUniqueStruct &d, const Tensor &in) {
  CNNL_SUPPORTS(api, in.dtype == CNNL_DTYPE_INT32 || in.dtype == CNNL_DTYPE_FLOAT,
                "input {}: int32 or float", cnnlsim::describe(in));
  CNNL_SUPPORTS(api, (in.rank() == 1 && (d.dim == 0 || d.dim == -1)) || (in.rank() == 2 && d.dim == 0),
                "input {} with dim {}: a 1-D input, or the rows (dim 0) of a 2-D one",
                cnnlsim::describe(in), d.dim);
  CNNL_SUPPORTS(api, in.dense(), "input {}: a dense tensor", cnnlsim::describe(in));
  return CNNL_STATUS_SUCCESS;
}

// An output of `dtype` (dense) whose rows hold `cols` elements and, when
// `rows` > 0, at least that many rows. The distinct rows' count is known only
// on the device: outputs sized for them are written whole, and one too small
// for the rows the device finds faults the launch where it overruns its
// allocation.
cnnlStatus_t check_output(const char *api, const char *name, const Tensor &t,
                          cnnlDataType_t dtype, int64_t cols, int64_t rows) {
  CNNL_CHECK(api,
             t.dtype == dtype && t.rank() >= 1 && t.elements() / std::max<int64_t>(t.dim(0), 1) == cols &&
                 t.dim(0) >= rows,
             "{} is {}: {} rows of {} element(s){}", name, cnnlsim::describe(t),
             cnnlsim::dtype_name(dtype), cols,
             rows > 0 ? fmt::format(", at least {} of them", rows) : std::string());
  CNNL_SUPPORTS(api, t.dense(), "{} {}: a dense tensor", name, cnnlsim::describe(t));
  return CNNL_STATUS_SUCCESS;
}

}  // namespace

cnnlStatus_t cnnlCreateUniqueDescriptor(cnnlUniqueDescriptor_t *unique_desc) {
  return cnnlsim::create_call("cnnlCreateUniqueDescriptor", unique_desc);
}

cnnlStatus_t cnnlDestroyUniqueDescriptor(cnnlUniqueDescriptor_t unique_desc) {
  return cnnlsim::destroy_call("cnnlDestroyUniqueDescriptor", unique_desc);
}

cnnlStatus_t cnnlSetUniqueDescriptor(cnnlUniqueDescriptor_t unique_desc, cnnlUniqueSort_t mode,
                                     int dim, bool return_inverse, bool return_counts) {
  const char *api = "cnnlSetUniqueDescriptor";
  const auto live = cnnlsim::find_unique(unique_desc);
  CNNL_CHECK(api, live != nullptr, "unique_desc {} is not a live Unique descriptor",
             static_cast<void *>(unique_desc));
  CNNL_SUPPORTS(api, mode == CNNL_SORT_ASCEND, "mode CNNL_SORT_ASCEND (0), got {}",
                static_cast<int>(mode));
  live->mode = mode;
  live->dim = dim;
  live->return_inverse = return_inverse;
  live->return_counts = return_counts;
  live->set = true;
  return CNNL_STATUS_SUCCESS;
}

cnnlStatus_t cnnlGetUniqueWorkspaceSize(cnnlHandle_t handle,
                                        const cnnlUniqueDescriptor_t unique_desc,
                                        const cnnlTensorDescriptor_t input_desc,
                                        size_t *workspace_size) {
  const char *api = "cnnlGetUniqueWorkspaceSize";
  cnnlUniqueStruct d;
  CNNL_RETURN_IF_ERROR(live_unique(api, unique_desc, d));
  return cnnlsim::no_workspace(api, handle, "input_desc", input_desc, workspace_size);
}

cnnlStatus_t cnnlUnique_v2(cnnlHandle_t handle, const cnnlUniqueDescriptor_t unique_desc,
                           const cnnlTensorDescriptor_t input_desc, const void *input, void *,
                           const size_t, int *output_num, const cnnlTensorDescriptor_t output_desc,
                           void *output, const cnnlTensorDescriptor_t indices_desc,
                           void *inverse_indices, const cnnlTensorDescriptor_t counts_desc,
                           void *counts) {
  const char *api = "cnnlUnique_v2";
  cnrtQueue_t queue = nullptr;
  CNNL_RETURN_IF_ERROR(cnnlsim::queue_of(api, handle, queue));
  cnnlUniqueStruct d;
  CNNL_RETURN_IF_ERROR(live_unique(api, unique_desc, d));
  Tensor in, out, inv, cnt;
  CNNL_RETURN_IF_ERROR(cnnlsim::required(api, "input_desc", input_desc, in));
  CNNL_RETURN_IF_ERROR(cnnlsim::required(api, "output_desc", output_desc, out));
  CNNL_RETURN_IF_ERROR(check_input(api, d, in));
  un::Plan plan;
  plan.rows = in.rank() == 0 ? 1 : in.dim(0);
  plan.cols = in.rank() == 2 ? in.dim(1) : 1;
  plan.is_float = in.dtype == CNNL_DTYPE_FLOAT;
  plan.nram_bytes = cnnlsim::nram_bytes();
  CNNL_RETURN_IF_ERROR(check_output(api, "output", out, in.dtype, plan.cols, 0));
  const Tensor none;
  if (d.return_inverse) {
    CNNL_RETURN_IF_ERROR(cnnlsim::required(api, "indices_desc", indices_desc, inv));
    CNNL_RETURN_IF_ERROR(check_output(api, "indices", inv, CNNL_DTYPE_INT32, 1, plan.rows));
  }
  if (d.return_counts) {
    CNNL_RETURN_IF_ERROR(cnnlsim::required(api, "counts_desc", counts_desc, cnt));
    CNNL_RETURN_IF_ERROR(check_output(api, "counts", cnt, CNNL_DTYPE_INT32, 1, 0));
  }
  CNNL_RETURN_IF_ERROR(cnnlsim::check_buffers(
      api, {{"input", &in, input}},
      {{"output", &out, output},
       {"indices", d.return_inverse ? &inv : &none, d.return_inverse ? inverse_indices : nullptr},
       {"counts", d.return_counts ? &cnt : &none, d.return_counts ? counts : nullptr}}));
  CNNL_RETURN_IF_ERROR(cnnlsim::check_device_bytes(api, "output_num", output_num, sizeof(int)));
  CNNL_SUPPORTS(api, un::nram_needed(plan) <= plan.nram_bytes,
                "an input whose rows, sorted, fit one core's NRAM ({} bytes, {} needed for {} rows "
                "of {})",
                plan.nram_bytes, un::nram_needed(plan), plan.rows, plan.cols);

  const un::Args args{plan, input, output,
                      d.return_inverse ? static_cast<int32_t *>(inverse_indices) : nullptr,
                      d.return_counts ? static_cast<int32_t *>(counts) : nullptr,
                      reinterpret_cast<int32_t *>(output_num)};
  mlusim::OpScope scope(queue, api, cnnlsim::io_bytes({&in, &out, &inv, &cnt}), 0, in.dtype);
  return cnnlsim::launched(api, un::launch(queue, args));
}
