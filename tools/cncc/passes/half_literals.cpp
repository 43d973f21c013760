// BANG C's half literal "1.5h" is ((half)1.5).
#include <regex>

#include "tools/cncc/passes/passes.h"

namespace mlusim::cncc {

void rewrite_half_literals(Unit &u) {
  static const std::regex half(R"(^(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?[hH]$)");
  for (size_t i = 0; i < u.size(); ++i) {
    if (u[i].system || u[i].kind != Kind::kNumber) continue;
    const std::string s(u.text(i));
    if (std::regex_match(s, half)) u.replace(i, i, "((half)" + s.substr(0, s.size() - 1) + ")");
  }
}

}  // namespace mlusim::cncc
