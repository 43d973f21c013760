// cncc's own pragmas, "#pragma unroll [n]" (a loop hint) and "#pragma bang ..."
// (device code generation, e.g. "walign(64)"), mean nothing on the simulator
// and are unknown pragmas to g++, which -Wall reports (mlu-ops builds with
// -Werror). They are dropped from user code; the line stays.
#include <cctype>

#include "tools/cncc/passes/passes.h"

namespace mlusim::cncc {
namespace {

// The words of a directive's text "#  pragma  bang walign(64)": "pragma", "bang".
std::string_view word_at(std::string_view d, size_t *p) {
  while (*p < d.size() && (d[*p] == ' ' || d[*p] == '\t')) ++*p;
  const size_t begin = *p;
  while (*p < d.size() && (std::isalnum(static_cast<unsigned char>(d[*p])) || d[*p] == '_')) ++*p;
  return d.substr(begin, *p - begin);
}

bool is_device_pragma(std::string_view directive) {
  size_t p = 1;  // after '#'
  if (word_at(directive, &p) != "pragma") return false;
  const std::string_view name = word_at(directive, &p);
  return name == "unroll" || name == "bang";
}

}  // namespace

void drop_device_pragmas(Unit &u) {
  for (size_t i = 0; i < u.size(); ++i)
    if (!u[i].system && u[i].kind == Kind::kDirective && is_device_pragma(u.text(i)))
      u.replace(i, i, "");
}

}  // namespace mlusim::cncc
