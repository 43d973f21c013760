// BANG's function qualifiers are dropped: a kernel (__mlu_global__,
// __mlu_entry__) is a plain function, launchable from other files; a device
// function (__mlu_func__, __mlu_device__, __mlu_vector__) an inline one, and
// at namespace scope a static inline one: on the device each .mlu file is its
// own module, so two files may define different helpers of one name (and each
// helper sees its own file's on-chip variables); in one host program only
// internal linkage keeps them apart.
#include "tools/cncc/passes/passes.h"

namespace mlusim::cncc {
namespace {

bool is_device_function_qualifier(std::string_view w) {
  return w == "__mlu_func__" || w == "__mlu_device__" || w == "__mlu_vector__";
}

// Whether `keyword` is among the declaration's specifiers next to the qualifier at i.
bool specified(const Unit &u, size_t i, std::string_view keyword) {
  return u.is(i - 1, keyword) || u.is(i - 2, keyword) || u.is(i + 1, keyword) ||
         u.is(i + 2, keyword);
}

// The specifiers before the qualifier at i start at the returned token.
size_t specifiers_start(const Unit &u, size_t i) {
  while (i > 0 && (u.is(i - 1, "inline") || u.is(i - 1, "static"))) --i;
  return i;
}

// "template __mlu_func__ void f<float>(float);": an explicit instantiation,
// which takes neither inline nor a storage class.
bool explicit_instantiation(const Unit &u, size_t i) {
  return u.is(specifiers_start(u, i) - 1, "template");
}

// "template <> __mlu_func__ ...": an explicit specialization, no storage class.
bool explicit_specialization(const Unit &u, size_t i) {
  const size_t k = specifiers_start(u, i);
  return u.is(k - 1, ">") && u.is(k - 2, "<") && u.is(k - 3, "template");
}

// "S::f(" or "ns::f(": the function declared after the qualifier at i is
// defined out of its class or namespace, where no storage class is allowed.
bool qualified_name(const Unit &u, size_t i) {
  size_t paren = i + 1;
  while (paren < u.size() && !u.is(paren, "(") && !u.is(paren, ";") && !u.is(paren, "{")) ++paren;
  if (!u.is(paren, "(") || paren < i + 3) return false;
  const size_t name = u.is(paren - 2, "operator") ? paren - 2 : paren - 1;
  return u.is(name - 1, "::");
}

std::string c_function(const Unit &u, size_t i) {
  const std::string_view w = u.text(i);
  if (!is_device_function_qualifier(w) || explicit_instantiation(u, i)) return "";
  const std::string inline_keyword = specified(u, i, "inline") ? "" : "inline";
  if (!u.at_namespace_scope(i) || specified(u, i, "static") || specified(u, i, "extern") ||
      specified(u, i, "friend") || explicit_specialization(u, i) || qualified_name(u, i))
    return inline_keyword;
  // Unused, it is no warning: on the device it has external linkage.
  return "static __attribute__((unused)) " + inline_keyword;
}

}  // namespace

void rewrite_function_qualifiers(Unit &u) {
  for (size_t i = 0; i < u.size(); ++i)
    if (!u[i].system && u[i].kind == Kind::kIdent && is_function_qualifier(u.text(i)))
      u.replace(i, i, c_function(u, i));
}

}  // namespace mlusim::cncc
