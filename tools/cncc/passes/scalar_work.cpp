// Scalar arithmetic in device code: each block that runs as a unit (a
// function's or lambda's body, a loop's body, a branch of an if) first
// charges what it computes,
//   { ::mlusim::bang::scalar_work(ops, divides); ...
// counted here from its own tokens: ops are the arithmetic, logic, compare and
// increment operators and the cheap math calls (fabs, floor, min, ...),
// divides the '/', '%' and the expensive math calls (exp, log, sqrt, sin,
// ...). A loop's condition and increment count in its body, which runs once
// per iteration; a body or branch without braces gets them. A switch's body
// counts in the block around it. The prices per operator are the device's
// (docs/cost_model.md); intrinsic calls are instructions of their own.
#include <map>

#include "tools/cncc/expressions.h"
#include "tools/cncc/passes/passes.h"

namespace mlusim::cncc {
namespace {

// Math functions by their cost on a scalar unit (BANG C guide 5.3.4: ordinary
// arithmetic 1-3 cycles, division and log/recip-like 6-18).
bool is_cheap_math(std::string_view w) {
  for (std::string_view f : {"abs", "fabs", "fabsf", "floor", "floorf", "ceil", "ceilf", "round",
                             "roundf", "trunc", "truncf", "fmin", "fminf", "fmax", "fmaxf", "min",
                             "max"})
    if (w == f) return true;
  return w.substr(0, 8) == "__float2" || w.substr(0, 7) == "__half2";
}
bool is_expensive_math(std::string_view w) {
  for (std::string_view f : {"exp",  "expf",  "exp2",  "exp2f", "log",   "logf",  "log2",
                             "log2f", "log10", "sqrt", "sqrtf", "rsqrt", "pow",   "powf",
                             "sin",  "sinf",  "cos",   "cosf",  "tan",   "tanf",  "tanh",
                             "tanhf", "atan", "atanf", "atan2", "atan2f", "erf",  "erff",
                             "fmod", "fmodf", "expm1", "log1p"})
    if (w == f) return true;
  return w.substr(0, 12) == "__cn_scalar_";
}

struct Region {
  size_t at;          // the '{' it opens with, or the first token of a statement given braces
  size_t last;        // its last token
  bool braced;        // at is a '{' of the program
  int ops = 0, divides = 0;
};

class WorkCounter {
 public:
  explicit WorkCounter(Unit &u) : u_(u), names_(u), x_(u, names_), code_(u, names_, x_) {}

  void run() {
    size_t template_end = u_.size();  // "static_cast<int>": no comparison in the angles
    for (size_t i = 0; i < u_.size(); ++i) {
      while (!open_.empty() && regions_[open_.back()].last < i) open_.pop_back();
      if (!code_.visit(i)) continue;
      open_regions_at(i);
      if (template_end < u_.size() && i <= template_end) continue;
      if (u_.is(i, "<") && (template_end = x_.template_arguments_end(i)) < u_.size()) continue;
      count(i);
    }
    emit();
  }

 private:
  // Regions starting at token i: the bodies of the statement it begins, and
  // a block it opens.
  void open_regions_at(size_t i) {
    const std::string_view w = u_.text(i);
    if (w == "for" || w == "while") loop(i);
    else if (w == "do") do_loop(i);
    else if (w == "if") branches(i);
    auto planned = planned_.find(i);
    if (planned != planned_.end()) {
      open_.push_back(planned->second);
    } else if (w == "{" && is_code_block(i)) {
      regions_.push_back(Region{i, u_.matching(i), true});
      open_.push_back(regions_.size() - 1);
    }
  }

  // The region of the statement starting at first (a block, or a statement
  // given braces), planned now and opened when the scan reaches it; u.size()
  // if it cannot be.
  size_t plan_body(size_t first) {
    if (first >= u_.size()) return first;
    if (auto p = planned_.find(first); p != planned_.end()) return p->second;
    const bool braced = u_.is(first, "{");
    const size_t last = braced ? u_.matching(first) : x_.statement_end(first);
    if (last >= u_.size()) return last;
    regions_.push_back(Region{first, last, braced});
    planned_[first] = regions_.size() - 1;
    return regions_.size() - 1;
  }

  // for (init; condition; increment) body / while (condition) body: the
  // condition and increment are counted in the body.
  void loop(size_t keyword) {
    if (u_.is(keyword, "while") && do_whiles_.count(keyword) != 0) return;
    const size_t open = x_.next(keyword);
    if (!u_.is(open, "(")) return;
    const size_t close = u_.matching(open);
    const size_t body = plan_body(x_.next(close));
    if (body >= u_.size() || close >= u_.size()) return;
    size_t from = x_.next(open);
    if (u_.is(keyword, "for")) {  // after the first ';' (none in a range for)
      while (from < close && !u_.is(from, ";")) from = skip_group(from);
      if (from >= close) return;
    }
    headers_.emplace(from, Header{close, body});
  }

  void do_loop(size_t keyword) {
    const size_t body = plan_body(x_.next(keyword));
    if (body >= u_.size()) return;
    const size_t w = x_.next(regions_[body].last);
    if (!u_.is(w, "while") || !u_.is(x_.next(w), "(")) return;
    do_whiles_.insert({w, body});
    headers_.emplace(x_.next(w), Header{u_.matching(x_.next(w)), body});
  }

  // if (condition) then [else otherwise]: each branch a region ("else if"
  // leaves that to the inner if).
  void branches(size_t keyword) {
    size_t open = x_.next(keyword);
    if (u_.is(open, "constexpr")) open = x_.next(open);
    if (!u_.is(open, "(")) return;
    const size_t then = plan_body(x_.next(u_.matching(open)));
    if (then >= u_.size()) return;
    const size_t otherwise = x_.next(regions_[then].last);
    if (u_.is(otherwise, "else") && !u_.is(x_.next(otherwise), "if")) plan_body(x_.next(otherwise));
  }

  size_t skip_group(size_t k) const {
    return u_.is(k, "(") || u_.is(k, "[") || u_.is(k, "{") ? x_.next(u_.matching(k)) : x_.next(k);
  }

  // A '{' opening statements, not an initializer, a class or a switch's cases.
  bool is_code_block(size_t open) const {
    const size_t p = x_.prev(open);
    if (p >= u_.size()) return false;
    if (u_.is(p, ")")) {
      const size_t paren = x_.matching_back(p);
      return !(paren < u_.size() && u_.is(x_.prev(paren), "switch"));
    }
    if (u_.is(p, "{")) return is_code_block(p);  // "{ {" opens a block; "= {{" does not
    for (std::string_view w : {"else", "do", "try", ";", "}", "]", "mutable", "noexcept",
                               "const", "override", "final"})
      if (u_.is(p, w)) return true;
    if (!u_.is(p, ":")) return false;
    // "case 1: {", "default: {"
    for (size_t k = x_.prev(p); k < u_.size(); k = x_.prev(k)) {
      if (u_.is(k, "case") || u_.is(k, "default")) return true;
      if (u_.is(k, ";") || u_.is(k, "{") || u_.is(k, "}") || u_.is(k, "?")) return false;
    }
    return false;
  }

  // Which region token i counts in: a loop header's body, or the innermost open one.
  Region *target(size_t i) {
    while (!in_header_.empty() && in_header_.back()->second.to <= i) in_header_.pop_back();
    auto h = counted_ < u_.size() ? headers_.upper_bound(counted_) : headers_.begin();
    for (; h != headers_.end() && h->first <= i; ++h)
      if (h->second.to > i) in_header_.push_back(h);
    counted_ = i;
    if (!in_header_.empty()) return &regions_[in_header_.back()->second.region];
    return open_.empty() ? nullptr : &regions_[open_.back()];
  }

  void count(size_t i) {
    Region *r = target(i);
    if (r == nullptr) return;
    const std::string_view w = u_.text(i);
    if (u_[i].kind == Kind::kIdent) {
      if (!u_.is(x_.next(i), "(") || u_.member_access_before(i)) return;
      if (is_expensive_math(w)) ++r->divides;
      else if (is_cheap_math(w)) ++r->ops;
      return;
    }
    if (u_[i].kind != Kind::kPunct || w.size() != 1) return;
    const bool pair = i + 1 < u_.size() && u_.adjacent(i, 2, w);        // ++ && << ==
    const bool second = i > 0 && u_.adjacent(i - 1, 2, w);              // of a pair
    const bool assigns = u_.is(i + 1, "=") && u_[i + 1].begin == u_[i].end;  // += <= !=
    const bool after_op = i > 0 && u_.is(i, "=") && u_[i].begin == u_[i - 1].end &&
                          u_[i - 1].kind == Kind::kPunct &&
                          std::string_view("+-*/%&|^<>!=").find(u_.text(i - 1)) !=
                              std::string_view::npos;
    if (second && w != "=") return;  // counted with the first
    switch (w[0]) {
      case '/':
      case '%': ++r->divides; return;
      case '=':
        if (pair && !after_op) ++r->ops;  // "==" (a plain '=' moves a value: free)
        return;
      case '*':
      case '&':
        if (pair || assigns || x_.star(i) == Expressions::Star::kBinary) ++r->ops;
        return;
      case '-':  // "-1" is a number, not a negation
        if (!pair && !assigns && x_.next(i) < u_.size() &&
            u_[x_.next(i)].kind == Kind::kNumber && !x_.ends_operand(x_.prev(i)))
          return;
        ++r->ops;
        return;
      case '+': case '|': case '^': case '<': case '>': case '!': case '~': case '?':
        ++r->ops;
        return;
      default: return;
    }
  }

  void emit() {
    for (const Region &r : regions_) {
      const std::string call = "::mlusim::bang::scalar_work(" + std::to_string(r.ops) + ", " +
                               std::to_string(r.divides) + ");";
      if (r.braced) {
        u_.insert_after(r.at, " " + call);
      } else {
        u_.insert_before(r.at, "{ " + call + " ");
        u_.insert_after(r.last, " }");
      }
    }
  }

  struct Header {
    size_t to;  // tokens [its key, to) count in `region`
    size_t region;
  };

  Unit &u_;
  BlockNames names_;
  Expressions x_;
  KernelCode code_;
  std::vector<Region> regions_;
  std::vector<size_t> open_;           // regions the scan is inside, innermost last
  std::map<size_t, size_t> planned_;   // first token -> a region planned before the scan got there
  std::multimap<size_t, Header> headers_;  // by first token
  std::vector<std::multimap<size_t, Header>::iterator> in_header_;  // innermost last
  size_t counted_ = ~size_t{0};  // the last token target() placed
  std::map<size_t, size_t> do_whiles_;  // the 'while' of a do loop -> its body
};

}  // namespace

void count_scalar_work(Unit &u) { WorkCounter(u).run(); }

}  // namespace mlusim::cncc
