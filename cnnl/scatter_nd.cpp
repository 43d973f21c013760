// cnnlScatterNd_v2: checks (int32 index tuples of K indices into the output's
// first K dims, updates shaped indices' dims but the last followed by the
// output's remaining dims, ADD on float, half or int32 and UPDATE on any
// dtype, dense tensors, device memory), the split of scatter_nd_kernel.h and
// the launches. Semantics: TensorFlow's scatter_nd (CNNL's model), onto the
// input's values when an input is given, else onto the output's own; a tuple
// with an index out of range is skipped (mlu-ops' dynamic_point_to_voxel
// backward marks its unused tuples with the output's element count). The
// input may be the output itself, not overlap it in part.
#include <algorithm>

#include "cnnl/host.h"
#include "cnnl/scatter_nd_kernel.h"
#include "runtime/operator_kit.h"

namespace {

using cnnlsim::Tensor;
namespace sn = cnnlsim::scatter_nd;

sn::Plan plan_of(cnnlScatterNdMode_t mode, const Tensor &indices, const Tensor &out) {
  sn::Plan p;
  p.add = mode == CNNL_SCATTERND_ADD;
  p.dtype = out.dtype == CNNL_DTYPE_FLOAT ? 0 : out.dtype == CNNL_DTYPE_HALF ? 1 : 2;
  p.width = static_cast<int>(cnnlsim::dtype_size(out.dtype));
  p.at = cnnlsim::index_tuples(indices, out);
  p.nram_bytes = cnnlsim::nram_bytes();
  p.chunk = (p.nram_bytes - cnnlsim::kGranuleBytes) / cnnlsim::kGranuleBytes *
            cnnlsim::kGranuleBytes / p.width;
  p.dim = cnnlsim::union1_dim(p.at.tuples);
  return p;
}

}  // namespace

cnnlStatus_t cnnlScatterNd_v2(cnnlHandle_t handle, cnnlScatterNdMode_t mode,
                              const cnnlTensorDescriptor_t indices_desc, const void *indices,
                              const cnnlTensorDescriptor_t updates_desc, const void *updates,
                              const cnnlTensorDescriptor_t input_desc, const void *input,
                              const cnnlTensorDescriptor_t output_desc, void *output) {
  const char *api = "cnnlScatterNd_v2";
  cnrtQueue_t queue = nullptr;
  CNNL_RETURN_IF_ERROR(cnnlsim::queue_of(api, handle, queue));
  Tensor idx, upd, in, out;
  bool has_input = false;
  CNNL_RETURN_IF_ERROR(cnnlsim::required(api, "indices_desc", indices_desc, idx));
  CNNL_RETURN_IF_ERROR(cnnlsim::required(api, "updates_desc", updates_desc, upd));
  CNNL_RETURN_IF_ERROR(cnnlsim::optional(api, "input_desc", input_desc, in, has_input));
  CNNL_RETURN_IF_ERROR(cnnlsim::required(api, "output_desc", output_desc, out));
  has_input = has_input && input != nullptr;
  CNNL_CHECK(api, mode == CNNL_SCATTERND_ADD || mode == CNNL_SCATTERND_UPDATE,
             "mode is {}: CNNL_SCATTERND_ADD (0) or CNNL_SCATTERND_UPDATE (1)",
             static_cast<int>(mode));
  CNNL_RETURN_IF_ERROR(cnnlsim::check_index_tuples(api, idx, "output", out, "updates", upd));
  CNNL_SUPPORTS(api,
                mode == CNNL_SCATTERND_UPDATE || out.dtype == CNNL_DTYPE_FLOAT ||
                    out.dtype == CNNL_DTYPE_HALF || out.dtype == CNNL_DTYPE_INT32,
                "CNNL_SCATTERND_ADD on float, half or int32 (the device's atomic adds), got {}",
                cnnlsim::describe(out));
  if (has_input)
    CNNL_CHECK(api, in.dims == out.dims && in.dtype == out.dtype && in.dense(),
               "input is {}: a dense tensor of the output's dims and dtype ({})",
               cnnlsim::describe(in), cnnlsim::describe(out));
  // In place (mlu-ops' indice_convolution_backward_data passes one buffer as
  // both): the output already holds the input.
  if (has_input && input == output) has_input = false;
  const Tensor none;
  CNNL_RETURN_IF_ERROR(cnnlsim::check_buffers(
      api, {{"indices", &idx, indices}, {"updates", &upd, updates},
            {"input", has_input ? &in : &none, has_input ? input : nullptr}},
      {{"output", &out, output}}));
  if (out.elements() == 0) return CNNL_STATUS_SUCCESS;

  const sn::Args args{plan_of(mode, idx, out), static_cast<const int32_t *>(indices), updates,
                      output};
  mlusim::OpScope scope(queue, api,
                        cnnlsim::io_bytes({&idx, &upd, &out, has_input ? &in : nullptr}), 0,
                        out.dtype);
  if (has_input)
    CNNL_RETURN_IF_ERROR(cnnlsim::launched(
        api, sn::launch_copy_input(queue, input, output, out.elements(), args.plan.width,
                                   cnnlsim::union1_dim(cnnlsim::core_count()))));
  if (args.plan.at.tuples == 0) return CNNL_STATUS_SUCCESS;
  return cnnlsim::launched(api, sn::launch(queue, args));
}
