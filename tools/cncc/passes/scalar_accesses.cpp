// Scalar accesses in device code: every element reached through a subscript
// (p[i], buf[i][j], f(x)[i]), a member through a pointer (p->f) or a unary
// '*' (*p, *(p + i), *p++) becomes
//   ::mlusim::bang::scalar_at("p.mlu:7", p[i])
// (scalar_store_at when an assignment follows, scalar_update_at for +=, ++
// and the like), the same lvalue after the simulated core has seen it: which
// memory it lies in, what it costs, whether an unfenced async copy owns it,
// and for GDRAM and SRAM the race check's log (detail/scalar_code.h). Members
// of the element ride along: a[i].x is one access of x. An update of an
// element whose address its innermost loop does not change (the lab's
// `result[i * k + j] += ...` in a loop over x) is kept in a register, as an
// optimising compiler keeps it: scalar_register_update_at, checked as any
// access but charged nothing (docs/cost_model.md). Left alone: &p[i]
// (an address), declarators (float a[8], int *p, T *q[2]), sizeof and
// decltype operands, attributes, asm statements, on-chip declarations, host
// code.
#include <algorithm>
#include <set>

#include "tools/cncc/expressions.h"
#include "tools/cncc/passes/passes.h"

namespace mlusim::cncc {
namespace {

enum class Access { kLoad, kStore, kUpdate, kRegisterUpdate };

const char *accessor(Access a) {
  switch (a) {
    case Access::kLoad: return "scalar_at";
    case Access::kStore: return "scalar_store_at";
    case Access::kUpdate: return "scalar_update_at";
    case Access::kRegisterUpdate: return "scalar_register_update_at";
  }
  return "";
}

// A loop statement's tokens, from its keyword to its last.
struct Loop {
  size_t first, last;
};
// A name given a value at token `at`: assigned, incremented or declared.
struct Change {
  size_t at;
  std::string_view name;
};

struct Wrap {
  size_t first, last;  // tokens of the accessed lvalue
  Access access;
};

class AccessFinder {
 public:
  explicit AccessFinder(Unit &u) : u_(u), names_(u), x_(u, names_), code_(u, names_, x_) {}

  void run() {
    for (size_t i = 0; i < u_.size(); ++i) {
      if (!code_.visit(i)) continue;
      if (u_.is(i, "[")) subscript(i);
      else if (u_.is(i, "->")) member(i);
      else if (u_.is(i, "*")) dereference(i);
      else if (u_.is(i, "for") || u_.is(i, "while") || u_.is(i, "do")) loop(i);
      else if (u_[i].kind == Kind::kIdent) note_change(i);
    }
    for (Wrap &w : wraps_)
      if (w.access == Access::kUpdate && kept_in_register(w)) w.access = Access::kRegisterUpdate;
    emit();
  }

 private:
  // "p[i]": the '[' at open follows an operand that is not being declared.
  void subscript(size_t open) {
    const size_t base = x_.prev(open);
    if (!x_.ends_operand(base) && !(base < u_.size() && u_.is(base, "this"))) return;
    const size_t close = u_.matching(open);
    const size_t first = x_.chain_start(base);
    if (close >= u_.size() || first >= u_.size()) return;
    if (u_[first].kind == Kind::kIdent && x_.declares(first)) return;  // float a[8][4]
    if (u_.is(x_.prev(first), "new")) return;                        // new T[n]
    // "float (*rows)[7]", "(float (*)[7])p": a pointer to arrays, declared or cast to.
    if (u_.is(first, "(") && names_.is_type(u_.text(x_.prev(first)))) return;
    add(first, close);
  }

  // "p->f", not "p->f(...)" (a call of a member function).
  void member(size_t arrow) {
    const size_t name = x_.next(arrow);
    if (name >= u_.size() || u_[name].kind != Kind::kIdent || is_keyword(u_.text(name))) return;
    if (u_.is(x_.next(name), "(") || u_.is(x_.next(name), "{")) return;
    const size_t first = x_.chain_start(x_.prev(arrow));
    if (first < u_.size()) add(first, name);
  }

  // "*p": a unary '*' and its operand; "(*p).x" is one access of x.
  void dereference(size_t star) {
    if (x_.star(star) != Expressions::Star::kUnary) return;
    const size_t operand = x_.next(star);
    const size_t last = x_.operand_end(operand);
    if (last >= u_.size() || (last == operand && u_.is(operand, "this"))) return;
    const size_t open = x_.prev(star), close = x_.next(last);
    if (u_.is(open, "(") && u_.is(close, ")") && u_.matching(open) == close &&
        u_.is(x_.next(close), ".")) {
      add(open, close);
      return;
    }
    add(star, last);
  }

  // The lvalue [first, last], extended over the members that follow ("a[i].x.y").
  void add(size_t first, size_t last) {
    for (;;) {
      const size_t dot = x_.next(last), name = x_.next(dot);
      if (!u_.is(dot, ".") || name >= u_.size() || u_[name].kind != Kind::kIdent) break;
      if (u_.is(x_.next(name), "(") || u_.is(x_.next(name), "<")) break;  // a member function
      last = name;
    }
    const size_t after = x_.next(last);
    const bool outermost = !u_.is(after, "[") && !u_.is(after, "(") && !u_.is(after, ".") &&
                           !u_.is(after, "->");
    if (outermost && address_taken(x_.prev(first))) return;
    Access access = Access::kLoad;
    if (outermost) {
      const size_t before = x_.prev(first);
      const bool prefix = before < u_.size() && before > 0 &&
                          (u_.adjacent(before - 1, 2, "+") || u_.adjacent(before - 1, 2, "-"));
      if (u_.is(after, "=") && !u_.adjacent(after, 2, "=")) access = Access::kStore;
      else if (prefix || updated(after)) access = Access::kUpdate;
    }
    wraps_.push_back(Wrap{first, last, access});
  }

  void loop(size_t keyword) {
    if (u_.is(keyword, "while") && do_whiles_.count(keyword) != 0) return;
    if (u_.is(keyword, "do")) do_whiles_.insert(x_.next(x_.statement_end(x_.next(keyword))));
    const size_t last = x_.statement_end(keyword);
    if (last < u_.size()) loops_.push_back(Loop{keyword, last});
  }

  // The name at k is assigned (=, +=, ...), incremented or decremented, or declared.
  void note_change(size_t k) {
    if (is_keyword(u_.text(k)) || u_.is(x_.prev(k), ".") || u_.is(x_.prev(k), "->")) return;
    const size_t after = x_.next(k), before = x_.prev(k);
    const bool assigned = u_.is(after, "=") && !u_.adjacent(after, 2, "=");
    const bool prefix = before < u_.size() && before > 0 &&
                        (u_.adjacent(before - 1, 2, "+") || u_.adjacent(before - 1, 2, "-"));
    if (assigned || prefix || updated(after) || x_.declares(k)) changes_.push_back(Change{k, u_.text(k)});
  }

  // Whether the element w updates has the same address on every iteration of
  // its innermost loop: no name of it changes there, and it calls nothing.
  bool kept_in_register(const Wrap &w) const {
    const Loop *inner = nullptr;
    for (const Loop &l : loops_)
      if (l.first < w.first && w.last <= l.last && (inner == nullptr || l.first > inner->first))
        inner = &l;
    if (inner == nullptr) return false;
    for (size_t k = w.first; k <= w.last && k < u_.size(); k = x_.next(k)) {
      if (u_.is(k, "(")) return false;
      if (u_[k].kind != Kind::kIdent || u_.is(x_.prev(k), ".") || u_.is(x_.prev(k), "->")) continue;
      for (const Change &c : changes_)
        if (c.at >= inner->first && c.at <= inner->last && c.name == u_.text(k)) return false;
    }
    return true;
  }

  // "&x", "(char *)&x": a unary '&' at k takes the address of what follows.
  bool address_taken(size_t k) const {
    return u_.is(k, "&") && x_.star(k) == Expressions::Star::kUnary;
  }

  // A compound assignment or an increment at k: +=, <<=, ++, -- (not ==, <=).
  bool updated(size_t k) const {
    if (u_.adjacent(k, 2, "+") || u_.adjacent(k, 2, "-")) return true;
    if (u_.adjacent(k, 2, "<") || u_.adjacent(k, 2, ">")) return equals_right_after(k + 1);
    for (std::string_view op : {"+", "-", "*", "/", "%", "&", "|", "^"})
      if (u_.is(k, op)) return equals_right_after(k);
    return false;
  }
  bool equals_right_after(size_t k) const {
    return u_.is(k + 1, "=") && u_[k + 1].begin == u_[k].end && !u_.adjacent(k + 1, 2, "=");
  }

  // Outer accesses open first: by first token, the longer before the shorter.
  void emit() {
    std::sort(wraps_.begin(), wraps_.end(), [](const Wrap &a, const Wrap &b) {
      return a.first != b.first ? a.first < b.first : a.last > b.last;
    });
    wraps_.erase(std::unique(wraps_.begin(), wraps_.end(),
                             [](const Wrap &a, const Wrap &b) {
                               return a.first == b.first && a.last == b.last;
                             }),
                 wraps_.end());
    for (const Wrap &w : wraps_) {
      // Each access its own site (the race check merges an access only into
      // a run of its own site: a[i] + c[i] stays two runs).
      u_.insert_before(w.first, std::string("::mlusim::bang::") + accessor(w.access) + "(" +
                                    u_.site_literal(w.first) + ", ");
      u_.insert_after(w.last, ")");
    }
  }

  Unit &u_;
  BlockNames names_;
  Expressions x_;
  KernelCode code_;
  std::vector<Wrap> wraps_;
  std::vector<Loop> loops_;
  std::set<size_t> do_whiles_;  // the 'while' of each do loop
  std::vector<Change> changes_;
};

}  // namespace

void wrap_scalar_accesses(Unit &u) { AccessFinder(u).run(); }

}  // namespace mlusim::cncc
