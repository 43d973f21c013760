// MatMul: the descriptor, algorithm and heuristic-result calls (under CNNL
// 1.x's and 2.x's names), cnnlSetMatMulDescAttr, cnnlGetMatMulAlgoHeuristic
// and cnnlGetMatMulHeuristicResult (one algorithm, workspace 0), and
// cnnlMatMul_v2: checks (2-D float tensors, A [m, k] or [k, m] transposed,
// B [k, n] or [n, k], C and D [m, n], dense; d may be c itself but share no
// other byte with an input; NRAM for a row of B and of D), the plan of
// matmul_kernel.h and the launch. Semantics: D = alpha op(A) op(B) + beta C
// in float, with alpha and beta host floats; C is not read when beta is 0.
// mlu-ops v1.11.1's fft (fftGetMatMulWorkspaceSize, fftMatMul) calls these.
#include <algorithm>
#include <cstring>
#include <utility>
#include <vector>

#include "cnnl/host.h"
#include "cnnl/matmul_kernel.h"
#include "runtime/operator_kit.h"

namespace {

using cnnlsim::Tensor;
namespace mm = cnnlsim::matmul;

// The descriptor of a MatMul call, copied: a live one, else BAD_PARAM.
cnnlStatus_t descriptor(const char *api, cnnlMatMulDescriptor_t matmul_desc,
                        cnnlMatMulStruct &d) {
  const auto live = cnnlsim::find_matmul(matmul_desc);
  CNNL_CHECK(api, live != nullptr, "matmul_desc {} is not a live MatMul descriptor",
             static_cast<void *>(matmul_desc));
  d = *live;
  return CNNL_STATUS_SUCCESS;
}

// What cnnlGetMatMulAlgoHeuristic and cnnlMatMul_v2 both check of the
// descriptor's transposes and the four tensors, and the plan they give
// (alpha and beta aside).
cnnlStatus_t plan_of(const char *api, const cnnlMatMulStruct &d,
                     const cnnlTensorDescriptor_t a_desc, const cnnlTensorDescriptor_t b_desc,
                     const cnnlTensorDescriptor_t c_desc, const cnnlTensorDescriptor_t d_desc,
                     Tensor &a, Tensor &b, Tensor &c, Tensor &out, mm::Plan &plan) {
  CNNL_RETURN_IF_ERROR(cnnlsim::required(api, "a_desc", a_desc, a));
  CNNL_RETURN_IF_ERROR(cnnlsim::required(api, "b_desc", b_desc, b));
  CNNL_RETURN_IF_ERROR(cnnlsim::required(api, "c_desc", c_desc, c));
  CNNL_RETURN_IF_ERROR(cnnlsim::required(api, "d_desc", d_desc, out));
  CNNL_CHECK(api, a.rank() == 2, "a is {}: a matrix (2 dims)", cnnlsim::describe(a));
  CNNL_CHECK(api, b.rank() == 2, "b is {}: a matrix (2 dims)", cnnlsim::describe(b));
  plan.trans_a = d.trans_a;
  plan.trans_b = d.trans_b;
  plan.m = a.dim(d.trans_a ? 1 : 0);
  plan.k = a.dim(d.trans_a ? 0 : 1);
  plan.n = b.dim(d.trans_b ? 0 : 1);
  const int64_t b_k = b.dim(d.trans_b ? 1 : 0);
  CNNL_CHECK(api, b_k == plan.k,
             "b is {} (transb {}): its k = {} must equal a's k = {} (a {}, transa {})",
             cnnlsim::describe(b), d.trans_b, b_k, plan.k, cnnlsim::describe(a), d.trans_a);
  const std::vector<int64_t> mn = {plan.m, plan.n};
  CNNL_CHECK(api, c.dims == mn, "c is {}: [m, n] = [{}, {}]", cnnlsim::describe(c), plan.m,
             plan.n);
  CNNL_CHECK(api, out.dims == mn, "d is {}: [m, n] = [{}, {}]", cnnlsim::describe(out), plan.m,
             plan.n);
  for (const int64_t extent : {plan.m, plan.k, plan.n})
    CNNL_SUPPORTS(api, extent < (int64_t{1} << 29),
                  "m, k and n below 2^29 (a row's bytes within one DMA), got {}", extent);
  const std::pair<const char *, const Tensor *> tensors[] = {
      {"a", &a}, {"b", &b}, {"c", &c}, {"d", &out}};
  for (const auto &[name, t] : tensors) {
    CNNL_SUPPORTS(api, t->dtype == CNNL_DTYPE_FLOAT, "{} {}: float tensors", name,
                  cnnlsim::describe(*t));
    CNNL_SUPPORTS(api, t->dense(), "{} {}: dense tensors", name, cnnlsim::describe(*t));
  }

  // Blocks: up to half of NRAM for the B tile, the rest for the rows of D
  // (no more than a task's share of them) and their A tile.
  plan.nram_bytes = cnnlsim::nram_bytes();
  plan.np = cnnlsim::granule_count<float>(std::max<int64_t>(plan.n, 1));
  plan.dim = cnnlsim::union1_dim(plan.m);
  const int64_t tasks = int64_t{plan.dim.x} * plan.dim.y * plan.dim.z;
  const int64_t row_bytes = 4 * plan.np;
  plan.kb = std::clamp<int64_t>(plan.nram_bytes / 2 / row_bytes, 1, std::max<int64_t>(plan.k, 1));
  const int64_t rest = plan.nram_bytes - plan.kb * row_bytes - cnnlsim::kGranuleBytes;
  plan.mb = std::clamp<int64_t>(rest / (row_bytes + 4 * plan.kb), 1,
                                std::max<int64_t>(cnnlsim::ceil_div(plan.m, tasks), 1));
  CNNL_SUPPORTS(api, mm::nram_needed(plan) <= plan.nram_bytes,
                "a row of op(B) and of D in one core's NRAM ({} bytes, {} needed for n = {})",
                plan.nram_bytes, mm::nram_needed(plan), plan.n);
  return CNNL_STATUS_SUCCESS;
}

}  // namespace

cnnlStatus_t cnnlCreateMatMulDescriptor(cnnlMatMulDescriptor_t *matmul_desc) {
  return cnnlsim::create_call("cnnlCreateMatMulDescriptor", matmul_desc);
}
cnnlStatus_t cnnlDestroyMatMulDescriptor(cnnlMatMulDescriptor_t matmul_desc) {
  return cnnlsim::destroy_call("cnnlDestroyMatMulDescriptor", matmul_desc);
}
cnnlStatus_t cnnlMatMulDescCreate(cnnlMatMulDescriptor_t *matmul_desc) {
  return cnnlsim::create_call("cnnlMatMulDescCreate", matmul_desc);
}
cnnlStatus_t cnnlMatMulDescDestroy(cnnlMatMulDescriptor_t matmul_desc) {
  return cnnlsim::destroy_call("cnnlMatMulDescDestroy", matmul_desc);
}
cnnlStatus_t cnnlCreateMatMulAlgo(cnnlMatMulAlgo_t *algo) {
  return cnnlsim::create_call("cnnlCreateMatMulAlgo", algo);
}
cnnlStatus_t cnnlDestroyMatMulAlgo(cnnlMatMulAlgo_t algo) {
  return cnnlsim::destroy_call("cnnlDestroyMatMulAlgo", algo);
}
cnnlStatus_t cnnlMatMulAlgoCreate(cnnlMatMulAlgo_t *algo) {
  return cnnlsim::create_call("cnnlMatMulAlgoCreate", algo);
}
cnnlStatus_t cnnlMatMulAlgoDestroy(cnnlMatMulAlgo_t algo) {
  return cnnlsim::destroy_call("cnnlMatMulAlgoDestroy", algo);
}
cnnlStatus_t cnnlCreateMatMulHeuristicResult(cnnlMatMulHeuristicResult_t *result) {
  return cnnlsim::create_call("cnnlCreateMatMulHeuristicResult", result);
}
cnnlStatus_t cnnlDestroyMatMulHeuristicResult(cnnlMatMulHeuristicResult_t result) {
  return cnnlsim::destroy_call("cnnlDestroyMatMulHeuristicResult", result);
}

cnnlStatus_t cnnlSetMatMulDescAttr(cnnlMatMulDescriptor_t matmul_desc,
                                   cnnlMatMulDescAttribute_t attr, const void *buf,
                                   size_t size_in_bytes) {
  const char *api = "cnnlSetMatMulDescAttr";
  const auto live = cnnlsim::find_matmul(matmul_desc);
  CNNL_CHECK(api, live != nullptr, "matmul_desc {} is not a live MatMul descriptor",
             static_cast<void *>(matmul_desc));
  CNNL_CHECK(api, buf != nullptr, "buf is NULL (attribute {})", static_cast<int>(attr));
  size_t want = 0;
  switch (attr) {
    case CNNL_MATMUL_DESC_COMPUTE_TYPE: want = sizeof(cnnlDataType_t); break;
    case CNNL_MATMUL_DESC_TRANSA:
    case CNNL_MATMUL_DESC_TRANSB:
    case CNNL_MATMUL_ALLOW_TF32: want = sizeof(int32_t); break;
  }
  CNNL_CHECK(api, want != 0,
             "attr is {}: not a cnnlMatMulDescAttribute_t (COMPUTE_TYPE, TRANSA, TRANSB, "
             "ALLOW_TF32)",
             static_cast<int>(attr));
  CNNL_CHECK(api, size_in_bytes == want, "size_in_bytes is {}: attribute {} takes {} bytes",
             size_in_bytes, static_cast<int>(attr), want);
  if (attr == CNNL_MATMUL_DESC_COMPUTE_TYPE) {
    cnnlDataType_t type;
    std::memcpy(&type, buf, sizeof type);
    CNNL_CHECK(api, cnnlsim::dtype_size(type) != 0,
               "the compute type is {}: not a cnnlDataType_t", static_cast<int>(type));
    CNNL_SUPPORTS(api, type == CNNL_DTYPE_FLOAT, "compute type {}: float",
                  cnnlsim::dtype_name(type));
    live->compute_type = type;
  } else if (attr == CNNL_MATMUL_ALLOW_TF32) {
    // Only its first byte is read: mlu-ops passes a bool with sizeof(int32_t).
    live->allow_tf32 = *static_cast<const unsigned char *>(buf) != 0;
  } else {
    int32_t flag;
    std::memcpy(&flag, buf, sizeof flag);
    CNNL_CHECK(api, flag == 0 || flag == 1, "{} is {}: 0 or 1",
               attr == CNNL_MATMUL_DESC_TRANSA ? "transa" : "transb", flag);
    (attr == CNNL_MATMUL_DESC_TRANSA ? live->trans_a : live->trans_b) = flag == 1;
  }
  return CNNL_STATUS_SUCCESS;
}

cnnlStatus_t cnnlGetMatMulAlgoHeuristic(cnnlHandle_t handle, cnnlMatMulDescriptor_t matmul_desc,
                                        cnnlTensorDescriptor_t a_desc,
                                        cnnlTensorDescriptor_t b_desc,
                                        cnnlTensorDescriptor_t c_desc,
                                        cnnlTensorDescriptor_t d_desc,
                                        cnnlMatMulPrefer_t /*preference*/,
                                        int requested_algo_count,
                                        cnnlMatMulHeuristicResult_t result_array[],
                                        int *return_algo_count) {
  const char *api = "cnnlGetMatMulAlgoHeuristic";
  cnrtQueue_t queue = nullptr;
  CNNL_RETURN_IF_ERROR(cnnlsim::queue_of(api, handle, queue));
  cnnlMatMulStruct d;
  CNNL_RETURN_IF_ERROR(descriptor(api, matmul_desc, d));
  Tensor a, b, c, out;
  mm::Plan plan;
  CNNL_RETURN_IF_ERROR(plan_of(api, d, a_desc, b_desc, c_desc, d_desc, a, b, c, out, plan));
  CNNL_CHECK(api, requested_algo_count >= 0, "requested_algo_count = {} is negative",
             requested_algo_count);
  CNNL_CHECK(api, return_algo_count != nullptr, "return_algo_count is NULL");
  std::shared_ptr<cnnlMatMulHeuristicResultStruct> result;
  if (requested_algo_count >= 1) {
    CNNL_CHECK(api, result_array != nullptr, "result_array is NULL (requested_algo_count {})",
               requested_algo_count);
    result = cnnlsim::find_matmul_result(result_array[0]);
    CNNL_CHECK(api, result != nullptr,
               "result_array[0] = {} is not a live result from cnnlCreateMatMulHeuristicResult",
               static_cast<void *>(result_array[0]));
    result->filled = true;
    result->workspace_size = 0;
  }
  *return_algo_count = requested_algo_count >= 1 ? 1 : 0;
  return CNNL_STATUS_SUCCESS;
}

cnnlStatus_t cnnlGetMatMulHeuristicResult(cnnlMatMulHeuristicResult_t result,
                                          cnnlMatMulAlgo_t algo, size_t *workspace_size) {
  const char *api = "cnnlGetMatMulHeuristicResult";
  const auto live = cnnlsim::find_matmul_result(result);
  CNNL_CHECK(api, live != nullptr, "result {} is not a live MatMul heuristic result",
             static_cast<void *>(result));
  CNNL_CHECK(api, live->filled, "result was never filled by cnnlGetMatMulAlgoHeuristic");
  CNNL_CHECK(api, cnnlsim::find_matmul_algo(algo) != nullptr,
             "algo {} is not a live MatMul algorithm", static_cast<void *>(algo));
  CNNL_CHECK(api, workspace_size != nullptr, "workspace_size is NULL");
  *workspace_size = live->workspace_size;
  return CNNL_STATUS_SUCCESS;
}

cnnlStatus_t cnnlMatMul_v2(cnnlHandle_t handle, const cnnlMatMulDescriptor_t matmul_desc,
                           const cnnlMatMulAlgo_t algo, const void *alpha,
                           const cnnlTensorDescriptor_t a_desc, const void *a_ptr,
                           const cnnlTensorDescriptor_t b_desc, const void *b_ptr,
                           const void *beta, const cnnlTensorDescriptor_t c_desc, void *c_ptr,
                           void * /*workspace*/, size_t /*workspace_size*/,
                           const cnnlTensorDescriptor_t d_desc, void *d_ptr) {
  const char *api = "cnnlMatMul_v2";
  cnrtQueue_t queue = nullptr;
  CNNL_RETURN_IF_ERROR(cnnlsim::queue_of(api, handle, queue));
  cnnlMatMulStruct d;
  CNNL_RETURN_IF_ERROR(descriptor(api, matmul_desc, d));
  CNNL_CHECK(api, algo == nullptr || cnnlsim::find_matmul_algo(algo) != nullptr,
             "algo {} is not a live MatMul algorithm (NULL or one from cnnlCreateMatMulAlgo)",
             static_cast<void *>(algo));
  CNNL_CHECK(api, alpha != nullptr, "alpha is NULL (a host float)");
  CNNL_CHECK(api, beta != nullptr, "beta is NULL (a host float)");
  Tensor a, b, c, out;
  mm::Plan plan;
  CNNL_RETURN_IF_ERROR(plan_of(api, d, a_desc, b_desc, c_desc, d_desc, a, b, c, out, plan));
  std::memcpy(&plan.alpha, alpha, sizeof(float));
  std::memcpy(&plan.beta, beta, sizeof(float));
  // C is read only when beta is not 0. It may be D itself (mlu-ops' fft
  // passes one pointer for both), and shares no byte with D otherwise.
  const bool reads_c = plan.beta != 0.0f;
  CNNL_RETURN_IF_ERROR(
      cnnlsim::check_buffers(api, {{"a", &a, a_ptr}, {"b", &b, b_ptr}}, {{"d", &out, d_ptr}}));
  if (reads_c) {
    CNNL_RETURN_IF_ERROR(cnnlsim::check_device(api, "c", c_ptr, c));
    CNNL_CHECK(api,
               c_ptr == d_ptr || !cnnlsim::overlap(c_ptr, c.span_bytes(), d_ptr, out.span_bytes()),
               "c = {} and d = {} share memory: d may be c itself, nothing else", c_ptr,
               static_cast<void *>(d_ptr));
  }
  if (plan.m == 0 || plan.n == 0) return CNNL_STATUS_SUCCESS;

  const mm::Args args{plan, static_cast<const float *>(a_ptr),
                      static_cast<const float *>(b_ptr), static_cast<const float *>(c_ptr),
                      static_cast<float *>(d_ptr)};
  const double mn = static_cast<double>(plan.m) * static_cast<double>(plan.n);
  mlusim::OpScope scope(queue, api,
                        cnnlsim::io_bytes({&a, &b, reads_c ? &c : nullptr, &out}),
                        2.0 * mn * static_cast<double>(plan.k) + (reads_c ? 3.0 : 1.0) * mn,
                        out.dtype);
  return cnnlsim::launched(api, mm::launch(queue, args));
}
