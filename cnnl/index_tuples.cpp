// The host half of index_tuples.h: the checks ScatterNd and GatherNd share,
// and the tuples' plan.
#include "cnnl/index_tuples.h"

#include "cnnl/host.h"

namespace cnnlsim {

cnnlStatus_t check_index_tuples(const char *api, const Tensor &indices, const char *target_name,
                                const Tensor &target, const char *slices_name,
                                const Tensor &slices) {
  CNNL_SUPPORTS(api, indices.dtype == CNNL_DTYPE_INT32, "indices {}: int32", describe(indices));
  CNNL_CHECK(api, indices.rank() >= 1, "indices is {}: at least one dim", describe(indices));
  const int k = static_cast<int>(indices.last_dim());
  CNNL_CHECK(api, k >= 1 && k <= target.rank(),
             "indices {}: its last dim (indices per tuple) must be 1 to the rank of {} ({})",
             describe(indices), target_name, target.rank());
  CNNL_SUPPORTS(api, k <= IndexTuples::kMaxIndexDims, "at most {} indices per tuple, got {}",
                IndexTuples::kMaxIndexDims, k);
  std::vector<int64_t> want(indices.dims.begin(), indices.dims.end() - 1);
  want.insert(want.end(), target.dims.begin() + k, target.dims.end());
  CNNL_CHECK(api, slices.dims == want && slices.dtype == target.dtype,
             "{} is {}: must be indices' dims but the last, then the dims of {} from dim {} on, "
             "of its dtype ({})",
             slices_name, describe(slices), target_name, k, describe(target));
  for (const Tensor *t : {&indices, &target, &slices})
    CNNL_SUPPORTS(api, t->dense(), "{}: dense tensors", describe(*t));
  return CNNL_STATUS_SUCCESS;
}

IndexTuples index_tuples(const Tensor &indices, const Tensor &target) {
  IndexTuples p;
  p.index_dims = static_cast<int>(indices.last_dim());
  p.tuples = indices.elements() / p.index_dims;
  p.slice = 1;
  for (int d = target.rank() - 1; d >= 0; --d) {
    if (d < p.index_dims) {
      p.dims[d] = target.dim(d);
      p.strides[d] = p.slice;
    }
    p.slice *= target.dim(d);
  }
  for (int d = 0; d < p.index_dims; ++d) p.slice /= target.dim(d);
  return p;
}

}  // namespace cnnlsim
