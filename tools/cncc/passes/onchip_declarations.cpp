// __nram__ / __wram__ / __mlu_shared__ / __ldram__ variables. Each declaration
// becomes an OnchipSite (include/mlusim/bang/detail/program.h) and a name for
// the calling core's instance of it:
//   at function scope, a local reference (or pointer) bound to the instance
//   each time the declaration runs; an initializer runs each time too;
//   at file scope, every later use of the name becomes the instance; an
//   initializer is copied in at each launch.
// On a pointer parameter or in a cast the qualifier is dropped.
#include "tools/cncc/passes/passes.h"

namespace mlusim::cncc {
namespace {

const char *space_of(std::string_view qualifier) {
  if (qualifier == "__nram__") return "::mlusim::Space::kNram";
  if (qualifier == "__wram__") return "::mlusim::Space::kWram";
  if (qualifier == "__mlu_shared__") return "::mlusim::Space::kSram";
  if (qualifier == "__ldram__") return "::mlusim::Space::kLdram";
  return nullptr;
}

bool is_storage_keyword(std::string_view w) {
  return w == "static" || w == "extern" || w == "const" || w == "volatile" || w == "constexpr" ||
         w == "register" || w == "inline";
}

void note_keyword(std::string_view w, OnchipDeclaration *d) {
  if (w == "static") d->is_static = true;
  else if (w == "extern") d->is_extern = true;
  else if (w == "const" || w == "volatile") d->type += std::string(w) + " ";
}

// Tokens (from, to) after the qualifier: type, then declarators split at
// top-level commas. The name is the last identifier before '[', '=' or ','.
bool parse_declarators(const Unit &u, size_t from, size_t to, OnchipDeclaration *decl) {
  std::vector<std::pair<size_t, size_t>> parts;
  int depth = 0;
  size_t start = from;
  for (size_t k = from; k < to; ++k) {
    const std::string_view w = u.text(k);
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
    while (stop < e && !u.is(stop, "[") && !u.is(stop, "=")) ++stop;
    if (stop == b || u[stop - 1].kind != Kind::kIdent) return false;
    const size_t name = stop - 1;
    size_t ptr = name;
    while (ptr > b && (u.is(ptr - 1, "*") || u.is(ptr - 1, "&"))) --ptr;
    if (p == 0) {
      for (size_t k = b; k < ptr; ++k) {
        if (u[k].kind == Kind::kIdent && is_storage_keyword(u.text(k)) && u.text(k) != "const" &&
            u.text(k) != "volatile") {
          note_keyword(u.text(k), decl);
          continue;
        }
        decl->type += std::string(u.text(k)) + " ";
      }
      if (decl->type.empty()) return false;
    } else if (ptr != b) {
      return false;
    }
    Declarator d;
    d.pointers = u.span(ptr, name);
    d.name = std::string(u.text(name));
    size_t eq = stop;
    while (eq < e && !u.is(eq, "=")) ++eq;
    d.dims = u.span(stop, eq);
    for (size_t k = stop; k < eq && u.is(k, "["); k = u.matching(k) + 1) {
      ++d.rank;
      d.extent = u.span(k + 1, u.matching(k));
    }
    d.init = eq < e ? u.span(eq + 1, e) : "";
    decl->declarators.push_back(std::move(d));
  }
  return true;
}

// Reads the declaration whose qualifier is at q; false (with an error) if it
// cannot.
bool read_declaration(Unit &u, size_t q, OnchipDeclaration *decl) {
  const std::string_view qualifier = u.text(q);
  size_t first = q;
  while (first > 0 && u[first - 1].kind == Kind::kIdent && is_storage_keyword(u.text(first - 1)))
    --first;
  size_t last = q + 1;
  int depth = 0;
  for (; last < u.size(); ++last) {
    const std::string_view w = u.text(last);
    if (w == "(" || w == "[" || w == "{") ++depth;
    else if (w == ")" || w == "]" || w == "}") --depth;
    else if (w == ";" && depth == 0) break;
  }
  if (last >= u.size()) {
    u.error(q, std::string(qualifier) + " declaration without ';'");
    return false;
  }
  *decl = OnchipDeclaration{first, q, last, std::string(qualifier), !u.in_function(q),
                            false, false, "", {}};
  for (size_t k = first; k < q; ++k) note_keyword(u.text(k), decl);
  if (!parse_declarators(u, q + 1, last, decl)) {
    u.error(q, "cannot read this " + std::string(qualifier) +
                   " declaration (mlusim-cncc reads 'T name[N] = init, ...;')");
    return false;
  }
  return true;
}

std::string site(const Unit &u, const OnchipDeclaration &decl, const Declarator &d,
                 const std::string &var, const std::string &init) {
  return "::mlusim::bang::OnchipSite " + var + "{" + space_of(decl.space) + ", " + quoted(d.name) +
         ", " + quoted(u.where(decl.qualifier)) + ", " + init + "}; ";
}

// A one-dimensional array without initializer is a pointer to the core's
// instance, so its extent may be a run-time value (mlusim's operators size
// their NRAM buffer for the simulated device they run on).
bool is_pointer_form(const Declarator &d) { return d.rank == 1 && d.init.empty() && !d.extent.empty(); }

std::string pointer_form(const std::string &type, const Declarator &d, const std::string &var) {
  return "::mlusim::bang::onchip_array<" + type + d.pointers + ">(" + var + ", (" + d.extent + "))";
}

// A declaration inside a kernel or device function: the core's instance; an
// initializer runs each time, as for a local variable.
std::string local_variable(const Unit &u, const OnchipDeclaration &decl, const Declarator &d) {
  const std::string &type = decl.type;
  const std::string var = "mlusim_site_" + d.name + "_" + std::to_string(decl.qualifier);
  const std::string init_var = "mlusim_init_" + d.name + "_" + std::to_string(decl.qualifier);
  std::string out;
  if (is_pointer_form(d)) {
    return out + "static " + site(u, decl, d, var, "nullptr") + type + d.pointers + "*const " +
           d.name + " = " + pointer_form(type, d, var) + "; ";
  }
  std::string object_type = type + d.pointers + d.dims;
  const bool unsized = d.dims.find("[]") != std::string::npos;
  const bool array_init = !d.init.empty() && !d.dims.empty();
  if (array_init) {
    out += type + d.pointers + " " + init_var + d.dims + " = " + d.init + "; ";
    if (unsized) object_type = "decltype(" + init_var + ")";
  }
  out += "static " + site(u, decl, d, var, "nullptr");
  out += type + d.pointers + "(&" + d.name + ")" + d.dims + " = ::mlusim::bang::onchip<" +
         object_type + ">(" + var + "); ";
  if (array_init) out += "::mlusim::bang::assign(" + d.name + ", " + init_var + "); ";
  else if (!d.init.empty()) out += "::mlusim::bang::assign(" + d.name + ", (" + d.init + ")); ";
  return out;
}

// The rewrite of the file-scope names: name -> the calling core's instance.
using FileScopeNames = std::map<std::string, std::string>;

// A declaration at file scope: the site, and the expression every later use
// of the name becomes; an initializer is copied in at each launch.
std::string file_scope_variable(const Unit &u, const OnchipDeclaration &decl, const Declarator &d,
                                FileScopeNames *names) {
  const std::string &type = decl.type;
  const std::string var = "mlusim_site_" + d.name;
  const std::string init_var = "mlusim_init_" + d.name;
  std::string out, object_type = type + d.pointers + d.dims, init = "nullptr";
  if (!d.init.empty()) {
    out += "static const " + type + d.pointers + " " + init_var + d.dims + " = " + d.init + "; ";
    if (d.dims.find("[]") != std::string::npos)
      object_type = "std::remove_const_t<decltype(" + init_var + ")>";
    init = "&" + init_var;
  }
  out += (decl.is_static ? "static " : "inline ") + site(u, decl, d, var, init);
  (*names)[d.name] = is_pointer_form(d)
                         ? "(" + pointer_form(type, d, var) + ")"
                         : "(::mlusim::bang::onchip<" + object_type + ">(" + var + "))";
  return out;
}

}  // namespace

void rewrite_onchip_declarations(Unit &u) {
  FileScopeNames names;
  size_t skip_until = 0;  // tokens of the declaration just rewritten
  for (size_t i = 0; i < u.size(); ++i) {
    if (u[i].system || u[i].kind != Kind::kIdent) continue;
    const std::string_view w = u.text(i);
    if (space_of(w) != nullptr) {
      if (u.in_parens(i)) {  // on a pointer parameter or in a cast
        u.replace(i, i, "");
        continue;
      }
      OnchipDeclaration decl;
      if (!read_declaration(u, i, &decl)) continue;
      std::string out;
      for (const Declarator &d : decl.declarators)
        out += decl.file_scope ? file_scope_variable(u, decl, d, &names) : local_variable(u, decl, d);
      u.replace(decl.first, decl.last, out);
      skip_until = decl.last;
      u.onchip.push_back(std::move(decl));
    } else if (i > skip_until && !u.member_access_before(i) && !is_function_qualifier(w)) {
      if (auto v = names.find(std::string(w)); v != names.end()) u.replace(i, i, v->second);
    }
  }
}

}  // namespace mlusim::cncc
