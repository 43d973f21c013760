// __bang_fusion: two element-wise operations in one instruction,
// dst[i] = (src0[i] op1 src1) op2 src2, where src1 and src2 are each a vector
// (NRAM, `count` elements) or a scalar. The operation names read in order:
// FUSION_FMA is multiply then add, FUSION_FSA subtract then add, FUSION_FSS
// subtract twice (ms_deform_attn: x - floor(x) - 1), and so on.
// On MLU3xx and earlier the two steps round separately (mlu-ops' FMA notes),
// as here: the intermediate is rounded to T.
#pragma once

#include <string>
#include <type_traits>

#include "mlusim/bang/vector.h"

typedef enum {
  FUSION_FMA,  // (a * b) + c
  FUSION_FMS,  // (a * b) - c
  FUSION_FAM,  // (a + b) * c
  FUSION_FSM,  // (a - b) * c
  FUSION_FAS,  // (a + b) - c
  FUSION_FSA,  // (a - b) + c
  FUSION_FSS,  // (a - b) - c
} mlusimFusionOp_t;

namespace mlusim::detail {

// A fusion operand: a vector's element, or a scalar everywhere.
template <typename T>
struct FusionOperand {
  const T *vector;
  T scalar;
  T at(size_t i) const { return vector != nullptr ? vector[i] : scalar; }
};
template <typename T, typename S>
FusionOperand<T> fusion_operand(S s) {
  if constexpr (std::is_pointer_v<S>)
    return {s, T(0)};
  else
    return {nullptr, static_cast<T>(s)};
}

template <typename T>
T fuse(mlusimFusionOp_t op, T a, T b, T c) {
  switch (op) {
    case FUSION_FMA: return static_cast<T>(a * b) + c;
    case FUSION_FMS: return static_cast<T>(a * b) - c;
    case FUSION_FAM: return static_cast<T>(a + b) * c;
    case FUSION_FSM: return static_cast<T>(a - b) * c;
    case FUSION_FAS: return static_cast<T>(a + b) - c;
    case FUSION_FSA: return static_cast<T>(a - b) + c;
    case FUSION_FSS: return static_cast<T>(a - b) - c;
  }
  return T(0);
}

template <typename T>
void fusion(mlusimFusionOp_t op, T *dst, const T *src0, FusionOperand<T> src1,
            FusionOperand<T> src2, int count) {
  const char *name = "__bang_fusion";
  if (op < FUSION_FMA || op > FUSION_FSS)
    fault(this_core(), std::string(name) + ": unknown operation " + std::to_string(op));
  const size_t n = checked_count(name, count), bytes = n * sizeof(T);
  const size_t bytes1 = src1.vector ? bytes : 0, bytes2 = src2.vector ? bytes : 0;
  vector_op<T>(name, dst, bytes, src0, bytes, src1.vector, bytes1, n);
  if (src2.vector != nullptr) {  // vector_op checks two sources; the third here
    require_vector_operand(this_core(), name, "src2", src2.vector, bytes);
    check_read(this_core(), name, src2.vector, bytes);
  }
  on_aligned(
      [op, n, scalar1 = src1.scalar, scalar2 = src2.scalar](T *d, const T *s0, const T *v1,
                                                            const T *v2) {
        const FusionOperand<T> s1{v1, scalar1}, s2{v2, scalar2};
        for (size_t i = 0; i < n; ++i) d[i] = fuse(op, s0[i], s1.at(i), s2.at(i));
      },
      Operand{dst, bytes}, Operand{src0, bytes}, Operand{src1.vector, bytes1},
      Operand{src2.vector, bytes2});
}

}  // namespace mlusim::detail

template <typename T, typename B, typename C>
void __bang_fusion(mlusimFusionOp_t op, T *dst, const T *src0, B src1, C src2, int count) {
  mlusim::detail::fusion<T>(op, dst, src0, mlusim::detail::fusion_operand<T>(src1),
                            mlusim::detail::fusion_operand<T>(src2), count);
}
// mlu-ops passes the element count twice; mlusim knows no meaning for two
// different counts and refuses them rather than guess.
template <typename T, typename B, typename C>
void __bang_fusion(mlusimFusionOp_t op, T *dst, const T *src0, B src1, C src2, int count,
                   int count_again) {
  if (count_again != count)
    mlusim::detail::fault(mlusim::this_core(),
                          "__bang_fusion: counts " + std::to_string(count) + " and " +
                              std::to_string(count_again) + " differ: not simulated yet");
  __bang_fusion(op, dst, src0, src1, src2, count);
}
