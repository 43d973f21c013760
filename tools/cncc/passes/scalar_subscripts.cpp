// Scalar subscripts of on-chip arrays: buf[i] (buf[i][j] for a 2-D array) of a
// declared __nram__ / __wram__ / __mlu_shared__ array becomes
// scalar_at("p.mlu:7", buf[i]), which faults when an unfenced async copy still
// writes the element (on the board the scalar code would see or be overwritten
// by the copy's data). A subscript followed by an assignment (=, +=, ++, ...)
// becomes scalar_store_at: a write is also a hazard on a copy's source. Left
// alone: &buf[i] (an address, no access), buf[i] of a 2-D array (a row), other
// names, and a name that a local or parameter hides. Raw pointers into a
// buffer are not seen.
#include <set>

#include "tools/cncc/passes/passes.h"

namespace mlusim::cncc {
namespace {

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

class SubscriptChecker {
 public:
  explicit SubscriptChecker(Unit &u) : u_(u) {}

  void run() {
    size_t next_declaration = 0;
    for (size_t i = 0; i < u_.size(); ++i) {
      if (u_[i].kind == Kind::kDirective) continue;
      track_blocks(i);
      if (u_[i].system || u_[i].kind != Kind::kIdent) continue;
      if (next_declaration < u_.onchip.size() && u_.onchip[next_declaration].qualifier == i) {
        note_declaration(u_.onchip[next_declaration++]);
        continue;
      }
      const std::string_view w = u_.text(i);
      if (w == "typename" || w == "class" || w == "struct") note_type_name(i + 1);
      if (onchip_names_.count(std::string(w)) != 0 && u_.in_function(i) && i > skip_until_ &&
          !u_.member_access_before(i))
        use(i, std::string(w));
    }
  }

 private:
  // Names declared in each open block: an on-chip array's rank, or 0 for a
  // local or parameter that hides one.
  void track_blocks(size_t i) {
    const std::string_view w = u_.text(i);
    if (w == ";" && !u_.in_parens(i)) {
      parameter_names_.clear();  // a prototype's
    } else if (w == "{") {
      Block block;
      for (std::string &name : parameter_names_) block[std::move(name)] = 0;
      parameter_names_.clear();
      blocks_.push_back(std::move(block));
    } else if (w == "}" && !blocks_.empty()) {
      blocks_.pop_back();
    }
  }

  void note_declaration(const OnchipDeclaration &decl) {
    skip_until_ = decl.last;
    if (decl.space == "__ldram__") return;
    for (const Declarator &d : decl.declarators) {
      if (d.rank == 0) continue;
      onchip_names_.insert(d.name);
      if (decl.file_scope) file_scope_arrays_[d.name] = d.rank;
      else if (!blocks_.empty()) blocks_.back()[d.name] = d.rank;
    }
  }

  void note_type_name(size_t i) {
    if (i < u_.size() && u_[i].kind == Kind::kIdent) type_names_.insert(std::string(u_.text(i)));
  }
  bool is_type(std::string_view w) const {
    return is_builtin_type(w) || type_names_.count(std::string(w)) != 0;
  }

  // Rank of the on-chip array `name` in scope here: 0 if none or hidden.
  int rank(const std::string &name) const {
    for (auto b = blocks_.rbegin(); b != blocks_.rend(); ++b)
      if (auto n = b->find(name); n != b->end()) return n->second;
    auto n = file_scope_arrays_.find(name);
    return n != file_scope_arrays_.end() ? n->second : 0;
  }

  // An identifier at i that names an on-chip array somewhere in the program.
  void use(size_t i, const std::string &name) {
    const int r = rank(name);
    if (r == 0) return;
    if (declares(i)) return hide(i, name);
    if (address_taken(i)) return;
    size_t last = i;  // the ']' of the element's last subscript
    for (int k = 0; k < r; ++k) {
      if (!u_.is(last + 1, "[")) return;  // a row, or the array itself
      last = u_.matching(last + 1);
      if (last >= u_.size()) return;
    }
    const bool stored = assigned(last + 1) ||
                        (i >= 2 && (u_.adjacent(i - 2, 2, "+") || u_.adjacent(i - 2, 2, "-")));
    u_.insert_before(i, std::string("::mlusim::bang::") +
                            (stored ? "scalar_store_at(" : "scalar_at(") + quoted(u_.where(i)) + ", ");
    u_.insert_after(last, ")");
  }

  // A local or parameter of that name hides the on-chip array from here to the
  // end of its block (a parameter: of the body that follows).
  void hide(size_t i, const std::string &name) {
    if (u_.in_parens(i)) parameter_names_.push_back(name);
    else if (!blocks_.empty()) blocks_.back()[name] = 0;
  }

  // "T name", "T *name", "const T &name": a declaration of the name at i.
  bool declares(size_t i) const {
    size_t k = i;
    bool pointer_or_reference = false;
    while (k > 0 && (u_.is(k - 1, "*") || u_.is(k - 1, "&") || u_.is(k - 1, "const") ||
                     u_.is(k - 1, "volatile") || u_.is(k - 1, "__restrict__"))) {
      pointer_or_reference |= u_.is(k - 1, "*") || u_.is(k - 1, "&");
      --k;
    }
    if (k == 0 || u_[k - 1].kind != Kind::kIdent) return false;
    const std::string_view type = u_.text(k - 1);
    if (is_expression_keyword(type)) return false;
    // Two names side by side only occur in a declaration; "a * buf" may be a product.
    return !pointer_or_reference || is_type(type);
  }

  // "&buf[i]": the unary '&' takes the element's address (also after a cast,
  // "(char *)&buf[i]"). After a value ("x & buf[i]") it is a bitwise and, and
  // the element is read.
  bool address_taken(size_t i) const {
    if (i == 0 || !u_.is(i - 1, "&")) return false;
    if (i < 2) return true;
    const size_t b = i - 2;
    if (u_.adjacent(b, 2, "&")) return false;  // "ok && buf[i]"
    if (u_.is(b, ")")) return closes_cast(b);
    const bool value_before =
        (u_[b].kind == Kind::kIdent && !is_expression_keyword(u_.text(b))) ||
        u_[b].kind == Kind::kNumber || u_[b].kind == Kind::kLiteral || u_.is(b, "]");
    return !value_before;
  }

  // The ')' at close ends a C cast: "(T *)", "(const T &)" or "(T)" of a type.
  bool closes_cast(size_t close) const {
    if (close == 0) return false;
    if (u_.is(close - 1, "*") || u_.is(close - 1, "&")) return true;
    return close >= 2 && u_.is(close - 2, "(") && u_[close - 1].kind == Kind::kIdent &&
           is_type(u_.text(close - 1));
  }

  // An assignment operator at k: =, op=, <<=, >>=, ++, -- (not ==).
  bool assigned(size_t k) const {
    if (u_.is(k, "=")) return !u_.adjacent(k, 2, "=");
    if (u_.adjacent(k, 2, "+") || u_.adjacent(k, 2, "-")) return true;
    if (u_.adjacent(k, 2, "<") || u_.adjacent(k, 2, ">")) return equals_right_after(k + 1);
    for (std::string_view op : {"+", "-", "*", "/", "%", "&", "|", "^"})
      if (u_.is(k, op)) return equals_right_after(k);
    return false;
  }
  bool equals_right_after(size_t k) const {
    return u_.is(k + 1, "=") && u_[k + 1].begin == u_[k].end;
  }

  using Block = std::map<std::string, int>;
  Unit &u_;
  std::vector<Block> blocks_;
  std::vector<std::string> parameter_names_;      // hiding names, for the next body
  std::map<std::string, int> file_scope_arrays_;  // on-chip arrays: name -> rank
  std::set<std::string> onchip_names_;            // every on-chip array's name so far
  std::set<std::string> type_names_;              // template parameters, classes
  size_t skip_until_ = 0;                         // tokens of the last on-chip declaration
};

}  // namespace

void check_scalar_subscripts(Unit &u) { SubscriptChecker(u).run(); }

}  // namespace mlusim::cncc
