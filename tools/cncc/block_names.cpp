#include "tools/cncc/block_names.h"

namespace mlusim::cncc {

bool is_expression_keyword(std::string_view w) {
  for (std::string_view k : {"return", "case", "sizeof", "alignof", "else", "do", "throw", "new",
                             "delete", "goto", "co_return", "co_yield", "co_await"})
    if (w == k) return true;
  return false;
}

namespace {

// Names that spell a type before "*name" / "&name" (where "a * buf" would
// otherwise be a product).
bool is_builtin_type(std::string_view w) {
  for (std::string_view k : {"void", "char", "short", "int", "long", "float", "double", "bool",
                             "signed", "unsigned", "auto", "half", "bfloat16"})
    if (w == k) return true;
  return w.size() > 2 && w.substr(w.size() - 2) == "_t";
}

}  // namespace

void BlockNames::step(size_t i) {
  const Token &t = u_[i];
  const std::string_view w = u_.text(i);
  if (template_angles_ > 0) {  // "template <typename T, int N>": T names a type there
    if (w == "<") {
      ++template_angles_;
    } else if (w == ">" && --template_angles_ == 0) {
      template_open_ = true;
    } else if ((w == "typename" || w == "class") && i + 1 < u_.size() &&
               u_[i + 1].kind == Kind::kIdent) {
      template_types_.push_back(Name{std::string(u_.text(i + 1)), 0, kUnscoped});
    }
    return;
  }
  if (t.kind == Kind::kPunct) {
    if (w == ";" && !u_.in_parens(i)) {
      parameters_.clear();  // a prototype's
      close_template_scope(kUnscoped);  // a template declared without a body
    } else if (w == "{") {
      ++depth_;
      namespace_blocks_.push_back(opens_namespace(i));
      if (!namespace_blocks_.back()) ++bodies_;
      for (Name &p : parameters_) names_.push_back(Name{std::move(p.name), p.value, depth_});
      parameters_.clear();
      if (template_open_) {  // the template's body: its parameters live as long
        for (Name &n : template_types_)
          if (n.depth == kUnscoped) n.depth = depth_;
        template_open_ = false;
      }
    } else if (w == "}" && depth_ > 0) {
      while (!names_.empty() && names_.back().depth == depth_) names_.pop_back();
      while (!local_types_.empty() && local_types_.back().depth == depth_) local_types_.pop_back();
      if (!namespace_blocks_.back()) --bodies_;
      namespace_blocks_.pop_back();
      close_template_scope(depth_);
      --depth_;
    }
  } else if (t.kind == Kind::kIdent && !t.system) {
    if (w == "template" && u_.is(i + 1, "<")) {
      template_angles_ = -1;  // the next token, '<', opens the list
    } else if (i + 1 < u_.size() && u_[i + 1].kind == Kind::kIdent) {
      if (w == "class" || w == "struct" || w == "union" || w == "enum")
        type_names_.insert(std::string(u_.text(i + 1)));
      else if (w == "using" && u_.is(i + 2, "="))  // "using Index = int;"
        declare_type(u_.text(i + 1));
    }
  }
  if (template_angles_ < 0 && w == "<") template_angles_ = 1;
  // "typedef unsigned int Index;": the name before the ';'.
  if (t.kind == Kind::kIdent && !t.system && w == "typedef") {
    typedef_open_ = true;
  } else if (typedef_open_ && w == ";") {
    typedef_open_ = false;
    if (i > 0 && u_[i - 1].kind == Kind::kIdent) declare_type(u_.text(i - 1));
  }
}

void BlockNames::declare_type(std::string_view name) {
  if (bodies_ > 0) local_types_.push_back(Name{std::string(name), 0, depth_});
  else type_names_.insert(std::string(name));
}

// "namespace a::b {", "namespace {", "extern "C" {": not a body.
bool BlockNames::opens_namespace(size_t brace) const {
  size_t k = brace;
  while (k > 0 && (u_[k - 1].kind == Kind::kIdent || u_.is(k - 1, "::")) &&
         u_.text(k - 1) != "namespace")
    --k;
  return k > 0 && (u_.text(k - 1) == "namespace" || u_[k - 1].kind == Kind::kLiteral);
}

void BlockNames::close_template_scope(size_t depth) {
  if (depth == kUnscoped && !template_open_) return;
  while (!template_types_.empty() && template_types_.back().depth == depth)
    template_types_.pop_back();
  if (depth == kUnscoped) template_open_ = false;
}

bool BlockNames::is_type(std::string_view w) const {
  if (is_builtin_type(w) || type_names_.count(std::string(w)) != 0) return true;
  for (const Name &n : template_types_)
    if (n.name == w) return true;
  for (const Name &n : local_types_)
    if (n.name == w) return true;
  return false;
}

bool BlockNames::declares(size_t i) const {
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

void BlockNames::declare(size_t i, const std::string &name, int value) {
  if (u_.in_parens(i)) parameters_.push_back(Name{name, value, 0});
  else if (depth_ > 0) names_.push_back(Name{name, value, depth_});
}

std::optional<int> BlockNames::find(const std::string &name) const {
  for (auto n = names_.rbegin(); n != names_.rend(); ++n)
    if (n->name == name) return n->value;
  return std::nullopt;
}

}  // namespace mlusim::cncc
