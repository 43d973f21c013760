#include "tools/cncc/translate.h"

#include "tools/cncc/passes/passes.h"
#include "tools/cncc/unit.h"

namespace mlusim::cncc {
namespace {

// The passes, in the order they run. Each reads the original tokens; a later
// pass may read what an earlier one found (unit.onchip), never its output.
constexpr void (*kPasses[])(Unit &) = {
    rewrite_function_qualifiers,
    rewrite_onchip_declarations,  // fills unit.onchip
    count_scalar_work,            // reads unit.onchip; its braces open before any access
    wrap_scalar_accesses,         // reads unit.onchip
    rewrite_launches,
    translate_inline_assembly,
    rewrite_device_printf,
    mark_intrinsic_lines,
    rewrite_half_literals,
    drop_device_pragmas,
};

}  // namespace

Translation translate(std::string_view preprocessed) {
  Unit unit(preprocessed);
  for (auto pass : kPasses) pass(unit);
  return unit.finish();
}

}  // namespace mlusim::cncc
