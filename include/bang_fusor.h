/* bang_fusor.h: BANG C's fused-expression builder bang::experimental::fusor.
 * mlusim does not simulate it yet: the header exists so that a kernel including
 * it (and naming the template in an alias) compiles; a kernel that uses a
 * fusor fails to compile with a message naming it. */
#ifndef MLUSIM_BANG_FUSOR_H_
#define MLUSIM_BANG_FUSOR_H_

#include "bang.h"

namespace bang::experimental {

template <typename T>
class fusor {
  static_assert(sizeof(T) != sizeof(T),
                "mlusim: bang::experimental::fusor (bang_fusor.h) is not simulated yet "
                "(docs/bang_c_intrinsics.md)");
};

}  // namespace bang::experimental

#endif /* MLUSIM_BANG_FUSOR_H_ */
