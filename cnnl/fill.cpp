// cnnlFill_v3: checks, the split and the launch (fill_kernel.mlu).
#include <cstring>

#include "cnnl/fill_kernel.h"
#include "cnnl/host.h"
#include "runtime/operator_kit.h"

cnnlStatus_t cnnlFill_v3(cnnlHandle_t handle, const cnnlPointerMode_t pointer_mode,
                         const void *value, const cnnlTensorDescriptor_t output_desc,
                         void *output) {
  const char *api = "cnnlFill_v3";
  cnrtQueue_t queue = nullptr;
  CNNL_RETURN_IF_ERROR(cnnlsim::queue_of(api, handle, queue));
  cnnlsim::Tensor out;
  CNNL_RETURN_IF_ERROR(cnnlsim::required(api, "output_desc", output_desc, out));
  CNNL_CHECK(api, pointer_mode == CNNL_POINTER_MODE_HOST || pointer_mode == CNNL_POINTER_MODE_DEVICE,
             "pointer_mode is {}: CNNL_POINTER_MODE_HOST (0) or CNNL_POINTER_MODE_DEVICE (1)",
             static_cast<int>(pointer_mode));
  CNNL_CHECK(api, value != nullptr, "value is NULL");
  const size_t width = cnnlsim::dtype_size(out.dtype);
  if (out.elements() == 0) return CNNL_STATUS_SUCCESS;
  CNNL_SUPPORTS(api, out.dense(), "output {}: a dense tensor", cnnlsim::describe(out));
  CNNL_RETURN_IF_ERROR(cnnlsim::check_device(api, "output", output, out));

  cnnlsim::FillPlan plan;
  plan.dst = output;
  plan.count = out.elements();
  plan.width = static_cast<int>(width);
  if (pointer_mode == CNNL_POINTER_MODE_DEVICE) {
    CNNL_RETURN_IF_ERROR(cnnlsim::check_device_bytes(api, "value", value, width));
    plan.device_value = value;
  } else {
    std::memcpy(&plan.bits, value, width);
  }
  plan.nram_bytes = cnnlsim::nram_bytes();
  plan.dim = cnnlsim::union1_dim(cnnlsim::ceil_div(plan.count * plan.width, cnnlsim::kGranuleBytes));

  mlusim::OpScope scope(queue, "cnnlFill_v3", cnnlsim::io_bytes({&out}), 0, out.dtype);
  return cnnlsim::launched(api, cnnlsim::launch_fill(queue, plan));
}

cnnlStatus_t cnnlsim::zero_fill(const char *api, cnrtQueue_t queue, void *ptr, const Tensor &t) {
  FillPlan zero;
  zero.dst = ptr;
  zero.count = t.elements();
  zero.width = static_cast<int>(dtype_size(t.dtype));
  zero.nram_bytes = nram_bytes();
  zero.dim = union1_dim(core_count());
  return launched(api, launch_fill(queue, zero));
}
