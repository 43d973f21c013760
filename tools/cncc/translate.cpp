#include "tools/cncc/translate.h"

#include <algorithm>
#include <map>
#include <regex>
#include <set>

#include "tools/cncc/lexer.h"

namespace mlusim::cncc {
namespace {

struct Edit {
  size_t begin, end;  // replaced byte range (empty: an insertion)
  std::string text;
};

const char *space_of(std::string_view qualifier) {
  if (qualifier == "__nram__") return "::mlusim::Space::kNram";
  if (qualifier == "__wram__") return "::mlusim::Space::kWram";
  if (qualifier == "__mlu_shared__") return "::mlusim::Space::kSram";
  if (qualifier == "__ldram__") return "::mlusim::Space::kLdram";
  return nullptr;
}

bool is_function_qualifier(std::string_view w) {
  return w == "__mlu_global__" || w == "__mlu_entry__" || w == "__mlu_func__" ||
         w == "__mlu_device__" || w == "__mlu_host__";
}

// Calls whose .mlu line is recorded for fault messages.
bool is_intrinsic(std::string_view w) {
  for (std::string_view prefix :
       {"__bang_", "__memcpy", "__sync", "__nramset", "__gdramset", "__ldramset", "__mluop_"})
    if (w.substr(0, prefix.size()) == prefix) return true;
  return false;
}

// Keywords that may stand right before an expression: "return buf[0]" is a
// use of buf, not a declaration of it.
bool is_expression_keyword(std::string_view w) {
  for (std::string_view k : {"return", "case", "sizeof", "alignof", "else", "do", "throw", "new",
                             "delete", "goto", "co_return", "co_yield", "co_await"})
    if (w == k) return true;
  return false;
}

// Names that spell a type before "*name" / "&name" (where "a * buf" would
// otherwise be a product): built-in and fixed-width types, half, and the
// template parameters and classes the program declared (type_names_).
bool is_builtin_type(std::string_view w) {
  for (std::string_view k : {"void", "char", "short", "int", "long", "float", "double", "bool",
                             "signed", "unsigned", "auto", "half", "bfloat16"})
    if (w == k) return true;
  return w.size() > 2 && w.substr(w.size() - 2) == "_t";
}

bool is_storage_keyword(std::string_view w) {
  return w == "static" || w == "extern" || w == "const" || w == "volatile" || w == "constexpr" ||
         w == "register" || w == "inline";
}

std::string quoted(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

// One declarator of an on-chip declaration: "*name[4][8] = init".
struct Declarator {
  std::string pointers, name, dims, init;
  int rank = 0;           // array dimensions
  std::string extent;     // of a one-dimensional array
};

class Translator {
 public:
  explicit Translator(std::string_view text) : s_(text), lexed_(lex(text)), t_(lexed_.tokens) {}

  Translation run() {
    for (size_t i = 0; i < t_.size(); ++i) step(i);
    Translation out;
    out.text = apply();
    out.errors = std::move(errors_);
    return out;
  }

 private:
  std::string_view text(const Token &t) const { return s_.substr(t.begin, t.end - t.begin); }
  std::string_view text(size_t i) const { return i < t_.size() ? text(t_[i]) : std::string_view(); }
  bool is(size_t i, std::string_view p) const { return i < t_.size() && text(i) == p; }
  std::string where(size_t i) const {
    return lexed_.files[static_cast<size_t>(t_[i].file)] + ":" + std::to_string(t_[i].line);
  }
  // Tokens [first, last) on one line: spacing kept as one blank, linemarkers
  // (the preprocessor puts them around macros from system headers) dropped.
  std::string span(size_t first, size_t last) const {
    std::string out;
    for (size_t k = first; k < last; ++k) {
      if (t_[k].kind == Kind::kDirective) continue;
      if (!out.empty() && t_[k].begin > t_[k - 1].end) out += ' ';
      std::string token(text(k));
      std::replace(token.begin(), token.end(), '\n', ' ');
      out += token;
    }
    return out;
  }
  void error(size_t i, const std::string &what) {
    errors_.push_back(where(i) + ": error: " + what);
  }
  void replace(size_t first, size_t last, std::string with) {  // tokens [first, last]
    edits_.push_back(Edit{t_[first].begin, t_[last].end, std::move(with)});
  }
  void insert_before(size_t i, std::string with) {
    edits_.push_back(Edit{t_[i].begin, t_[i].begin, std::move(with)});
  }
  void insert_after(size_t i, std::string with) {
    edits_.push_back(Edit{t_[i].end, t_[i].end, std::move(with)});
  }
  bool member_access_before(size_t i) const {
    return i > 0 && (is(i - 1, ".") || is(i - 1, "->") || is(i - 1, "::"));
  }

  // The token closing the bracket that opens at i, or t_.size().
  size_t matching(size_t i) const {
    const std::string_view open = text(i);
    const std::string_view close = open == "(" ? ")" : open == "[" ? "]" : "}";
    int depth = 0;
    for (size_t k = i; k < t_.size(); ++k) {
      if (text(k) == open) ++depth;
      else if (text(k) == close && --depth == 0) return k;
    }
    return t_.size();
  }

  void step(size_t i) {
    const Token &tok = t_[i];
    if (tok.kind == Kind::kDirective) return;
    const std::string_view w = text(tok);
    track_scopes(i, w);
    if (tok.system) return;
    if (tok.kind == Kind::kIdent) {
      if (is_function_qualifier(w)) return function_qualifier(i, w);
      if (space_of(w) != nullptr) return onchip_declaration(i, w);
      if (w == "printf" && in_device() && is(i + 1, "(") && !member_access_before(i))
        return replace(i, i, "__bang_printf");
      if (is_intrinsic(w) && in_device() && !member_access_before(i) && !is(i - 1, "&"))
        return mark_line(i);
      if (w == "typename" || w == "class" || w == "struct") note_type_name(i + 1);
      if (onchip_names_.count(std::string(w)) != 0 && in_function() && i > skip_until_ &&
          !member_access_before(i))
        onchip_name_use(i, w);
      if (auto v = file_scope_vars_.find(std::string(w));
          v != file_scope_vars_.end() && !member_access_before(i) && i > skip_until_)
        return replace(i, i, v->second);
    } else if (tok.kind == Kind::kNumber) {
      half_literal(i, w);
    } else if (w == "<" && launch_opens(i)) {
      launch(i);
    }
  }

  // ---- where we are: device function bodies ------------------------------

  bool in_device() const { return device_bodies_ > 0; }
  bool in_function() const { return function_bodies_ > 0 || device_bodies_ > 0; }

  // A '{' opens a function body after a parameter list (or a qualifier after
  // it); inside a function every brace is function scope.
  bool opens_function_body(size_t i) const {
    if (function_bodies_ > 0) return true;
    size_t k = i;
    while (k > 0 && t_[k - 1].kind == Kind::kDirective) --k;
    if (k == 0) return false;
    const std::string_view prev = text(k - 1);
    return prev == ")" || prev == "const" || prev == "noexcept" || prev == "override" ||
           prev == "final" || prev == "mutable";
  }

  void track_scopes(size_t i, std::string_view w) {
    if (w == "(") ++parens_;
    else if (w == ")") --parens_;
    else if (w == ";" && parens_ == 0) {
      device_signature_ = false;
      parameter_names_.clear();  // a prototype's
    } else if (w == "{") {
      Scope scope{device_signature_ && parens_ == 0, opens_function_body(i), {}};
      for (std::string &name : parameter_names_) scope.names[std::move(name)] = 0;
      parameter_names_.clear();
      braces_.push_back(scope);
      device_bodies_ += scope.device;
      function_bodies_ += scope.function;
      device_signature_ = false;
    } else if (w == "}" && !braces_.empty()) {
      device_bodies_ -= braces_.back().device;
      function_bodies_ -= braces_.back().function;
      braces_.pop_back();
    }
  }

  void function_qualifier(size_t i, std::string_view w) {
    device_signature_ = true;
    const bool inline_nearby = is(i - 1, "inline") || is(i + 1, "inline") || is(i + 2, "inline");
    const bool is_inline = (w == "__mlu_func__" || w == "__mlu_device__") && !inline_nearby;
    replace(i, i, is_inline ? "inline" : "");
  }

  // ---- __nram__ / __wram__ / __mlu_shared__ / __ldram__ ---------------------

  void onchip_declaration(size_t q, std::string_view qualifier) {
    if (parens_ > 0) return replace(q, q, "");  // on a pointer parameter or in a cast
    size_t first = q;
    while (first > 0 && t_[first - 1].kind == Kind::kIdent && is_storage_keyword(text(first - 1)))
      --first;
    size_t last = q + 1;
    int depth = 0;
    for (; last < t_.size(); ++last) {
      const std::string_view w = text(last);
      if (w == "(" || w == "[" || w == "{") ++depth;
      else if (w == ")" || w == "]" || w == "}") --depth;
      else if (w == ";" && depth == 0) break;
    }
    if (last >= t_.size()) return error(q, std::string(qualifier) + " declaration without ';'");

    bool is_static = false, is_extern = false;
    std::string type;
    for (size_t k = first; k < q; ++k) note_keyword(text(k), &is_static, &is_extern, &type);
    std::vector<Declarator> decls;
    if (!parse_declarators(q + 1, last, &is_static, &is_extern, &type, &decls))
      return error(q, "cannot read this " + std::string(qualifier) +
                          " declaration (mlusim-cncc reads 'T name[N] = init, ...;')");
    const bool file_scope = !in_function();
    std::string out;
    for (const Declarator &d : decls) {
      out += file_scope ? file_scope_variable(q, qualifier, type, d, is_static)
                        : local_variable(q, qualifier, type, d);
      if (qualifier != "__ldram__") note_onchip_array(d, file_scope);
    }
    replace(first, last, out);
    skip_until_ = last;
  }

  static void note_keyword(std::string_view w, bool *is_static, bool *is_extern,
                           std::string *type) {
    if (w == "static") *is_static = true;
    else if (w == "extern") *is_extern = true;
    else if (w == "const" || w == "volatile") *type += std::string(w) + " ";
  }

  // Tokens (from, to) after the qualifier: type, then declarators split at
  // top-level commas. The name is the last identifier before '[', '=' or ','.
  bool parse_declarators(size_t from, size_t to, bool *is_static, bool *is_extern,
                         std::string *type, std::vector<Declarator> *out) {
    std::vector<std::pair<size_t, size_t>> parts;
    int depth = 0;
    size_t start = from;
    for (size_t k = from; k < to; ++k) {
      const std::string_view w = text(k);
      if (w == "(" || w == "[" || w == "{" || w == "<") ++depth;
      else if (w == ")" || w == "]" || w == "}" || w == ">") --depth;
      else if (w == "," && depth == 0) {
        parts.emplace_back(start, k);
        start = k + 1;
      }
    }
    parts.emplace_back(start, to);
    for (size_t p = 0; p < parts.size(); ++p) {
      auto [b, e] = parts[p];
      size_t stop = b;  // first '[' or '=' at depth 0
      while (stop < e && !is(stop, "[") && !is(stop, "=")) ++stop;
      if (stop == b || t_[stop - 1].kind != Kind::kIdent) return false;
      const size_t name = stop - 1;
      size_t ptr = name;
      while (ptr > b && (is(ptr - 1, "*") || is(ptr - 1, "&"))) --ptr;
      if (p == 0) {
        for (size_t k = b; k < ptr; ++k) {
          if (t_[k].kind == Kind::kIdent && is_storage_keyword(text(k)) && text(k) != "const" &&
              text(k) != "volatile") {
            note_keyword(text(k), is_static, is_extern, type);
            continue;
          }
          *type += std::string(text(k)) + " ";
        }
        if (type->empty()) return false;
      } else if (ptr != b) {
        return false;
      }
      Declarator d;
      d.pointers = span(ptr, name);
      d.name = std::string(text(name));
      size_t eq = stop;
      while (eq < e && !is(eq, "=")) ++eq;
      d.dims = span(stop, eq);
      for (size_t k = stop; k < eq && is(k, "["); k = matching(k) + 1) {
        ++d.rank;
        d.extent = span(k + 1, matching(k));
      }
      d.init = eq < e ? span(eq + 1, e) : "";
      out->push_back(std::move(d));
    }
    return true;
  }

  std::string site(size_t q, std::string_view qualifier, const Declarator &d,
                   const std::string &var, const std::string &init) const {
    return "::mlusim::bang::OnchipSite " + var + "{" + space_of(qualifier) + ", " +
           quoted(d.name) + ", " + quoted(where(q)) + ", " + init + "}; ";
  }

  // A one-dimensional array without initializer is a pointer to the core's
  // instance, so its extent may be a run-time value (mlusim's operators size
  // their NRAM buffer for the simulated device they run on).
  static bool is_pointer_form(const Declarator &d) {
    return d.rank == 1 && d.init.empty() && !d.extent.empty();
  }
  static std::string pointer_form(const std::string &type, const Declarator &d,
                                  const std::string &var) {
    return "::mlusim::bang::onchip_array<" + type + d.pointers + ">(" + var + ", (" + d.extent +
           "))";
  }

  // A declaration inside a kernel or device function: the core's instance;
  // an initializer runs each time, as for a local variable.
  std::string local_variable(size_t q, std::string_view qualifier, const std::string &type,
                             const Declarator &d) {
    const std::string var = "mlusim_site_" + d.name + "_" + std::to_string(q);
    const std::string init_var = "mlusim_init_" + d.name + "_" + std::to_string(q);
    std::string out;
    if (is_pointer_form(d)) {
      return out + "static " + site(q, qualifier, d, var, "nullptr") + type + d.pointers +
             "*const " + d.name + " = " + pointer_form(type, d, var) + "; ";
    }
    std::string object_type = type + d.pointers + d.dims;
    const bool unsized = d.dims.find("[]") != std::string::npos;
    const bool array_init = !d.init.empty() && !d.dims.empty();
    if (array_init) {
      out += type + d.pointers + " " + init_var + d.dims + " = " + d.init + "; ";
      if (unsized) object_type = "decltype(" + init_var + ")";
    }
    out += "static " + site(q, qualifier, d, var, "nullptr");
    out += type + d.pointers + "(&" + d.name + ")" + d.dims + " = ::mlusim::bang::onchip<" +
           object_type + ">(" + var + "); ";
    if (array_init) out += "::mlusim::bang::assign(" + d.name + ", " + init_var + "); ";
    else if (!d.init.empty()) out += "::mlusim::bang::assign(" + d.name + ", (" + d.init + ")); ";
    return out;
  }

  // A declaration at file scope: every later use of the name becomes the
  // calling core's instance; an initializer is copied in at each launch.
  std::string file_scope_variable(size_t q, std::string_view qualifier, const std::string &type,
                                  const Declarator &d, bool is_static) {
    const std::string var = "mlusim_site_" + d.name;
    const std::string init_var = "mlusim_init_" + d.name;
    std::string out, object_type = type + d.pointers + d.dims, init = "nullptr";
    if (!d.init.empty()) {
      out += "static const " + type + d.pointers + " " + init_var + d.dims + " = " + d.init + "; ";
      if (d.dims.find("[]") != std::string::npos)
        object_type = "std::remove_const_t<decltype(" + init_var + ")>";
      init = "&" + init_var;
    }
    out += (is_static ? "static " : "inline ") + site(q, qualifier, d, var, init);
    file_scope_vars_[d.name] = is_pointer_form(d)
                                   ? "(" + pointer_form(type, d, var) + ")"
                                   : "(::mlusim::bang::onchip<" + object_type + ">(" + var + "))";
    return out;
  }

  // ---- scalar subscripts of on-chip arrays -------------------------------------
  //
  // buf[i] (buf[i][j] for a 2-D array) of a declared __nram__ / __wram__ /
  // __mlu_shared__ array becomes scalar_at("p.mlu:7", buf[i]), which faults
  // when an unfenced async copy still writes the element (on the board the
  // scalar code would see or be overwritten by the copy's data). A subscript
  // followed by an assignment (=, +=, ++, ...) becomes scalar_store_at: a write
  // is also a hazard on a copy's source. Left alone: &buf[i] (an address, no
  // access), buf[i] of a 2-D array (a row), other names, and a name that a
  // local or parameter hides. Raw pointers into a buffer are not seen.

  // Rank of the on-chip array `name` in scope here: 0 if none or hidden.
  int onchip_rank(const std::string &name) const {
    for (auto s = braces_.rbegin(); s != braces_.rend(); ++s)
      if (auto n = s->names.find(name); n != s->names.end()) return n->second;
    auto n = file_scope_arrays_.find(name);
    return n != file_scope_arrays_.end() ? n->second : 0;
  }

  void note_onchip_array(const Declarator &d, bool file_scope) {
    if (d.rank == 0) return;
    onchip_names_.insert(d.name);
    if (file_scope) file_scope_arrays_[d.name] = d.rank;
    else if (!braces_.empty()) braces_.back().names[d.name] = d.rank;
  }

  void note_type_name(size_t i) {
    if (i < t_.size() && t_[i].kind == Kind::kIdent) type_names_.insert(std::string(text(i)));
  }

  // An identifier at i that names an on-chip array somewhere in the program.
  void onchip_name_use(size_t i, std::string_view w) {
    const std::string name(w);
    const int rank = onchip_rank(name);
    if (rank == 0) return;
    if (declares(i)) return hide(name);
    if (address_taken(i)) return;
    size_t last = i;  // the ']' of the element's last subscript
    for (int k = 0; k < rank; ++k) {
      if (!is(last + 1, "[")) return;  // a row, or the array itself
      last = matching(last + 1);
      if (last >= t_.size()) return;
    }
    const bool stored = assigned(last + 1) || (i >= 2 && (adjacent(i - 2, 2, "+") ||
                                                          adjacent(i - 2, 2, "-")));
    insert_before(i, std::string("::mlusim::bang::") + (stored ? "scalar_store_at(" : "scalar_at(") +
                         quoted(where(i)) + ", ");
    insert_after(last, ")");
  }

  // A local or parameter of that name hides the on-chip array from here to the
  // end of its block (a parameter: of the body that follows).
  void hide(const std::string &name) {
    if (parens_ > 0) parameter_names_.push_back(name);
    else if (!braces_.empty()) braces_.back().names[name] = 0;
  }

  // "T name", "T *name", "const T &name": a declaration of the name at i.
  bool declares(size_t i) const {
    size_t k = i;
    bool pointer_or_reference = false;
    while (k > 0 && (is(k - 1, "*") || is(k - 1, "&") || is(k - 1, "const") ||
                     is(k - 1, "volatile") || is(k - 1, "__restrict__"))) {
      pointer_or_reference |= is(k - 1, "*") || is(k - 1, "&");
      --k;
    }
    if (k == 0 || t_[k - 1].kind != Kind::kIdent) return false;
    const std::string_view type = text(k - 1);
    if (is_expression_keyword(type)) return false;
    // Two names side by side only occur in a declaration; "a * buf" may be a product.
    return !pointer_or_reference || is_builtin_type(type) || type_names_.count(std::string(type));
  }

  // "&buf[i]": the unary '&' takes the element's address (also after a cast,
  // "(char *)&buf[i]"). After a value ("x & buf[i]") it is a bitwise and, and
  // the element is read.
  bool address_taken(size_t i) const {
    if (i == 0 || !is(i - 1, "&")) return false;
    if (i < 2) return true;
    const size_t b = i - 2;
    if (adjacent(b, 2, "&")) return false;  // "ok && buf[i]"
    if (is(b, ")")) return closes_cast(b);
    const bool value_before = (t_[b].kind == Kind::kIdent && !is_expression_keyword(text(b))) ||
                              t_[b].kind == Kind::kNumber || t_[b].kind == Kind::kLiteral ||
                              is(b, "]");
    return !value_before;
  }

  // The ')' at close ends a C cast: "(T *)", "(const T &)" or "(T)" of a type.
  bool closes_cast(size_t close) const {
    if (close == 0) return false;
    if (is(close - 1, "*") || is(close - 1, "&")) return true;
    return close >= 2 && is(close - 2, "(") && t_[close - 1].kind == Kind::kIdent &&
           (is_builtin_type(text(close - 1)) || type_names_.count(std::string(text(close - 1))));
  }

  // An assignment operator at k: =, op=, <<=, >>=, ++, -- (not ==).
  bool assigned(size_t k) const {
    if (is(k, "=")) return !adjacent(k, 2, "=");
    if (adjacent(k, 2, "+") || adjacent(k, 2, "-")) return true;
    if (adjacent(k, 2, "<") || adjacent(k, 2, ">")) return equals_right_after(k + 1);
    for (std::string_view op : {"+", "-", "*", "/", "%", "&", "|", "^"})
      if (is(k, op)) return equals_right_after(k);
    return false;
  }
  bool equals_right_after(size_t k) const { return is(k + 1, "=") && t_[k + 1].begin == t_[k].end; }

  // ---- kernel<<<dim, type, queue>>>(args) ---------------------------------

  bool adjacent(size_t i, size_t n, std::string_view p) const {
    for (size_t k = 0; k < n; ++k)
      if (!is(i + k, p) || (k > 0 && t_[i + k].begin != t_[i + k - 1].end)) return false;
    return true;
  }
  bool launch_opens(size_t i) const { return adjacent(i, 3, "<"); }

  // The first token of the launched callee: "ns::kernel<T, 4>".
  size_t callee_start(size_t open) const {
    size_t j = open;
    if (j > 0 && is(j - 1, ">")) {
      int depth = 0;
      while (j > 0) {
        --j;
        if (is(j, ">")) ++depth;
        else if (is(j, "<") && --depth == 0) break;
      }
    }
    if (j > 0 && t_[j - 1].kind == Kind::kIdent) --j;
    while (j >= 2 && is(j - 1, "::") && t_[j - 2].kind == Kind::kIdent) j -= 2;
    if (j >= 1 && is(j - 1, "::")) --j;
    return j;
  }

  void launch(size_t open) {
    const size_t callee = callee_start(open);
    if (callee == open) return error(open, "'<<<' without a kernel before it");
    size_t close = open + 3;
    int depth = 0;
    for (; close < t_.size(); ++close) {
      const std::string_view w = text(close);
      if (w == "(" || w == "[" || w == "{") ++depth;
      else if (w == ")" || w == "]" || w == "}") --depth;
      else if (depth == 0 && adjacent(close, 3, ">")) break;
    }
    if (close >= t_.size() || !is(close + 3, "("))
      return error(open, "kernel launch: expected '<<<dim, type, queue>>>(arguments)'");
    const size_t args_open = close + 3, args_close = matching(args_open);
    if (args_close >= t_.size()) return error(open, "kernel launch: unbalanced '('");
    const bool has_args = args_close > args_open + 1;
    // Nested edits (e.g. a file-scope variable in an argument) stay valid:
    // the callee and arguments are kept in place, only the rest is rewritten.
    insert_before(callee, "::mlusim::bang::launch(" + span(open + 3, close) + ", " +
                              quoted(span(callee, open)) + ", " + quoted(where(open)) + ", ");
    edits_.push_back(Edit{t_[open].begin, t_[args_open].end, has_args ? ", " : ""});
  }

  // ---- line marks, half literals ---------------------------------------------

  void mark_line(size_t i) {
    size_t call = i + 1;
    if (is(call, "<")) {  // explicit template arguments
      int depth = 0;
      for (; call < t_.size(); ++call) {
        if (is(call, "<")) ++depth;
        else if (is(call, ">") && --depth == 0) break;
      }
      ++call;
    }
    if (!is(call, "(")) return;
    const size_t close = matching(call);
    if (close >= t_.size()) return;
    insert_before(i, "(::mlusim::bang::at(" + quoted(where(i)) + "), ");
    insert_after(close, ")");
  }

  void half_literal(size_t i, std::string_view w) {
    static const std::regex half(R"(^(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?[hH]$)");
    const std::string s(w);
    if (std::regex_match(s, half)) replace(i, i, "((half)" + s.substr(0, s.size() - 1) + ")");
  }

  // ---- output -----------------------------------------------------------------

  // Applies the edits; a replaced range keeps its newlines (appended after
  // the replacement) so every later token stays on its line.
  std::string apply() {
    // By position; at one position insertions go before a replacement.
    std::stable_sort(edits_.begin(), edits_.end(), [](const Edit &a, const Edit &b) {
      return a.begin != b.begin ? a.begin < b.begin : (a.end == a.begin) > (b.end == b.begin);
    });
    std::string out;
    out.reserve(s_.size() + s_.size() / 8);
    size_t pos = 0;
    for (const Edit &e : edits_) {
      if (e.begin < pos) continue;  // inside an earlier replacement
      out.append(s_.substr(pos, e.begin - pos));
      out += e.text;
      const std::string_view replaced = s_.substr(e.begin, e.end - e.begin);
      out.append(static_cast<size_t>(std::count(replaced.begin(), replaced.end(), '\n')), '\n');
      pos = e.end;
    }
    out.append(s_.substr(pos));
    return out;
  }

  std::string_view s_;
  Lexed lexed_;
  const std::vector<Token> &t_;
  std::vector<Edit> edits_;
  std::vector<std::string> errors_;
  std::map<std::string, std::string> file_scope_vars_;
  struct Scope {
    bool device, function;  // opens a device function's body; any function's
    std::map<std::string, int> names;  // declared here: on-chip array's rank, or 0 (hidden)
  };
  std::vector<Scope> braces_;
  int device_bodies_ = 0, function_bodies_ = 0, parens_ = 0;
  bool device_signature_ = false;
  size_t skip_until_ = 0;  // tokens of the declaration just rewritten
  std::map<std::string, int> file_scope_arrays_;  // on-chip arrays: name -> rank
  std::set<std::string> onchip_names_;            // every on-chip array's name
  std::set<std::string> type_names_;              // template parameters, classes
  std::vector<std::string> parameter_names_;      // hiding names, for the next body
};

}  // namespace

Translation translate(std::string_view preprocessed) { return Translator(preprocessed).run(); }

}  // namespace mlusim::cncc
