// kernel<<<dim, type, queue>>>(args) -> ::mlusim::bang::launch(dim, type, queue,
// "kernel", "p.mlu:12", kernel, args) (include/mlusim/bang/detail/program.h).
// Also inside macros: the text is preprocessed. A kernel template launched
// without template arguments (or with some, when its parameters end in a pack)
// is passed as a generic lambda that calls it,
// ..., [](auto &...mlusim_arguments) { kernel(mlusim_arguments...); }, args),
// so its template arguments are deduced from the arguments as in any call.
#include <map>

#include "tools/cncc/passes/passes.h"

namespace mlusim::cncc {
namespace {

// In "ns::kernel<T, 4><<<", the '<' of the kernel's template arguments, or
// `open` (the first '<' of "<<<") when it has none: the kernel's name is right
// before it.
size_t after_kernel_name(const Unit &u, size_t open) {
  size_t j = open;
  if (j > 0 && u.is(j - 1, ">")) {
    int depth = 0;
    while (j > 0) {
      --j;
      if (u.is(j, ">")) ++depth;
      else if (u.is(j, "<") && --depth == 0) break;
    }
  }
  return j;
}

// The first token of the launched callee: "ns::kernel<T, 4>".
size_t callee_start(const Unit &u, size_t open) {
  size_t j = after_kernel_name(u, open);
  if (j > 0 && u[j - 1].kind == Kind::kIdent) --j;
  while (j >= 2 && u.is(j - 1, "::") && u[j - 2].kind == Kind::kIdent) j -= 2;
  if (j >= 1 && u.is(j - 1, "::")) --j;
  return j;
}

// The first '>' of the ">>>" closing the configuration that opens at `open`.
size_t configuration_end(const Unit &u, size_t open) {
  int depth = 0;
  size_t close = open + 3;
  for (; close < u.size(); ++close) {
    const std::string_view w = u.text(close);
    if (w == "(" || w == "[" || w == "{") ++depth;
    else if (w == ")" || w == "]" || w == "}") --depth;
    else if (depth == 0 && u.adjacent(close, 3, ">")) break;
  }
  return close;
}

// The kernels declared as templates in the unit ("template <typename T>
// __mlu_global__ void k(T *x)"), each with whether its parameters end in a
// pack ("typename... Args"), whose arguments a launch always deduces.
std::map<std::string, bool, std::less<>> template_kernels(const Unit &u) {
  std::map<std::string, bool, std::less<>> kernels;
  for (size_t i = 0; i < u.size(); ++i) {
    if (u[i].system || !(u.is(i, "__mlu_global__") || u.is(i, "__mlu_entry__"))) continue;
    size_t k = i;
    while (k > 0 && (u.is(k - 1, "static") || u.is(k - 1, "inline") || u.is(k - 1, "extern"))) --k;
    if (!u.is(k - 1, ">")) continue;
    size_t j = k - 1;  // back to the '<' of the template's parameters
    for (int depth = 0; j > 0; --j) {
      if (u.is(j, ">")) ++depth;
      else if (u.is(j, "<") && --depth == 0) break;
    }
    if (!u.is(j - 1, "template")) continue;
    bool variadic = false;
    for (size_t p = j; p < k - 1; ++p) variadic = variadic || u.adjacent(p, 3, ".");
    size_t paren = i + 1;
    while (paren < u.size() && !u.is(paren, "(") && !u.is(paren, ";") && !u.is(paren, "{")) ++paren;
    if (u.is(paren, "(") && u[paren - 1].kind == Kind::kIdent)
      kernels.emplace(u.text(paren - 1), variadic);
  }
  return kernels;
}

// Whether the launch at `open` deduces template arguments: "k<<<" of a kernel
// template, or "k<float><<<" of one whose parameters end in a pack.
bool deduces(const Unit &u, const std::map<std::string, bool, std::less<>> &templates,
             size_t open) {
  const size_t after_name = after_kernel_name(u, open);
  if (after_name == 0 || u[after_name - 1].kind != Kind::kIdent) return false;
  const auto kernel = templates.find(u.text(after_name - 1));
  return kernel != templates.end() && (after_name == open || kernel->second);
}

void launch(Unit &u, size_t open, bool deduced) {
  const size_t callee = callee_start(u, open);
  if (callee == open) return u.error(open, "'<<<' without a kernel before it");
  const size_t close = configuration_end(u, open);
  if (close >= u.size() || !u.is(close + 3, "("))
    return u.error(open, "kernel launch: expected '<<<dim, type, queue>>>(arguments)'");
  const size_t args_open = close + 3, args_close = u.matching(args_open);
  if (args_close >= u.size()) return u.error(open, "kernel launch: unbalanced '('");
  const bool has_args = args_close > args_open + 1;
  // Nested edits (e.g. a file-scope variable in an argument) stay valid: the
  // callee and arguments are kept in place, only the rest is rewritten.
  const std::string separator = has_args ? ", " : "";
  u.insert_before(callee, "::mlusim::bang::launch(" + u.span(open + 3, close) + ", " +
                              quoted(u.span(callee, open)) + ", " + quoted(u.where(open)) + ", " +
                              (deduced ? "[](auto &...mlusim_arguments) { " : ""));
  u.replace(open, args_open, deduced ? "(mlusim_arguments...); }" + separator : separator);
}

}  // namespace

void rewrite_launches(Unit &u) {
  const auto templates = template_kernels(u);
  for (size_t i = 0; i < u.size(); ++i)
    if (!u[i].system && u.adjacent(i, 3, "<")) launch(u, i, deduces(u, templates, i));
}

}  // namespace mlusim::cncc
