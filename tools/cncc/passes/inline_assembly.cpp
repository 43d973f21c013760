// Inline assembly in device code: asm volatile("template" : outputs : inputs
// : clobbers). The template is MLISA, the device's instruction set, which the
// host assembler cannot build. The statement becomes a lambda called with the
// operands, in order, the operand expressions staying in place (so the other
// passes' edits inside them hold):
//   __asm__ volatile("sync;")                     -> []() { at(...); __sync(); }()
//   asm("findlast1.gpr.b32 %[d], %[s];" : [d] "+&r"(e) : [s] "r"(n))
//     -> [](auto &&mlusim_asm_0, auto &&mlusim_asm_1) { at(...);
//          mlusim_asm_0 = asm_findlast1(mlusim_asm_1); }(e, n)
// with the statements of mlisa.h. A template with any other instruction calls
// a function declared with GCC's error attribute, naming the instruction:
// a compile error when the program really uses the statement (a device
// function nobody calls, or a template nobody instantiates, still compiles).
#include "tools/cncc/mlisa.h"
#include "tools/cncc/passes/passes.h"

namespace mlusim::cncc {
namespace {

// One operand "[name] "r"(expression)": its name and the expression's parentheses.
struct AsmOperand {
  std::string name;
  size_t open, close;
};

struct AsmStatement {
  size_t first, open, close;  // the asm keyword, its '(' and ')'
  std::string text;           // the template's characters
  std::vector<AsmOperand> operands;  // outputs, then inputs
};

bool is_asm_keyword(std::string_view w) { return w == "asm" || w == "__asm__" || w == "__asm"; }
bool is_asm_qualifier(std::string_view w) {
  return w == "volatile" || w == "__volatile__" || w == "__volatile" || w == "inline" ||
         w == "__inline__" || w == "goto";
}

// The sections between the parentheses, split at ':' ("::" is two: an empty
// section between), as token ranges [first, last).
std::vector<std::pair<size_t, size_t>> sections(const Unit &u, size_t open, size_t close) {
  std::vector<std::pair<size_t, size_t>> out;
  size_t start = open + 1;
  int depth = 0;
  for (size_t k = open + 1; k < close; ++k) {
    const std::string_view w = u.text(k);
    if (w == "(" || w == "[" || w == "{") ++depth;
    else if (w == ")" || w == "]" || w == "}") --depth;
    else if (depth == 0 && (w == ":" || w == "::")) {
      out.emplace_back(start, k);
      if (w == "::") out.emplace_back(k, k);
      start = k + 1;
    }
  }
  out.emplace_back(start, close);
  return out;
}

// The operands of one section: "[name] "constraint" (expression)", ...
// (linemarkers between them skipped).
bool read_operands(const Unit &u, std::pair<size_t, size_t> section, std::vector<AsmOperand> *out) {
  for (size_t k = section.first; k < section.second;) {
    if (u[k].kind == Kind::kDirective) {
      ++k;
      continue;
    }
    AsmOperand o{"", 0, 0};
    if (u.is(k, "[")) {
      o.name = std::string(u.text(k + 1));
      if (!u.is(k + 2, "]")) return false;
      k += 3;
    }
    if (u[k].kind != Kind::kLiteral || !u.is(k + 1, "(")) return false;
    o.open = k + 1;
    o.close = u.matching(o.open);
    if (o.close >= section.second) return false;
    out->push_back(o);
    k = o.close + 1;
    while (k < section.second && u[k].kind == Kind::kDirective) ++k;
    if (k < section.second && !u.is(k, ",")) return false;
    k += k < section.second ? 1 : 0;
  }
  return true;
}

// "int x asm("r1")": an asm label of a declaration, not a statement.
bool is_asm_label(const Unit &u, size_t first) {
  return first > 0 && (u[first - 1].kind == Kind::kIdent || u.is(first - 1, "]")) &&
         !u.is(first - 1, "else") && !u.is(first - 1, "do");
}

// Reads the asm statement at `first`; false if it cannot.
bool read_statement(const Unit &u, size_t first, AsmStatement *s) {
  size_t open = first + 1;
  while (open < u.size() && u[open].kind == Kind::kIdent && is_asm_qualifier(u.text(open))) ++open;
  if (!u.is(open, "(")) return false;
  *s = AsmStatement{first, open, u.matching(open), "", {}};
  if (s->close >= u.size()) return false;
  const auto parts = sections(u, s->open, s->close);
  for (size_t k = parts[0].first; k < parts[0].second; ++k) {
    if (u[k].kind == Kind::kDirective) continue;
    if (u[k].kind != Kind::kLiteral) return false;
    s->text += literal_characters(u.text(k));
  }
  for (size_t p = 1; p < parts.size() && p <= 2; ++p)
    if (!read_operands(u, parts[p], &s->operands)) return false;
  return true;
}

// The first token of the namespace-scope declaration holding token i (after
// the last ';', '{' or '}' at namespace scope before it).
size_t enclosing_declaration(const Unit &u, size_t i) {
  size_t k = i;
  while (k > 0) {
    --k;
    if (u.at_namespace_scope(k) && !u.in_parens(k) &&
        (u.is(k, ";") || u.is(k, "{") || u.is(k, "}"))) {
      ++k;
      break;
    }
  }
  while (k < i && u[k].kind == Kind::kDirective) ++k;
  return k;
}

// A statement mlusim does not run: a call of a function whose declaration
// (before the enclosing declaration) carries the error.
std::string unsupported(Unit &u, const AsmStatement &s, const std::string &instruction) {
  const std::string function = "mlusim_unsimulated_asm_" + std::to_string(s.first);
  const std::string message = "mlusim: inline assembly '" + instruction + "' (" + u.where(s.first) +
                              ") is MLISA, which mlusim does not simulate (mlusim-cncc "
                              "translates the instructions listed in docs/bang_c.md)";
  u.insert_before(enclosing_declaration(u, s.first),
                  "void " + function + "() __attribute__((error(" + quoted(message) + "))); ");
  return function + "();";
}

void rewrite(Unit &u, const AsmStatement &s) {
  std::vector<std::string> names;
  for (const AsmOperand &o : s.operands) names.push_back(o.name);
  const MlisaTranslation t = translate_mlisa(s.text, names);
  const std::string body = t.unsupported.empty()
                               ? "::mlusim::bang::at(" + quoted(u.where(s.first)) + "); " + t.statements
                               : unsupported(u, s, t.unsupported);
  std::string parameters;
  for (size_t k = 0; k < s.operands.size(); ++k)
    parameters += (k > 0 ? ", " : "") + std::string("auto &&mlusim_asm_") + std::to_string(k);
  const std::string lambda = "[](" + parameters + ") { " + body + " }(";
  if (s.operands.empty()) return u.replace(s.first, s.close, lambda + ")");
  u.replace(s.first, s.operands[0].open, lambda);
  for (size_t k = 1; k < s.operands.size(); ++k)
    u.replace(s.operands[k - 1].close, s.operands[k].open, ", ");
  u.replace(s.operands.back().close, s.close, ")");
}

}  // namespace

void translate_inline_assembly(Unit &u) {
  for (size_t i = 0; i < u.size(); ++i) {
    if (u[i].system || u[i].kind != Kind::kIdent || !is_asm_keyword(u.text(i)) ||
        !u.in_device(i) || is_asm_label(u, i))
      continue;
    AsmStatement s;
    if (read_statement(u, i, &s)) rewrite(u, s);
    else u.error(i, "cannot read this inline assembly (mlusim-cncc reads asm [volatile] "
                    "(\"template\" : outputs : inputs : clobbers))");
  }
}

}  // namespace mlusim::cncc
