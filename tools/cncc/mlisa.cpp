#include "tools/cncc/mlisa.h"

#include <cctype>
#include <optional>

#include "tools/cncc/unit.h"

namespace mlusim::cncc {
namespace {

// One operand of an instruction, as C++: a register's value ("%[x]"), a
// memory operand's address ("[%[x]]"), an immediate ("1", "0x7f"), or a fuse
// step ".op(operand)".
struct Operand {
  enum class Kind { kRegister, kMemory, kImmediate, kStep } kind;
  std::string expr;     // the value; for a step, its operand's
  std::string step;     // kStep: the operation's name
  bool vector = false;  // kStep: its operand is in memory
  bool scalar() const { return kind == Kind::kRegister || kind == Kind::kImmediate; }
};

struct Instruction {
  std::string text;  // whitespace collapsed, for messages
  std::string mnemonic;
  std::vector<Operand> operands;
};

bool is_space(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

std::string collapse_spaces(std::string_view s) {
  std::string out;
  for (char c : trim(s)) {
    if (!is_space(c)) out += c;
    else if (out.back() != ' ') out += ' ';
  }
  return out;
}

// "%[name]" or "%3": the asm operand it names, as the lambda's parameter.
std::optional<std::string> reference(std::string_view s, const std::vector<std::string> &names) {
  if (s.size() < 2 || s[0] != '%') return std::nullopt;
  size_t index = names.size();
  if (s[1] == '[' && s.back() == ']') {
    const std::string_view name = trim(s.substr(2, s.size() - 3));
    for (size_t k = 0; k < names.size() && index == names.size(); ++k)
      if (names[k] == name) index = k;
  } else if (s.find_first_not_of("0123456789", 1) == std::string_view::npos) {
    index = std::stoul(std::string(s.substr(1)));
  }
  if (index >= names.size()) return std::nullopt;
  return "mlusim_asm_" + std::to_string(index);
}

bool is_immediate(std::string_view s) {
  if (!s.empty() && s[0] == '-') s.remove_prefix(1);
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
    return s.find_first_not_of("0123456789abcdefABCDEF", 2) == std::string_view::npos;
  return !s.empty() && s.find_first_not_of("0123456789") == std::string_view::npos;
}

std::optional<Operand> operand(std::string_view s, const std::vector<std::string> &names) {
  s = trim(s);
  if (s.size() > 2 && s.front() == '[' && s.back() == ']') {
    const auto address = reference(trim(s.substr(1, s.size() - 2)), names);
    if (!address) return std::nullopt;
    return Operand{Operand::Kind::kMemory, *address, "", false};
  }
  if (s.size() > 3 && s.front() == '.' && s.back() == ')') {  // .op(argument)
    const size_t open = s.find('(');
    if (open == std::string_view::npos) return std::nullopt;
    const auto argument = operand(s.substr(open + 1, s.size() - open - 2), names);
    if (!argument || argument->kind == Operand::Kind::kStep) return std::nullopt;
    return Operand{Operand::Kind::kStep, argument->expr, std::string(trim(s.substr(1, open - 1))),
                   argument->kind == Operand::Kind::kMemory};
  }
  if (auto value = reference(s, names)) return Operand{Operand::Kind::kRegister, *value, "", false};
  if (is_immediate(s)) return Operand{Operand::Kind::kImmediate, std::string(s), "", false};
  return std::nullopt;
}

// "mnemonic a, [b], .op(c)": false if an operand is not one we read.
bool read_instruction(std::string_view text, const std::vector<std::string> &names,
                      Instruction *out) {
  out->text = collapse_spaces(text);
  const size_t space = out->text.find(' ');
  out->mnemonic = out->text.substr(0, space);
  if (space == std::string::npos) return true;
  const std::string_view rest = std::string_view(out->text).substr(space + 1);
  int depth = 0;
  size_t start = 0;
  for (size_t k = 0; k <= rest.size(); ++k) {
    if (k < rest.size() && (rest[k] == '(' || rest[k] == '[')) ++depth;
    else if (k < rest.size() && (rest[k] == ')' || rest[k] == ']')) --depth;
    else if (k == rest.size() || (rest[k] == ',' && depth == 0)) {
      const auto o = operand(rest.substr(start, k - start), names);
      if (!o) return false;
      out->operands.push_back(*o);
      start = k + 1;
    }
  }
  return true;
}

// The element type a ".f32" / ".s32" / ... suffix names, as C++.
struct ElementType {
  std::string_view suffix;
  const char *cpp;
  bool floating;
};
constexpr ElementType kElementTypes[] = {
    {"f16", "_Float16", true},       {"f32", "float", true},
    {"s32", "::std::int32_t", false}, {"u32", "::std::uint32_t", false},
    {"s16", "::std::int16_t", false}, {"u16", "::std::uint16_t", false},
    {"s8", "::std::int8_t", false},   {"u8", "::std::uint8_t", false},
};
const ElementType *element_type(std::string_view suffix) {
  for (const ElementType &t : kElementTypes)
    if (t.suffix == suffix) return &t;
  return nullptr;
}

// A fuse step's operation (FuseOp in assembly.h); bitwise ones on integers only.
const char *fuse_op(std::string_view name, const ElementType &type) {
  static constexpr std::pair<std::string_view, const char *> kOps[] = {
      {"add", "kAdd"}, {"sub", "kSub"}, {"mul", "kMul"}, {"eq", "kEq"},   {"ne", "kNe"},
      {"lt", "kLt"},   {"le", "kLe"},   {"gt", "kGt"},   {"ge", "kGe"},   {"and", "kAnd"},
      {"or", "kOr"},   {"xor", "kXor"},
  };
  const bool bitwise = name == "and" || name == "or" || name == "xor";
  for (const auto &[op, enumerator] : kOps)
    if (op == name && !(bitwise && type.floating)) return enumerator;
  return nullptr;
}

std::string fuse_call(const Instruction &in, const ElementType &type, const Operand &dst,
                      const Operand &count, const Operand &src, const std::string &steps) {
  return std::string("::mlusim::bang::asm_fuse<") + type.cpp + ">(" + quoted(in.text) + ", " +
         dst.expr + ", " + count.expr + ", " + src.expr + ", {" + steps + "});";
}

std::string fuse_step(const ElementType &type, const char *op, const Operand &step) {
  return std::string("::mlusim::bang::fuse_") + (step.vector ? "vector<" : "scalar<") + type.cpp +
         ">(::mlusim::bang::FuseOp::" + op + ", " + step.expr + ")";
}

using Kind = Operand::Kind;

// fuse.nram.<t> [dst], count, [src], .op(x), .op([v]), ...
std::optional<std::string> fuse(const Instruction &in, const ElementType &type) {
  const auto &o = in.operands;
  if (o.size() < 4 || o[0].kind != Kind::kMemory || !o[1].scalar() || o[2].kind != Kind::kMemory)
    return std::nullopt;
  std::string steps;
  for (size_t k = 3; k < o.size(); ++k) {
    const char *op = o[k].kind == Kind::kStep ? fuse_op(o[k].step, type) : nullptr;
    if (op == nullptr) return std::nullopt;
    steps += (k > 3 ? ", " : "") + fuse_step(type, op, o[k]);
  }
  return fuse_call(in, type, o[0], o[1], o[2], steps);
}

// div.scalar.nram.<t> [dst], [src], x, count: dst = src / x, floating types.
std::optional<std::string> divide_by_scalar(const Instruction &in, const ElementType &type) {
  const auto &o = in.operands;
  if (!type.floating || o.size() != 4 || o[0].kind != Kind::kMemory ||
      o[1].kind != Kind::kMemory || !o[2].scalar() || !o[3].scalar())
    return std::nullopt;
  return fuse_call(in, type, o[0], o[3], o[1], fuse_step(type, "kDiv", o[2]));
}

// gather[.clean].nram.nram.nram.b32.u32 [dst], [src], [offsets], count.
std::optional<std::string> gather(const Instruction &in) {
  const auto &o = in.operands;
  if (o.size() != 4 || o[0].kind != Kind::kMemory || o[1].kind != Kind::kMemory ||
      o[2].kind != Kind::kMemory || !o[3].scalar())
    return std::nullopt;
  return "::mlusim::bang::asm_gather_b32(" + quoted(in.text) + ", " + o[0].expr + ", " +
         o[1].expr + ", " + o[2].expr + ", " + o[3].expr + ");";
}

// ld.3d.async.nram.gdram.<hint> [dst], [src], size, then the 3-D form's
// strides and counts, all 0 (one segment): an async GDRAM2NRAM load of size
// bytes. The hint (scmlock, scmunlock, scmnormal: the gtest harness's LLC
// flush for mtp_592) steers the last-level cache, which mlusim does not model.
std::optional<std::string> hinted_load(const Instruction &in) {
  const auto &o = in.operands;
  if (o.size() != 11 || o[0].kind != Kind::kMemory || o[1].kind != Kind::kMemory ||
      !o[2].scalar())
    return std::nullopt;
  for (size_t k = 3; k < o.size(); ++k)
    if (o[k].kind != Kind::kImmediate || o[k].expr != "0") return std::nullopt;
  return "__memcpy_async(" + o[0].expr + ", " + o[1].expr + ", " + o[2].expr + ", GDRAM2NRAM);";
}

// gather.vector.nram.nram.nram.u32 [dst], [src], [offsets], size, count, stride.
std::optional<std::string> gather_vector(const Instruction &in) {
  const auto &o = in.operands;
  if (o.size() != 6 || o[0].kind != Kind::kMemory || o[1].kind != Kind::kMemory ||
      o[2].kind != Kind::kMemory || !o[3].scalar() || !o[4].scalar() || !o[5].scalar())
    return std::nullopt;
  return "::mlusim::bang::asm_gather(" + quoted(in.text) + ", " + o[0].expr + ", " + o[1].expr +
         ", " + o[2].expr + ", " + o[3].expr + ", " + o[4].expr + ", " + o[5].expr + ");";
}

std::optional<std::string> statement(const Instruction &in) {
  const auto &o = in.operands;
  const std::string &m = in.mnemonic;
  if (m == "sync" && o.empty()) return "__sync();";
  for (std::string_view hint : {"scmlock", "scmunlock", "scmnormal"})
    if (m == "ld.3d.async.nram.gdram." + std::string(hint)) return hinted_load(in);
  if (m == "findlast1.gpr.b32" && o.size() == 2 && o[0].kind == Kind::kRegister &&
      o[1].kind == Kind::kRegister)
    return o[0].expr + " = ::mlusim::bang::asm_findlast1(" + o[1].expr + ");";
  for (std::string_view prefix : {"fuse.nram.", "div.scalar.nram."}) {
    if (m.rfind(prefix, 0) != 0) continue;
    const ElementType *type = element_type(std::string_view(m).substr(prefix.size()));
    if (type == nullptr) return std::nullopt;
    return prefix == "fuse.nram." ? fuse(in, *type) : divide_by_scalar(in, *type);
  }
  if (m == "gather.clean.nram.nram.nram.b32.u32" || m == "gather.nram.nram.nram.b32.u32")
    return gather(in);
  if (m == "gather.vector.nram.nram.nram.u32") return gather_vector(in);
  if (m.rfind("index.vvr.", 0) == 0 && element_type(std::string_view(m).substr(10)) != nullptr &&
      o.size() == 3 && o[0].kind == Kind::kRegister && o[1].scalar() && o[2].scalar())
    return "__vv_index(" + o[0].expr + ", " + o[1].expr + ", " + o[2].expr + ");";
  return std::nullopt;
}

}  // namespace

MlisaTranslation translate_mlisa(std::string_view text, const std::vector<std::string> &names) {
  MlisaTranslation out;
  // ".volatile{ ... }" asks the assembler to keep the instructions in order,
  // as a simulated core runs them anyway.
  text = trim(text);
  if (text.rfind(".volatile{", 0) == 0 && text.back() == '}')
    text = text.substr(10, text.size() - 11);
  size_t start = 0;
  for (size_t k = 0; k <= text.size(); ++k) {
    if (k < text.size() && text[k] != ';' && text[k] != '\n') continue;
    const std::string_view one = trim(text.substr(start, k - start));
    start = k + 1;
    if (one.empty()) continue;
    Instruction in;
    const auto s = read_instruction(one, names, &in) ? statement(in) : std::nullopt;
    if (!s) return MlisaTranslation{"", collapse_spaces(one)};
    out.statements += (out.statements.empty() ? "" : " ") + *s;
  }
  return out;
}

std::string literal_characters(std::string_view literal) {
  const size_t open = literal.find('"'), close = literal.rfind('"');
  std::string out;
  if (open == std::string_view::npos || close <= open) return out;
  for (size_t k = open + 1; k < close; ++k) {
    if (literal[k] != '\\' || k + 1 >= close) {
      out += literal[k];
      continue;
    }
    const char e = literal[++k];
    out += e == 'n' ? '\n' : e == 't' ? '\t' : e == 'r' ? '\r' : e;
  }
  return out;
}

}  // namespace mlusim::cncc
