// The names declared in the blocks open at a token, for passes that rewrite
// the uses of a file-scope name: a local or parameter of that name hides it
// from its declaration to the end of its block (a parameter: of the function
// body that follows). Fed the tokens in order (step), it keeps the names of
// the open blocks, innermost last (a brace costs no allocation: STL headers
// have many); a pass stores what it needs about each name (an int).
#pragma once

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "tools/cncc/unit.h"

namespace mlusim::cncc {

class BlockNames {
 public:
  explicit BlockNames(const Unit &u) : u_(u) {}

  // Call for every token in order, before looking at it: opens and closes
  // blocks, notes the program's classes and typedefs as type names, and its
  // template parameters for as long as their template lasts (not the system
  // headers': thousands, none an on-chip name's type).
  void step(size_t i);

  // "T name", "T *name", "const T &name": the identifier at i is declared
  // there ("a * name" only when `a` is a type this knows).
  bool declares(size_t i) const;
  // The name at i is declared with `value`: in the body that follows if it is
  // a parameter, else in the innermost open block.
  void declare(size_t i, const std::string &name, int value);
  // The value of the innermost declaration of `name` in an open block.
  std::optional<int> find(const std::string &name) const;

  // A type: built-in or fixed-width ("_t"), half, or a template parameter,
  // class or alias in scope.
  bool is_type(std::string_view w) const;

 private:
  struct Name {
    std::string name;
    int value;
    size_t depth;  // of the block declaring it
  };
  const Unit &u_;
  std::vector<Name> names_;       // in the open blocks, innermost last
  std::vector<Name> parameters_;  // declared in parentheses, for the next body
  size_t depth_ = 0;              // open blocks
  std::set<std::string> type_names_;  // classes, enums, file- and namespace-scope aliases
  // Aliases ("using S = Space;", typedefs) declared in a function or class
  // body name a type to the end of that body only: a header's local "using C"
  // must not make "C * n" a pointer declaration in the program's code.
  std::vector<Name> local_types_;       // innermost last
  std::vector<bool> namespace_blocks_;  // per open block: a namespace's (or extern "C")
  size_t bodies_ = 0;                   // open blocks that are not namespaces'
  bool opens_namespace(size_t brace) const;
  void declare_type(std::string_view name);
  bool typedef_open_ = false;          // between "typedef" and its ';'
  // Template parameters name types in their template only: from "template <"
  // to the end of the declaration's body (or its ';').
  static constexpr size_t kUnscoped = ~size_t{0};  // the body has not opened yet
  void close_template_scope(size_t depth);
  std::vector<Name> template_types_;  // innermost last; depth: the body's
  int template_angles_ = 0;           // inside "template <...>": its '<' nesting
  bool template_open_ = false;        // parameters waiting for their declaration's body
};

// Keywords that may stand right before an expression: "return buf[0]" is a
// use of buf, not a declaration of it.
bool is_expression_keyword(std::string_view w);

}  // namespace mlusim::cncc
