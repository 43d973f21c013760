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

#include "tools/cncc/block_names.h"
#include "tools/cncc/passes/passes.h"

namespace mlusim::cncc {
namespace {

class SubscriptChecker {
 public:
  explicit SubscriptChecker(Unit &u) : u_(u), scopes_(u) {}

  void run() {
    size_t next_declaration = 0;
    for (size_t i = 0; i < u_.size(); ++i) {
      scopes_.step(i);
      if (u_[i].system || u_[i].kind != Kind::kIdent) continue;
      if (next_declaration < u_.onchip.size() && u_.onchip[next_declaration].qualifier == i) {
        note_declaration(u_.onchip[next_declaration++]);
        continue;
      }
      const std::string name(u_.text(i));
      if (onchip_names_.count(name) == 0 || i <= skip_until_ || u_.member_access_before(i))
        continue;
      if (scopes_.declares(i)) scopes_.declare(i, name, 0);  // a local or parameter hides it
      else if (u_.in_function(i)) use(i, name);
    }
  }

 private:
  // A local on-chip array is declared in its block with its rank.
  void note_declaration(const OnchipDeclaration &decl) {
    skip_until_ = decl.last;
    if (decl.space == "__ldram__") return;
    for (const Declarator &d : decl.declarators) {
      if (d.rank == 0) continue;
      onchip_names_.insert(d.name);
      if (decl.file_scope) file_scope_arrays_[d.name] = d.rank;
      else scopes_.declare(decl.qualifier, d.name, d.rank);
    }
  }

  // Rank of the on-chip array `name` in scope here: 0 if none or hidden (a
  // local or parameter of that name is declared with rank 0).
  int rank(const std::string &name) const {
    if (auto local = scopes_.find(name)) return *local;
    auto n = file_scope_arrays_.find(name);
    return n != file_scope_arrays_.end() ? n->second : 0;
  }

  // An identifier at i that names an on-chip array somewhere in the program.
  void use(size_t i, const std::string &name) {
    const int r = rank(name);
    if (r == 0 || address_taken(i)) return;
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
           scopes_.is_type(u_.text(close - 1));
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

  Unit &u_;
  BlockNames scopes_;
  std::map<std::string, int> file_scope_arrays_;  // on-chip arrays: name -> rank
  std::set<std::string> onchip_names_;            // every on-chip array's name so far
  size_t skip_until_ = 0;                         // tokens of the last on-chip declaration
};

}  // namespace

void check_scalar_subscripts(Unit &u) { SubscriptChecker(u).run(); }

}  // namespace mlusim::cncc
