// The shape of the C++ around a token, as far as the passes that see scalar
// code need it (scalar_accesses.cpp, scalar_work.cpp): where an operand or a
// postfix expression begins and ends, whether a '*' or '&' is unary, binary
// or part of a declarator, whether a name is being declared, where a
// statement ends. Token-level guesses, made in the direction that leaves text
// alone when unsure: a missed access costs accounting, a wrong one a compile
// error. Linemarkers inside an expression (around macros from system headers)
// are skipped.
#pragma once

#include <string_view>

#include "tools/cncc/block_names.h"
#include "tools/cncc/unit.h"

namespace mlusim::cncc {

class Expressions {
 public:
  // `names` is followed by the caller (BlockNames::step), so that the types
  // it knows are those declared before the token asked about.
  Expressions(const Unit &u, const BlockNames &names) : u_(u), names_(names) {}

  // The neighbouring token that is not a linemarker, or u.size().
  size_t prev(size_t i) const;
  size_t next(size_t i) const;
  bool is(size_t i, std::string_view w) const { return u_.is(i, w); }
  // The '(' or '[' that the ')' or ']' at close closes, or u.size().
  size_t matching_back(size_t close) const;

  // The token at k ends an operand: a name that is no keyword, a literal,
  // ')', ']', a postfix ++ or --.
  bool ends_operand(size_t k) const;
  // The token at k can start an operand.
  bool starts_operand(size_t k) const;
  // What a '*' (or '&') at k is.
  enum class Star { kUnary, kBinary, kDeclarator };
  Star star(size_t k) const;
  // The ')' at close ends a C cast: "(T *)", "(const T &)", "(unsigned int)".
  bool closes_cast(size_t close) const;
  // The identifier at name is being declared: "T name", "T *name",
  // "Foo<T> name", ", *name" in a declaration, "(*name)" of a function pointer.
  bool declares(size_t name) const;

  // The first token of the postfix expression (a name, a call, a
  // parenthesised expression, and their subscripts and members) whose last
  // token is `last`, or u.size() when it is not one.
  size_t chain_start(size_t last) const;
  // The last token of the postfix expression whose primary ends at `last`.
  size_t postfix_end(size_t last) const;
  // The last token of the unary or cast expression starting at `first`, or u.size().
  size_t operand_end(size_t first) const;
  // "sizeof(", "decltype(", "asm volatile(", "[[", "__attribute__((": text
  // starting at i that is never evaluated as kernel code; its last token, or u.size().
  size_t unevaluated_end(size_t i) const;
  // The last token of the statement starting at `first` ("{...}", "if (...)
  // ... else ...", "for (...) ...", "x = y;"), or u.size().
  size_t statement_end(size_t first) const;
  // The '>' ending the template arguments that open at the '<' at lt
  // ("static_cast<int>(", "f<T, 4>(", "S<T>::"), or u.size() for a comparison.
  size_t template_arguments_end(size_t lt) const;

 private:
  bool is_name(size_t k) const;  // an identifier that is no keyword
  // The ')' at close ends the condition of an if, for, while, switch.
  bool closes_condition(size_t close) const;
  bool is_type_word(size_t k) const;
  bool type_starts_statement(size_t type_last) const;
  bool in_declaration_list(size_t comma) const;
  bool is_initializer_brace(size_t open) const;

  const Unit &u_;
  const BlockNames &names_;
};

// Keywords that are no value: "return x", "int x", "sizeof x", "new T".
bool is_keyword(std::string_view w);

// The tokens that run as kernel code, for the passes that see scalar code:
// those of device functions' bodies, but not system headers' (mlusim's own),
// linemarkers, on-chip declarations (their pass rewrites them whole),
// unevaluated operands (sizeof, decltype), attributes and asm statements.
class KernelCode {
 public:
  KernelCode(const Unit &u, BlockNames &names, const Expressions &x) : u_(u), names_(names), x_(x) {}
  // Call for every token in order (it steps `names`): whether token i is one.
  bool visit(size_t i);

 private:
  const Unit &u_;
  BlockNames &names_;
  const Expressions &x_;
  size_t skip_until_ = 0, next_declaration_ = 0;
  bool skipping_ = false;
};

}  // namespace mlusim::cncc
