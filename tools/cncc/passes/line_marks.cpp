// An intrinsic call in device code first records its .mlu line, so that a
// fault names it: __bang_add(...) ->
// (::mlusim::bang::at("p.mlu:7" "\0" "3"), __bang_add(...)). The column
// after the string's end makes each call a site of its own for the race
// check: two calls on one line make runs of their own.
#include "tools/cncc/passes/passes.h"

namespace mlusim::cncc {
namespace {

// The calls that check their operands and may fault or log an access naming
// their line: every intrinsic of include/mlusim/bang/ but the pure functions
// (__is_mpu, __float2int_rn, __cn_scalar_sin_f32, ...). A call left out runs
// with the line of the intrinsic before it, perhaps in another function.
bool is_intrinsic(std::string_view w) {
  for (std::string_view prefix :
       {"__bang_", "__memcpy", "__sync", "__nramset", "__gdramset", "__ldramset", "__sramset",
        "__memset_", "__load_", "__store_", "__gather", "__vv_", "__cn_vector_", "__mluop_"})
    if (w.substr(0, prefix.size()) == prefix) return true;
  return false;
}

// The '(' of the call whose callee starts at i ("f(", "f<T, 4>("), or size().
size_t call_paren(const Unit &u, size_t i) {
  size_t call = i + 1;
  if (u.is(call, "<")) {  // explicit template arguments
    int depth = 0;
    for (; call < u.size(); ++call) {
      if (u.is(call, "<")) ++depth;
      else if (u.is(call, ">") && --depth == 0) break;
    }
    ++call;
  }
  return u.is(call, "(") ? call : u.size();
}

}  // namespace

void mark_intrinsic_lines(Unit &u) {
  for (size_t i = 0; i < u.size(); ++i) {
    if (u[i].system || u[i].kind != Kind::kIdent || !u.in_device(i)) continue;
    if (!is_intrinsic(u.text(i)) || u.member_access_before(i) || (i > 0 && u.is(i - 1, "&")))
      continue;
    const size_t call = call_paren(u, i);
    if (call >= u.size()) continue;
    const size_t close = u.matching(call);
    if (close >= u.size()) continue;
    u.insert_before(i, "(::mlusim::bang::at(" + u.site_literal(i) + "), ");
    u.insert_after(close, ")");
  }
}

}  // namespace mlusim::cncc
