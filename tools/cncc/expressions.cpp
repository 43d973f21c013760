#include "tools/cncc/expressions.h"

namespace mlusim::cncc {

bool is_keyword(std::string_view w) {
  for (std::string_view k :
       {"alignas", "alignof", "asm", "auto", "bool", "break", "case", "catch", "char", "class",
        "co_await", "co_return", "co_yield", "concept", "const", "consteval", "constexpr",
        "constinit", "continue", "decltype", "default", "delete", "do", "double", "else", "enum",
        "explicit", "extern", "float", "for", "friend", "goto", "if", "inline", "int", "long",
        "mutable", "namespace", "new", "noexcept", "operator", "private", "protected", "public",
        "register", "requires", "return", "short", "signed", "sizeof", "static",
        "static_assert", "struct", "switch", "template", "thread_local", "throw", "try",
        "typedef", "typeid", "typename", "union", "unsigned", "using", "virtual", "void",
        "volatile", "while", "__asm__", "__asm", "__attribute__", "__typeof__", "typeof",
        "__alignof__", "__restrict__", "__restrict", "__volatile__", "__extension__"})
    if (w == k) return true;
  return false;
}

namespace {

// Words that may stand between a declaration's start and its type.
bool is_specifier(std::string_view w) {
  for (std::string_view k : {"const", "volatile", "static", "constexpr", "register", "extern",
                             "inline", "thread_local", "typename", "struct", "class", "union",
                             "enum", "unsigned", "signed", "long", "short", "mutable",
                             "__restrict__", "__extension__"})
    if (w == k) return true;
  return false;
}

// Between a declarator's '*' or '&' and its name.
bool is_declarator_word(std::string_view w) {
  return w == "*" || w == "&" || w == "const" || w == "volatile" || w == "__restrict__" ||
         w == "__restrict";
}

}  // namespace

size_t Expressions::prev(size_t i) const {
  while (i > 0 && i < u_.size()) {
    --i;
    if (u_[i].kind != Kind::kDirective) return i;
  }
  return u_.size();
}

size_t Expressions::next(size_t i) const {
  for (++i; i < u_.size(); ++i)
    if (u_[i].kind != Kind::kDirective) return i;
  return u_.size();
}

size_t Expressions::matching_back(size_t close) const {
  const std::string_view c = u_.text(close);
  const std::string_view open = c == ")" ? "(" : c == "]" ? "[" : "{";
  int depth = 0;
  for (size_t k = close + 1; k-- > 0;) {
    if (u_.text(k) == c) ++depth;
    else if (u_.text(k) == open && --depth == 0) return k;
  }
  return u_.size();
}

bool Expressions::is_name(size_t k) const {
  return k < u_.size() && u_[k].kind == Kind::kIdent && !is_keyword(u_.text(k));
}

bool Expressions::is_type_word(size_t k) const {
  return k < u_.size() && u_[k].kind == Kind::kIdent && names_.is_type(u_.text(k));
}

bool Expressions::ends_operand(size_t k) const {
  if (k >= u_.size()) return false;
  const Kind kind = u_[k].kind;
  if (kind == Kind::kNumber || kind == Kind::kLiteral) return true;
  if (kind == Kind::kIdent) return is_name(k) && !names_.is_type(u_.text(k));
  if (is(k, ")")) return !closes_condition(k);
  if (is(k, "]")) return true;
  if (is(k, "}")) {  // "int64_t{x}", "Foo<T>{x}": a value; a block's end is none
    const size_t before = prev(matching_back(k));
    return is_name(before) || is_type_word(before) || is(before, ">");
  }
  // "x++": the second '+' of a pair right after an operand.
  if ((is(k, "+") || is(k, "-")) && k > 0 && u_.adjacent(k - 1, 2, u_.text(k)))
    return ends_operand(prev(k - 1));
  return false;
}

bool Expressions::starts_operand(size_t k) const {
  if (k >= u_.size()) return false;
  const Kind kind = u_[k].kind;
  if (kind == Kind::kNumber || kind == Kind::kLiteral) return true;
  if (kind == Kind::kIdent)
    return !is_keyword(u_.text(k)) || is(k, "sizeof") || is(k, "alignof") || is(k, "new");
  for (std::string_view w : {"(", "*", "&", "+", "-", "!", "~", "::"})
    if (is(k, w)) return true;
  return false;
}

bool Expressions::closes_cast(size_t close) const {
  const size_t open = matching_back(close);
  if (open >= u_.size() || next(open) == close) return false;
  const size_t before = prev(open);
  // "sizeof(int)", "f(T)": a call's or an operator's parentheses, not a cast.
  if (ends_operand(before) || is(before, "sizeof") || is(before, "alignof") ||
      is(before, "decltype") || is(before, "__typeof__") || is(before, "typeof") ||
      is(before, "alignas") || is(before, "noexcept") || is_type_word(before))
    return false;
  const size_t last = prev(close);
  if (is(last, "*") || is(last, "&")) return true;
  // "(T)", "(unsigned int)", "(const float)": every word a type or a specifier.
  for (size_t k = next(open); k < close; k = next(k))
    if (u_[k].kind != Kind::kIdent || (!names_.is_type(u_.text(k)) && !is_specifier(u_.text(k))))
      return false;
  return true;
}

Expressions::Star Expressions::star(size_t k) const {
  size_t after = next(k);
  while (after < u_.size() && is_declarator_word(u_.text(after))) after = next(after);
  if (after < u_.size() && u_[after].kind == Kind::kIdent && declares(after))
    return Star::kDeclarator;
  const size_t p = prev(k);
  if (p >= u_.size()) return Star::kUnary;
  // "&&": one logical operator.
  if (is(k, "&") && k + 1 < u_.size() && u_.adjacent(k, 2, "&")) return Star::kBinary;
  if (is(k, "&") && k > 0 && u_.adjacent(k - 1, 2, "&")) return Star::kBinary;
  if (is(p, ".") || is(p, "->") || is(p, "::") || is(p, "operator")) return Star::kBinary;
  if (!starts_operand(next(k))) return Star::kDeclarator;  // a type's: "(float *)", "<T *>"
  if (is(p, ")") && closes_cast(p)) return Star::kUnary;
  return ends_operand(p) ? Star::kBinary : Star::kUnary;
}

bool Expressions::closes_condition(size_t close) const {
  const size_t open = matching_back(close);
  const size_t keyword = open < u_.size() ? prev(open) : u_.size();
  return is(keyword, "if") || is(keyword, "for") || is(keyword, "while") ||
         is(keyword, "switch") || is(keyword, "catch") ||
         (is(keyword, "constexpr") && is(prev(keyword), "if"));
}

bool Expressions::declares(size_t name) const {
  size_t p = prev(name);
  bool pointer = false;
  while (p < u_.size() && is_declarator_word(u_.text(p))) {
    pointer |= is(p, "*") || is(p, "&");
    p = prev(p);
  }
  if (p >= u_.size()) return false;
  if (u_[p].kind == Kind::kIdent) {
    const std::string_view type = u_.text(p);
    if (is_expression_keyword(type) || type == "goto" || type == "new" || type == "delete" ||
        type == "operator" || type == "typeid" || type == "co_await")
      return false;
    // Two names side by side only occur in a declaration; "a * b" may be a product.
    return !pointer || names_.is_type(type) || is_keyword(type) || type_starts_statement(p);
  }
  if (is(p, ">")) return type_starts_statement(p);
  if (is(p, ",")) return in_declaration_list(p);
  // "void (*fp)(int)": a function pointer's declarator.
  if (is(p, "(")) return pointer && is_type_word(prev(p));
  return false;
}

// The type whose last token is type_last begins a statement ("Foo *p;",
// "std::vector<int> v[2];", "for (Foo *p = ...", "static const Foo *p").
bool Expressions::type_starts_statement(size_t type_last) const {
  size_t first = type_last;
  if (is(first, ">")) {
    int depth = 0;
    for (; first < u_.size(); first = prev(first)) {
      if (is(first, ">")) ++depth;
      else if (is(first, "<") && --depth == 0) break;
      else if (is(first, ";") || is(first, "{") || is(first, "}") || is(first, "(") ||
               is(first, ")") || is(first, "=") || is(first, "?"))
        return false;
    }
    first = prev(first);
  }
  if (first >= u_.size() || u_[first].kind != Kind::kIdent) return false;
  while (is(prev(first), "::") && prev(prev(first)) < u_.size() &&
         u_[prev(prev(first))].kind == Kind::kIdent)
    first = prev(prev(first));
  size_t p = prev(first);
  while (p < u_.size() && u_[p].kind == Kind::kIdent && is_specifier(u_.text(p))) p = prev(p);
  if (p >= u_.size() || is(p, ";") || is(p, "{") || is(p, "}")) return true;
  // "for (Foo *p = ...": a declaration (one in an if's or while's condition is
  // taken for a product: rare, and then only left alone).
  return is(p, "(") && is(prev(p), "for");
}

bool Expressions::is_initializer_brace(size_t open) const {
  const size_t p = prev(open);
  return is(p, "=") || is(p, ",") || is(p, "(") || is(p, "return") || is(p, "[") ||
         is_name(p) || is(p, ">");
}

// The ',' at comma separates the declarators of one declaration ("int a = 0,
// *p;", "for (T *a = x, *b = y; ...").
bool Expressions::in_declaration_list(size_t comma) const {
  size_t k = prev(comma), start = 0;
  for (; k < u_.size(); k = prev(k)) {
    if (is(k, ")") || is(k, "]")) {
      k = matching_back(k);
      if (k >= u_.size()) return false;
      continue;
    }
    if (is(k, "}")) {
      const size_t open = matching_back(k);
      if (open >= u_.size()) return false;
      if (is_initializer_brace(open)) {
        k = open;
        continue;
      }
      break;
    }
    if (is(k, ";") || is(k, "{")) break;
    if (is(k, "(")) {
      if (!is(prev(k), "for")) return false;  // an argument list
      break;
    }
    if (is(k, "[")) return false;
  }
  start = k < u_.size() ? next(k) : 0;
  bool sized = false;  // "long long a, *b": the type is all specifiers
  while (start < u_.size() && u_[start].kind == Kind::kIdent && is_specifier(u_.text(start))) {
    sized |= is(start, "long") || is(start, "short") || is(start, "unsigned") || is(start, "signed");
    start = next(start);
  }
  if (sized && is_name(start) && (is(next(start), "=") || is(next(start), ",")))
    return true;
  // The type: a name, "ns::name", "name<...>", "unsigned int".
  if (start >= u_.size() || u_[start].kind != Kind::kIdent || is_expression_keyword(u_.text(start)))
    return false;
  size_t t = start;
  for (;;) {
    const size_t n = next(t);
    if (is(n, "::") && next(n) < u_.size() && u_[next(n)].kind == Kind::kIdent) {
      t = next(n);
    } else if (is(n, "<")) {
      const size_t close = template_arguments_end(n);
      if (close >= u_.size()) return false;
      t = close;
    } else if (n < u_.size() && u_[n].kind == Kind::kIdent && names_.is_type(u_.text(t)) &&
               names_.is_type(u_.text(n))) {
      t = n;  // "unsigned int", "long long"
    } else {
      break;
    }
  }
  size_t d = next(t);
  while (d < u_.size() && is_declarator_word(u_.text(d))) d = next(d);
  if (d >= u_.size() || u_[d].kind != Kind::kIdent || is_keyword(u_.text(d))) return false;
  const size_t after = next(d);
  return is(after, "=") || is(after, ",") || is(after, "[") || is(after, ";") ||
         is(after, "(") || is(after, "{") || is(after, ":");
}

size_t Expressions::template_arguments_end(size_t lt) const {
  const size_t before = prev(lt);
  const bool cast = is(before, "static_cast") || is(before, "reinterpret_cast") ||
                    is(before, "const_cast") || is(before, "dynamic_cast");
  if (!cast && (before >= u_.size() || u_[before].kind != Kind::kIdent)) return u_.size();
  int depth = 0;
  for (size_t k = lt; k < u_.size(); k = next(k)) {
    const std::string_view w = u_.text(k);
    if (w == "<") {
      ++depth;
    } else if (w == ">") {
      if (--depth > 0) continue;
      const size_t after = next(k);
      return cast || is(after, "(") || is(after, "::") || is(after, "{") ? k : u_.size();
    } else if (w == "(" || w == "[") {
      k = u_.matching(k);
      if (k >= u_.size()) return k;
    } else if (w == ";" || w == "{" || w == "}" || w == ")" || w == "]" || w == "?" ||
               (w == "&" && u_.adjacent(k, 2, "&")) || (w == "|" && u_.adjacent(k, 2, "|"))) {
      return u_.size();
    }
  }
  return u_.size();
}

size_t Expressions::chain_start(size_t last) const {
  size_t k = last;
  while (k < u_.size()) {
    if (is(k, ")")) {
      const size_t open = matching_back(k);
      if (open >= u_.size()) return u_.size();
      const size_t callee = prev(open);
      // "f(x)[i]", "a[i](x)", "static_cast<T *>(p)[i]": a call; else a parenthesised primary.
      if (is_name(callee) || is(callee, "]") || is(callee, ")") || is(callee, ">") ||
          is(callee, "static_cast") || is(callee, "reinterpret_cast") ||
          is(callee, "const_cast")) {
        if (is(callee, ")") && closes_cast(callee)) return open;  // "(T)(x)[i]"
        k = callee;
        continue;
      }
      if (is(callee, "}")) return u_.size();  // a lambda called on the spot
      return open;
    }
    if (is(k, "]")) {
      const size_t open = matching_back(k);
      const size_t base = prev(open);
      if (open >= u_.size() || !(ends_operand(base))) return u_.size();
      k = base;
      continue;
    }
    if (is(k, ">")) {  // the template arguments of a callee
      int depth = 0;
      for (; k < u_.size(); k = prev(k)) {
        if (is(k, ">")) ++depth;
        else if (is(k, "<") && --depth == 0) break;
        else if (is(k, ";") || is(k, "{") || is(k, "}")) return u_.size();
      }
      k = prev(k);
      if (!is_name(k) && !is(k, "static_cast") && !is(k, "reinterpret_cast") &&
          !is(k, "const_cast"))
        return u_.size();
      continue;
    }
    if (is_name(k) || is(k, "this") || is(k, "static_cast") || is(k, "reinterpret_cast") ||
        is(k, "const_cast")) {
      const size_t p = prev(k);
      if (is(p, ".") || is(p, "->")) {
        k = prev(p);
        continue;
      }
      if (is(p, "::")) {
        const size_t scope = prev(p);
        if (is_name(scope) || is(scope, ">")) {
          k = scope;
          continue;
        }
        return p;  // "::name"
      }
      return k;
    }
    if (u_[k].kind == Kind::kLiteral || u_[k].kind == Kind::kNumber) return k;
    return u_.size();
  }
  return u_.size();
}

size_t Expressions::postfix_end(size_t last) const {
  for (;;) {
    const size_t n = next(last);
    if (is(n, "[") && !u_.adjacent(n, 2, "[")) {
      last = u_.matching(n);
    } else if (is(n, "(")) {
      last = u_.matching(n);
    } else if ((is(n, ".") || is(n, "->")) && is_name(next(n))) {
      last = next(n);
    } else if ((is(n, "+") || is(n, "-")) && u_.adjacent(n, 2, u_.text(n))) {
      last = n + 1;
    } else {
      return last;
    }
    if (last >= u_.size()) return last;
  }
}

size_t Expressions::operand_end(size_t first) const {
  if (first >= u_.size()) return u_.size();
  const std::string_view w = u_.text(first);
  if (w == "*" || w == "&" || w == "+" || w == "-" || w == "!" || w == "~")
    return operand_end(next(first));
  if (w == "sizeof" || w == "alignof") {
    const size_t n = next(first);
    return is(n, "(") ? u_.matching(n) : operand_end(n);
  }
  if (w == "(") {
    const size_t close = u_.matching(first);
    if (close >= u_.size()) return close;
    if (closes_cast(close) && starts_operand(next(close))) return operand_end(next(close));
    return postfix_end(close);
  }
  if (w == "static_cast" || w == "reinterpret_cast" || w == "const_cast") {
    const size_t close = template_arguments_end(next(first));
    if (close >= u_.size() || !is(next(close), "(")) return u_.size();
    return postfix_end(u_.matching(next(close)));
  }
  size_t k = first;
  if (w == "::") k = next(k);
  if (!is_name(k) && !is(k, "this") && (k >= u_.size() || (u_[k].kind != Kind::kNumber &&
                                                           u_[k].kind != Kind::kLiteral)))
    return u_.size();
  while (is(next(k), "::") && is_name(next(next(k)))) k = next(next(k));
  return postfix_end(k);
}

size_t Expressions::unevaluated_end(size_t i) const {
  if (is(i, "[") && u_.adjacent(i, 2, "[")) {  // an attribute
    const size_t close = u_.matching(i);
    return close < u_.size() ? close : u_.size();
  }
  if (i >= u_.size() || u_[i].kind != Kind::kIdent) return u_.size();
  const std::string_view w = u_.text(i);
  size_t open = next(i);
  if (w == "asm" || w == "__asm__" || w == "__asm") {
    while (is(open, "volatile") || is(open, "__volatile__") || is(open, "goto") ||
           is(open, "inline"))
      open = next(open);
  } else if (w != "sizeof" && w != "alignof" && w != "__alignof__" && w != "decltype" &&
             w != "typeof" && w != "__typeof__" && w != "__typeof" && w != "typeid" &&
             w != "noexcept" && w != "static_assert" && w != "alignas" &&
             w != "__attribute__" && w != "requires") {
    return u_.size();
  }
  return is(open, "(") ? u_.matching(open) : u_.size();
}

size_t Expressions::statement_end(size_t first) const {
  if (first >= u_.size()) return first;
  const std::string_view w = u_.text(first);
  if (w == "{") return u_.matching(first);
  if (w == "for" || w == "while" || w == "switch" || w == "if") {
    size_t open = next(first);
    if (is(open, "constexpr")) open = next(open);
    if (!is(open, "(")) return u_.size();
    const size_t body_end = statement_end(next(u_.matching(open)));
    if (w == "if" && is(next(body_end), "else")) return statement_end(next(next(body_end)));
    return body_end;
  }
  if (w == "do") {
    const size_t body_end = statement_end(next(first));
    const size_t keyword = next(body_end);
    if (!is(keyword, "while") || !is(next(keyword), "(")) return u_.size();
    const size_t semicolon = next(u_.matching(next(keyword)));
    return is(semicolon, ";") ? semicolon : u_.size();
  }
  if (w == "try" || w == "case" || w == "default" || w == "}") return u_.size();
  for (size_t k = first; k < u_.size(); k = next(k)) {
    const std::string_view t = u_.text(k);
    if (t == "(" || t == "[" || t == "{") {
      k = u_.matching(k);
      if (k >= u_.size()) return k;
    } else if (t == ";") {
      return k;
    } else if (t == "}" || t == ")" || t == "]") {
      return u_.size();
    }
  }
  return u_.size();
}

bool KernelCode::visit(size_t i) {
  names_.step(i);
  if (skipping_ && i <= skip_until_) return false;
  skipping_ = false;
  if (!u_.in_device(i) || u_[i].system || u_[i].kind == Kind::kDirective) return false;
  while (next_declaration_ < u_.onchip.size() && u_.onchip[next_declaration_].last < i)
    ++next_declaration_;
  const size_t end = next_declaration_ < u_.onchip.size() && u_.onchip[next_declaration_].first == i
                         ? u_.onchip[next_declaration_].last
                         : x_.unevaluated_end(i);
  if (end >= u_.size()) return true;
  skip_until_ = end, skipping_ = true;
  return false;
}

}  // namespace mlusim::cncc
