// printf in device code is the device's printf: each core buffers its line and
// prints it whole (include/mlusim/bang/print.h).
#include "tools/cncc/passes/passes.h"

namespace mlusim::cncc {

void rewrite_device_printf(Unit &u) {
  for (size_t i = 0; i < u.size(); ++i)
    if (!u[i].system && u.is(i, "printf") && u.in_device(i) && u.is(i + 1, "(") &&
        !u.member_access_before(i))
      u.replace(i, i, "__bang_printf");
}

}  // namespace mlusim::cncc
