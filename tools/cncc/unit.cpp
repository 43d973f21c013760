#include "tools/cncc/unit.h"

#include <algorithm>

namespace mlusim::cncc {

std::string quoted(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

bool is_function_qualifier(std::string_view w) {
  return w == "__mlu_global__" || w == "__mlu_entry__" || w == "__mlu_func__" ||
         w == "__mlu_device__" || w == "__mlu_host__" || w == "__mlu_vector__";
}

Unit::Unit(std::string_view text) : text_(text), lexed_(lex(text)), tokens_(lexed_.tokens) {
  find_scopes();
}

bool Unit::adjacent(size_t i, size_t n, std::string_view p) const {
  for (size_t k = 0; k < n; ++k)
    if (!is(i + k, p) || (k > 0 && tokens_[i + k].begin != tokens_[i + k - 1].end)) return false;
  return true;
}

size_t Unit::matching(size_t i) const {
  const std::string_view open = text(i);
  const std::string_view close = open == "(" ? ")" : open == "[" ? "]" : "}";
  int depth = 0;
  for (size_t k = i; k < tokens_.size(); ++k) {
    if (text(k) == open) ++depth;
    else if (text(k) == close && --depth == 0) return k;
  }
  return tokens_.size();
}

std::string Unit::where(size_t i) const {
  return lexed_.files[static_cast<size_t>(tokens_[i].file)] + ":" + std::to_string(tokens_[i].line);
}

std::string Unit::site_literal(size_t i) const {
  return quoted(where(i)) + " \"\\0\" \"" + std::to_string(column(i)) + "\"";
}

size_t Unit::column(size_t i) const {
  const size_t newline = text_.rfind('\n', tokens_[i].begin == 0 ? 0 : tokens_[i].begin - 1);
  return tokens_[i].begin - (newline == std::string_view::npos ? 0 : newline + 1) + 1;
}

std::string Unit::span(size_t first, size_t last) const {
  std::string out;
  for (size_t k = first; k < last; ++k) {
    if (tokens_[k].kind == Kind::kDirective) continue;
    if (!out.empty() && tokens_[k].begin > tokens_[k - 1].end) out += ' ';
    std::string token(text(k));
    std::replace(token.begin(), token.end(), '\n', ' ');
    out += token;
  }
  return out;
}

// A '{' opens a function body after a parameter list (or a qualifier after
// it); inside a function every brace is function scope. A device function's
// body is one whose signature carries a BANG function qualifier (system
// headers' qualifiers do not count: they are mlusim's own).
void Unit::find_scopes() {
  struct Brace {
    bool device, function, namespace_body;
  };
  std::vector<Brace> braces;
  int device_bodies = 0, function_bodies = 0, other_bodies = 0, parens = 0;
  bool device_signature = false;
  size_t previous = 0;  // the last token that is not a linemarker
  scope_.resize(tokens_.size());
  for (size_t i = 0; i < tokens_.size(); ++i) {
    const Token &t = tokens_[i];
    if (t.kind == Kind::kDirective) {
      scope_[i] = i > 0 ? scope_[i - 1] : 0;
      continue;
    }
    const std::string_view w = text(i);
    if (w == "(") {
      ++parens;
    } else if (w == ")") {
      --parens;
    } else if (w == ";" && parens == 0) {
      device_signature = false;
    } else if (w == "{") {
      const std::string_view before = i > 0 ? text(previous) : std::string_view();
      const bool function = function_bodies > 0 || before == ")" || before == "const" ||
                            before == "noexcept" || before == "override" || before == "final" ||
                            before == "mutable";
      braces.push_back(Brace{device_signature && parens == 0, function,
                             !function && opens_namespace_body(previous)});
      device_bodies += braces.back().device;
      function_bodies += braces.back().function;
      other_bodies += !braces.back().namespace_body;
      device_signature = false;
    } else if (w == "}" && !braces.empty()) {
      device_bodies -= braces.back().device;
      function_bodies -= braces.back().function;
      other_bodies -= !braces.back().namespace_body;
      braces.pop_back();
    } else if (!t.system && t.kind == Kind::kIdent && is_function_qualifier(w)) {
      device_signature = true;
    }
    scope_[i] = static_cast<uint8_t>((device_bodies > 0 ? kDevice : 0) |
                                     (function_bodies > 0 || device_bodies > 0 ? kFunction : 0) |
                                     (parens > 0 ? kParens : 0) |
                                     (other_bodies == 0 ? kNamespaceScope : 0));
    previous = i;
  }
}

// "namespace {", "namespace a::b {", "extern "C" {": the '{' after `before`
// opens a namespace's body (or a linkage block's, which is namespace scope too).
bool Unit::opens_namespace_body(size_t before) const {
  if (tokens_[before].kind == Kind::kLiteral) return before > 0 && is(before - 1, "extern");
  size_t k = before;
  while (k > 0 && (tokens_[k].kind == Kind::kIdent || is(k, "::")) && !is(k, "namespace")) --k;
  return is(k, "namespace");
}

// A replaced range keeps its newlines (appended after the replacement) so
// every later token stays on its line.
Translation Unit::finish() {
  // By position; at one position insertions go before a replacement.
  std::stable_sort(edits_.begin(), edits_.end(), [](const Edit &a, const Edit &b) {
    return a.begin != b.begin ? a.begin < b.begin : (a.end == a.begin) > (b.end == b.begin);
  });
  Translation out;
  out.text.reserve(text_.size() + text_.size() / 8);
  size_t pos = 0;
  for (const Edit &e : edits_) {
    if (e.begin < pos) continue;  // inside an earlier replacement
    out.text.append(text_.substr(pos, e.begin - pos));
    out.text += e.text;
    const std::string_view replaced = text_.substr(e.begin, e.end - e.begin);
    out.text.append(static_cast<size_t>(std::count(replaced.begin(), replaced.end(), '\n')), '\n');
    pos = e.end;
  }
  out.text.append(text_.substr(pos));
  out.errors = std::move(errors_);
  return out;
}

}  // namespace mlusim::cncc
