// BANG's function qualifiers are dropped: a kernel is a plain function, a
// device function an inline one (it is defined in headers included by several
// .mlu files, as on the device, where each file is its own module).
#include "tools/cncc/passes/passes.h"

namespace mlusim::cncc {

void rewrite_function_qualifiers(Unit &u) {
  for (size_t i = 0; i < u.size(); ++i) {
    if (u[i].system || u[i].kind != Kind::kIdent) continue;
    const std::string_view w = u.text(i);
    if (!is_function_qualifier(w)) continue;
    const bool inline_nearby = u.is(i - 1, "inline") || u.is(i + 1, "inline") || u.is(i + 2, "inline");
    const bool is_inline = (w == "__mlu_func__" || w == "__mlu_device__") && !inline_nearby;
    u.replace(i, i, is_inline ? "inline" : "");
  }
}

}  // namespace mlusim::cncc
