// What ScatterNd and GatherNd share: tuples of K int32 indices, each naming a
// slice of a tensor (the output of a scatter, the params of a gather) by its
// first K dims; the slice is the rest of that tensor's dims. Plain C++,
// included by the host and the kernels (their device code: cnnl/kernel.h).
#pragma once

#include <cstdint>

namespace cnnlsim {

struct IndexTuples {
  static constexpr int kMaxIndexDims = 8;
  int64_t tuples = 0;       // index tuples (= slices moved)
  int index_dims = 0;       // K
  int64_t dims[kMaxIndexDims] = {};     // the tensor's first K dims
  int64_t strides[kMaxIndexDims] = {};  // in elements: one step along each of them
  int64_t slice = 0;        // elements per slice: the product of the tensor's other dims
};

}  // namespace cnnlsim
