// The preprocessed translation unit the translation passes share: its tokens
// (lexer.h), where each token stands (inside a device function's body, any
// function's body, a parenthesis), the edits the passes make and the errors
// they find. Passes read the original tokens only; their edits are applied
// once, together, at the end (so one pass's rewrite never hides a token from
// the next).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "tools/cncc/lexer.h"
#include "tools/cncc/translate.h"

namespace mlusim::cncc {

// One replaced byte range of the text (empty: an insertion).
struct Edit {
  size_t begin, end;
  std::string text;
};

// One declarator of an on-chip declaration: "*name[4][8] = init".
struct Declarator {
  std::string pointers, name, dims, init;
  int rank = 0;        // array dimensions
  std::string extent;  // of a one-dimensional array
};

// An on-chip declaration as the onchip_declarations pass read it: tokens
// [first, last] ("static __nram__ float a[4], b;"), the qualifier at `qualifier`.
struct OnchipDeclaration {
  size_t first, qualifier, last;
  std::string space;  // "__nram__", ...
  bool file_scope, is_extern;
  std::string type;
  std::vector<Declarator> declarators;
};

class Unit {
 public:
  explicit Unit(std::string_view text);

  size_t size() const { return tokens_.size(); }
  const Token &operator[](size_t i) const { return tokens_[i]; }
  std::string_view text(size_t i) const {
    return i < tokens_.size() ? text_.substr(tokens_[i].begin, tokens_[i].end - tokens_[i].begin)
                              : std::string_view();
  }
  bool is(size_t i, std::string_view p) const { return i < tokens_.size() && text(i) == p; }
  // n tokens p written without space between them from i on ("<<<", "+=").
  bool adjacent(size_t i, size_t n, std::string_view p) const;
  // "x.name", "p->name", "ns::name": the name at i is a member, not a variable.
  bool member_access_before(size_t i) const {
    return i > 0 && (is(i - 1, ".") || is(i - 1, "->") || is(i - 1, "::"));
  }
  // The token closing the bracket that opens at i, or size().
  size_t matching(size_t i) const;
  // "p.mlu:12": the user's file and line of token i.
  std::string where(size_t i) const;
  // `"p.mlu:12" "\0" "5"`: a string literal of token i's file and line, and
  // after the string's end its column, so that each place in the code is a
  // string of its own (messages print the line; the race check tells sites
  // apart by the string).
  std::string site_literal(size_t i) const;
  // Token i's column in the preprocessed text (1 for the first).
  size_t column(size_t i) const;
  // Tokens [first, last) on one line: spacing kept as one blank, linemarkers
  // (the preprocessor puts them around macros from system headers) dropped.
  std::string span(size_t first, size_t last) const;

  // Where token i stands (after it: a '{' is inside the body it opens).
  bool in_device(size_t i) const { return (scope_[i] & kDevice) != 0; }
  bool in_function(size_t i) const { return (scope_[i] & kFunction) != 0; }
  bool in_parens(size_t i) const { return (scope_[i] & kParens) != 0; }
  // In no brace but a namespace's (or an extern "C" block's).
  bool at_namespace_scope(size_t i) const { return (scope_[i] & kNamespaceScope) != 0; }

  void replace(size_t first, size_t last, std::string with) {  // tokens [first, last]
    edits_.push_back(Edit{tokens_[first].begin, tokens_[last].end, std::move(with)});
  }
  void insert_before(size_t i, std::string with) {
    edits_.push_back(Edit{tokens_[i].begin, tokens_[i].begin, std::move(with)});
  }
  void insert_after(size_t i, std::string with) {
    edits_.push_back(Edit{tokens_[i].end, tokens_[i].end, std::move(with)});
  }
  void error(size_t i, const std::string &what) { errors_.push_back(where(i) + ": error: " + what); }

  // Found by the onchip_declarations pass, read by the later ones.
  std::vector<OnchipDeclaration> onchip;

  // The text with every edit applied, and the errors.
  Translation finish();

 private:
  enum : uint8_t { kDevice = 1, kFunction = 2, kParens = 4, kNamespaceScope = 8 };
  void find_scopes();
  bool opens_namespace_body(size_t before) const;

  std::string_view text_;
  Lexed lexed_;
  const std::vector<Token> &tokens_;
  std::vector<uint8_t> scope_;  // per token: kDevice | kFunction | kParens | kNamespaceScope
  std::vector<Edit> edits_;
  std::vector<std::string> errors_;
};

// Text of a C++ string literal holding s.
std::string quoted(std::string_view s);

// __mlu_global__, __mlu_func__, ...: a function of BANG C.
bool is_function_qualifier(std::string_view w);

}  // namespace mlusim::cncc
