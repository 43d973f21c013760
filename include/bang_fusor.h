/* bang_fusor.h: BANG C's fused-expression builder bang::experimental::fusor,
 * as mlu-ops r1.11's adam_w writes it:
 *
 *   bang_fusor<float>(dst, src, n).mul(a).sqrt().add(b);   // dst = sqrt(src * a) + b
 *
 * The constructor names the n elements of NRAM the chain reads (src) and
 * writes (dst); each step applies one operation to what the chain holds, the
 * first to src, the others to dst. mlusim runs each step as the vector
 * intrinsic of the same name (same checks, same rounding, one instruction's
 * time each): the device may fuse the chain into fewer passes, so its time
 * here is an upper bound. The steps are those mlu-ops calls (mul, add, sub
 * by a scalar; sqrt; ge by a scalar, 1 or 0); another is a compile error
 * naming it, as an unknown member is. */
#ifndef MLUSIM_BANG_FUSOR_H_
#define MLUSIM_BANG_FUSOR_H_

#include "bang.h"

namespace bang::experimental {

template <typename T>
class fusor {
 public:
  fusor(T *dst, const T *src, int count) : dst_(dst), current_(src), count_(count) {}

  fusor &mul(T s) { return step(__bang_mul_scalar<T>, s); }
  fusor &add(T s) { return step(__bang_add_scalar<T>, s); }
  fusor &sub(T s) { return step(__bang_sub_scalar<T>, s); }
  fusor &ge(T s) { return step(__bang_ge_scalar<T>, s); }
  fusor &sqrt() {
    __bang_sqrt(dst_, current_, count_);
    current_ = dst_;
    return *this;
  }

 private:
  template <typename Intrinsic>
  fusor &step(Intrinsic intrinsic, T s) {
    intrinsic(dst_, current_, s, count_);
    current_ = dst_;
    return *this;
  }

  T *dst_;
  const T *current_;
  int count_;
};

}  // namespace bang::experimental

#endif /* MLUSIM_BANG_FUSOR_H_ */
