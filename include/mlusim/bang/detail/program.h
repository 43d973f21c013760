// What mlusim-cncc's translation of a .mlu file calls: the
// kernel<<<dim, type, queue>>>(args) launch, the source line of the intrinsic a
// core is running (for fault messages), on-chip variables
// (detail/onchip_variables.h) and scalar code (detail/scalar_code.h).
#pragma once

// Internal to mlusim (the simulated core and the translator's target): kernels
// include <bang.h>, the simulator's own sources are built with MLUSIM_INTERNAL.
#if !defined(MLUSIM_BANG_H_) && !defined(MLUSIM_INTERNAL)
#error "mlusim/bang/detail/ headers are internal: include <bang.h>"
#endif

#include <functional>
#include <tuple>
#include <type_traits>
#include <utility>

#include "cnrt.h"
#include "mlusim/bang/detail/core.h"
#include "mlusim/bang/detail/onchip_variables.h"
#include "mlusim/bang/detail/scalar_code.h"

namespace mlusim::bang {

// Marks the .mlu line of the intrinsic the core is about to run.
inline void at(const char *where) {
  if (detail::tls_core != nullptr) detail::tls_core->where = where;
}

// Runs a translated kernel<<<dim, type, queue>>>(args) launch. Errors are
// reported as CNRT reports them (cnrtGetLastError) and logged.
void run_launch(const char *kernel, const char *where, cnrtDim3_t dim, cnrtFunctionType_t type,
                cnrtQueue_t queue, const std::function<void()> &body);

template <typename... Params, typename... Args>
void launch(cnrtDim3_t dim, cnrtFunctionType_t type, cnrtQueue_t queue, const char *kernel_name,
            const char *where, void (*kernel)(Params...), Args &&...args) {
  static_assert(sizeof...(Params) == sizeof...(Args),
                "kernel<<<...>>>(args): the number of arguments differs from the kernel's");
  // Arguments pass by value, converted to the kernel's parameter types once.
  std::tuple<std::decay_t<Params>...> values(std::forward<Args>(args)...);
  run_launch(kernel_name, where, dim, type, queue, [&] { std::apply(kernel, values); });
}

// A kernel template launched without template arguments: mlusim-cncc passes a
// generic lambda that calls it, so its template arguments are deduced from the
// arguments as in any call. Arguments are evaluated once and kept by value;
// each core's call converts them to the parameter types (the same values each
// time), and a wrong argument count is the call's "no matching function".
template <typename Call, typename... Args>
  requires std::is_class_v<Call>
void launch(cnrtDim3_t dim, cnrtFunctionType_t type, cnrtQueue_t queue, const char *kernel_name,
            const char *where, Call call, Args &&...args) {
  std::tuple<std::decay_t<Args>...> values(std::forward<Args>(args)...);
  run_launch(kernel_name, where, dim, type, queue, [&] { std::apply(call, values); });
}

// Selects the preset the program was built for (mlusim-cncc maps
// --bang-mlu-arch to it), unless MLUSIM_DEVICE chooses one. Returns true so it
// can initialise a static.
bool use_device(const char *preset);

}  // namespace mlusim::bang
