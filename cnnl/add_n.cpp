// cnnlGetAddNWorkspaceSize and cnnlAddN_v2: checks (1 to add_n::kMaxInputs
// inputs, every one of the output's dims and dtype, float or half, dense,
// device memory; the output may be one of the inputs, as mlu-ops'
// indice_convolution_backward_data passes it, but may not overlap one in
// part), the block size of add_n_kernel.h and the launch. No workspace.
#include <algorithm>

#include "cnnl/add_n_kernel.h"
#include "cnnl/host.h"
#include "runtime/operator_kit.h"

namespace {

using cnnlsim::Tensor;
namespace an = cnnlsim::add_n;

cnnlStatus_t check_inputs(const char *api, const cnnlTensorDescriptor_t descs[],
                          const void *const inputs[], uint32_t count, const Tensor &out,
                          const void *output) {
  CNNL_CHECK(api, count >= 1, "input_num is 0: at least one input");
  CNNL_SUPPORTS(api, count <= an::kMaxInputs, "at most {} inputs, got {}", an::kMaxInputs, count);
  CNNL_CHECK(api, descs != nullptr && inputs != nullptr, "null input_descs or inputs array");
  CNNL_SUPPORTS(api, out.dtype == CNNL_DTYPE_FLOAT || out.dtype == CNNL_DTYPE_HALF,
                "output {}: float or half", cnnlsim::describe(out));
  CNNL_SUPPORTS(api, out.dense(), "output {}: a dense tensor", cnnlsim::describe(out));
  CNNL_RETURN_IF_ERROR(cnnlsim::check_device(api, "output", output, out));
  const size_t bytes = static_cast<size_t>(out.elements()) * cnnlsim::dtype_size(out.dtype);
  for (uint32_t i = 0; i < count; ++i) {
    Tensor in;
    CNNL_RETURN_IF_ERROR(cnnlsim::required(api, "input_descs[i]", descs[i], in));
    CNNL_SUPPORTS(api, in.dims == out.dims && in.dtype == out.dtype && in.dense(),
                  "input {} is {}: a dense tensor of the output's dims and dtype ({}); no "
                  "broadcasting",
                  i, cnnlsim::describe(in), cnnlsim::describe(out));
    CNNL_RETURN_IF_ERROR(cnnlsim::check_device(api, "inputs[i]", inputs[i], in));
    CNNL_CHECK(api, inputs[i] == output || !cnnlsim::overlap(inputs[i], bytes, output, bytes),
               "input {} ({}) overlaps the output ({}) in part: it may be the output, or apart",
               i, inputs[i], output);
  }
  return CNNL_STATUS_SUCCESS;
}

an::Plan plan_of(const Tensor &out, uint32_t count) {
  an::Plan p;
  p.half = out.dtype == CNNL_DTYPE_HALF;
  p.inputs = static_cast<int>(count);
  p.elements = out.elements();
  p.nram_bytes = cnnlsim::nram_bytes();
  // Two float blocks (the sum and a term) and a half stage: 10 bytes an element.
  p.block = p.nram_bytes / 10 / 64 * 64;
  p.dim = cnnlsim::union1_dim(cnnlsim::ceil_div(p.elements, p.block));
  return p;
}

}  // namespace

cnnlStatus_t cnnlGetAddNWorkspaceSize(cnnlHandle_t handle, const cnnlTensorDescriptor_t[],
                                      const uint32_t, const cnnlTensorDescriptor_t output_desc,
                                      size_t *workspace_size) {
  return cnnlsim::no_workspace("cnnlGetAddNWorkspaceSize", handle, "output_desc", output_desc,
                               workspace_size);
}

cnnlStatus_t cnnlAddN_v2(cnnlHandle_t handle, const cnnlTensorDescriptor_t input_descs[],
                         const void *const inputs[], const uint32_t input_num,
                         const cnnlTensorDescriptor_t output_desc, void *output, void *,
                         size_t) {
  const char *api = "cnnlAddN_v2";
  cnrtQueue_t queue = nullptr;
  CNNL_RETURN_IF_ERROR(cnnlsim::queue_of(api, handle, queue));
  Tensor out;
  CNNL_RETURN_IF_ERROR(cnnlsim::required(api, "output_desc", output_desc, out));
  CNNL_RETURN_IF_ERROR(check_inputs(api, input_descs, inputs, input_num, out, output));
  if (out.elements() == 0) return CNNL_STATUS_SUCCESS;
  an::Args args{plan_of(out, input_num), {}, output};
  std::copy(inputs, inputs + input_num, args.inputs);
  mlusim::OpScope scope(queue, api, cnnlsim::io_bytes({&out}) * (input_num + 1), 0, out.dtype);
  return cnnlsim::launched(api, an::launch(queue, args));
}
