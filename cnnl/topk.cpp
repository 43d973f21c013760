// cnnlTopKTensor_v3 and its workspace query (0): checks (k within the
// dim's size, outputs of the input's dims with k along `dim`, the values of
// the input's dtype, int32 indices; simulated: float input, the last dim,
// largest first, ties to the lower index, a row that fits NRAM), the plan
// of topk_kernel.h and the launch. Semantics: torch.topk(largest=True,
// sorted=True) with NaN ordered by sign (+NaN first, -NaN last), which is
// how mlu-ops' generate_proposals_v2 states what it relies on; an unsorted
// request gets the sorted answer, which is one of the answers it allows.
#include "cnnl/host.h"
#include "cnnl/topk_kernel.h"
#include "runtime/operator_kit.h"

namespace {

using cnnlsim::Tensor;
namespace tk = cnnlsim::topk;

}  // namespace

cnnlStatus_t cnnlGetTopKTensorWorkspaceSize(cnnlHandle_t handle,
                                            const cnnlTensorDescriptor_t input_desc, int, int,
                                            bool, const cnnlTensorDescriptor_t,
                                            const cnnlTensorDescriptor_t,
                                            size_t *workspace_size) {
  return cnnlsim::no_workspace("cnnlGetTopKTensorWorkspaceSize", handle, "input_desc", input_desc,
                               workspace_size);
}

cnnlStatus_t cnnlTopKTensor_v3(cnnlHandle_t handle, const cnnlTensorDescriptor_t input_desc,
                               const void *input, int k, int dim, bool largest, bool /*sorted*/,
                               bool lower_index_first, void * /*workspace*/,
                               size_t /*workspace_size*/, const cnnlTensorDescriptor_t output_desc,
                               void *output, const cnnlTensorDescriptor_t index_desc,
                               void *index) {
  const char *api = "cnnlTopKTensor_v3";
  cnrtQueue_t queue = nullptr;
  CNNL_RETURN_IF_ERROR(cnnlsim::queue_of(api, handle, queue));
  Tensor in, out, idx;
  CNNL_RETURN_IF_ERROR(cnnlsim::required(api, "input_desc", input_desc, in));
  CNNL_RETURN_IF_ERROR(cnnlsim::required(api, "output_desc", output_desc, out));
  CNNL_RETURN_IF_ERROR(cnnlsim::required(api, "index_desc", index_desc, idx));
  CNNL_CHECK(api, in.rank() >= 1, "input is {}: at least one dim", cnnlsim::describe(in));
  CNNL_CHECK(api, dim >= -in.rank() && dim < in.rank(), "dim is {}: within [-{}, {}) for input {}",
             dim, in.rank(), in.rank(), cnnlsim::describe(in));
  const int axis = dim < 0 ? dim + in.rank() : dim;
  CNNL_CHECK(api, k >= 0 && k <= in.dim(axis), "k is {}: within [0, {}] (input {} along dim {})",
             k, in.dim(axis), cnnlsim::describe(in), axis);
  std::vector<int64_t> want = in.dims;
  want[static_cast<size_t>(axis)] = k;
  CNNL_CHECK(api, out.dims == want && out.dtype == in.dtype,
             "output is {}: the input's dims with {} along dim {}, of its dtype ({})",
             cnnlsim::describe(out), k, axis, cnnlsim::describe(in));
  CNNL_CHECK(api, idx.dims == want, "index is {}: the output's dims", cnnlsim::describe(idx));
  CNNL_SUPPORTS(api, idx.dtype == CNNL_DTYPE_INT32, "index {}: int32", cnnlsim::describe(idx));
  CNNL_SUPPORTS(api, in.dtype == CNNL_DTYPE_FLOAT, "input {}: float", cnnlsim::describe(in));
  CNNL_SUPPORTS(api, axis == in.rank() - 1, "dim {}: the last dim of input {}", dim,
                cnnlsim::describe(in));
  CNNL_SUPPORTS(api, largest, "largest = true (the largest values first)");
  CNNL_SUPPORTS(api, lower_index_first, "lower_index_first = true (ties to the lower index)");
  for (const Tensor *t : {&in, &out, &idx})
    CNNL_SUPPORTS(api, t->dense(), "{}: dense tensors", cnnlsim::describe(*t));

  tk::Plan plan;
  plan.cols = in.last_dim();
  plan.rows = plan.cols == 0 ? 0 : in.elements() / plan.cols;
  plan.k = k;
  plan.nram_bytes = cnnlsim::nram_bytes();
  plan.dim = cnnlsim::union1_dim(plan.rows);
  CNNL_SUPPORTS(api, tk::nram_needed(plan) <= plan.nram_bytes,
                "a row that fits one core's NRAM sorted ({} bytes, {} needed for {} values)",
                plan.nram_bytes, tk::nram_needed(plan), plan.cols);
  CNNL_RETURN_IF_ERROR(cnnlsim::check_buffers(api, {{"input", &in, input}},
                                              {{"output", &out, output}, {"index", &idx, index}}));
  if (plan.rows == 0 || plan.k == 0) return CNNL_STATUS_SUCCESS;

  const tk::Args args{plan, static_cast<const float *>(input), static_cast<float *>(output),
                      static_cast<int32_t *>(index)};
  mlusim::OpScope scope(queue, api, cnnlsim::io_bytes({&in, &out, &idx}), 0, in.dtype);
  return cnnlsim::launched(api, tk::launch(queue, args));
}
