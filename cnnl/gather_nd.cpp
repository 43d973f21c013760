// cnnlGatherNd and cnnlGatherNd_v2 (batch_dims 0): checks (int32 index
// tuples of K indices into the params' first K dims; the output shaped as
// indices' dims but the last followed by the params' remaining dims, of the
// params' dtype; dense tensors, device memory), the split of
// gather_nd_kernel.h and the launch. Semantics: TensorFlow's gather_nd
// (CNNL's model); a tuple with an index out of range gives zeros, as
// TensorFlow's GPU kernel does (our choice: CNNL does not say).
#include <algorithm>

#include "cnnl/gather_nd_kernel.h"
#include "cnnl/host.h"
#include "runtime/operator_kit.h"

namespace {

using cnnlsim::Tensor;
namespace gn = cnnlsim::gather_nd;

constexpr int64_t kMaxZeroBytes = 16 * 1024;  // the NRAM block out-of-range slices come from

gn::Plan plan_of(const Tensor &params, const Tensor &indices) {
  gn::Plan p;
  p.width = static_cast<int>(cnnlsim::dtype_size(params.dtype));
  p.at = cnnlsim::index_tuples(indices, params);
  p.zero_bytes = std::min(kMaxZeroBytes, cnnlsim::round_up(p.at.slice * p.width,
                                                           cnnlsim::kGranuleBytes));
  p.dim = cnnlsim::union1_dim(p.at.tuples);
  return p;
}

cnnlStatus_t gather_nd(const char *api, cnnlHandle_t handle,
                       const cnnlTensorDescriptor_t params_desc, const void *params,
                       const cnnlTensorDescriptor_t indices_desc, const void *indices,
                       const cnnlTensorDescriptor_t output_desc, void *output) {
  cnrtQueue_t queue = nullptr;
  CNNL_RETURN_IF_ERROR(cnnlsim::queue_of(api, handle, queue));
  Tensor par, idx, out;
  CNNL_RETURN_IF_ERROR(cnnlsim::required(api, "params_desc", params_desc, par));
  CNNL_RETURN_IF_ERROR(cnnlsim::required(api, "indices_desc", indices_desc, idx));
  CNNL_RETURN_IF_ERROR(cnnlsim::required(api, "output_desc", output_desc, out));
  CNNL_RETURN_IF_ERROR(cnnlsim::check_index_tuples(api, idx, "params", par, "output", out));
  CNNL_RETURN_IF_ERROR(cnnlsim::check_buffers(
      api, {{"params", &par, params}, {"indices", &idx, indices}}, {{"output", &out, output}}));
  if (out.elements() == 0) return CNNL_STATUS_SUCCESS;
  const gn::Args args{plan_of(par, idx), params, static_cast<const int32_t *>(indices), output};
  // The slices are read from the params once and written once.
  mlusim::OpScope scope(queue, api, cnnlsim::io_bytes({&idx, &out, &out}), 0, out.dtype);
  return cnnlsim::launched(api, gn::launch(queue, args));
}

}  // namespace

cnnlStatus_t cnnlGatherNd(cnnlHandle_t handle, const cnnlTensorDescriptor_t params_desc,
                          const void *params, const cnnlTensorDescriptor_t indices_desc,
                          const void *indices, const cnnlTensorDescriptor_t output_desc,
                          void *output) {
  return gather_nd("cnnlGatherNd", handle, params_desc, params, indices_desc, indices,
                   output_desc, output);
}

cnnlStatus_t cnnlGatherNd_v2(cnnlHandle_t handle, const int batch_dims,
                             const cnnlTensorDescriptor_t params_desc, const void *params,
                             const cnnlTensorDescriptor_t indices_desc, const void *indices,
                             const cnnlTensorDescriptor_t output_desc, void *output) {
  const char *api = "cnnlGatherNd_v2";
  CNNL_SUPPORTS(api, batch_dims == 0, "batch_dims 0 (mlu-ops' only use), got {}", batch_dims);
  return gather_nd(api, handle, params_desc, params, indices_desc, indices, output_desc, output);
}
