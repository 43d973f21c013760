// __nram__ / __wram__ / __mlu_shared__ / __ldram__ variables. Each declaration
// becomes an OnchipSite (include/mlusim/bang/detail/onchip_variables.h) and a name for
// the calling core's instance of it:
//   at function scope, a local reference (or pointer) bound to the instance
//   each time the declaration runs; an initializer runs each time too;
//   at file scope, every later use of the name becomes the instance (where no
//   local or parameter of that name hides it); an initializer is copied in at
//   each launch. The variable belongs to its .mlu file (a name in an unnamed
//   namespace); extern declarations of it, in any header, refer to the file's
//   one definition.
// On a pointer parameter or in a cast the qualifier is dropped.
#include <set>

#include "tools/cncc/block_names.h"
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
  if (w == "extern") d->is_extern = true;
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
                            false, "", {}};
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

// What a use of the file-scope variable d becomes: the calling core's instance.
std::string instance(const OnchipDeclaration &decl, const Declarator &d) {
  const std::string var = "mlusim_site_" + d.name;
  // std::string("("): "(" + a temporary string trips a false -Wrestrict in GCC 12.
  if (is_pointer_form(d)) return std::string("(") + pointer_form(decl.type, d, var) + ")";
  std::string object_type = decl.type + d.pointers + d.dims;
  if (!d.init.empty() && d.dims.find("[]") != std::string::npos)
    object_type = "std::remove_const_t<decltype(mlusim_init_" + d.name + ")>";
  return "(::mlusim::bang::onchip<" + object_type + ">(" + var + "))";
}

// A declaration at file scope: the site, in an unnamed namespace (on the
// device each .mlu file is its own module, so two files' variables of one name
// are two variables); an initializer is copied in at each launch. An extern
// declaration declares the site, which the file's definition defines.
std::string file_scope_variable(const Unit &u, const OnchipDeclaration &decl, const Declarator &d) {
  const std::string var = "mlusim_site_" + d.name;
  if (decl.is_extern) return "namespace { extern ::mlusim::bang::OnchipSite " + var + "; } ";
  const std::string init_var = "mlusim_init_" + d.name;
  std::string out = "namespace { ", init = "nullptr";
  if (!d.init.empty()) {
    out += "const " + decl.type + d.pointers + " " + init_var + d.dims + " = " + d.init + "; ";
    init = "&" + init_var;
  }
  // A file's unused variable is no warning in cncc (it is a global there).
  return out + "[[maybe_unused]] " + site(u, decl, d, var, init) + "} ";
}

// Every on-chip declaration in the unit (in order); a qualifier on a pointer
// parameter or in a cast is dropped.
std::vector<OnchipDeclaration> read_declarations(Unit &u) {
  std::vector<OnchipDeclaration> found;
  for (size_t i = 0; i < u.size(); ++i) {
    if (u[i].system || u[i].kind != Kind::kIdent || space_of(u.text(i)) == nullptr) continue;
    OnchipDeclaration decl;
    if (u.in_parens(i)) u.replace(i, i, "");
    else if (read_declaration(u, i, &decl)) found.push_back(std::move(decl));
  }
  return found;
}

// File-scope name -> what its uses become, from the file's definition ("" for
// a name only declared extern here).
std::map<std::string, std::string> file_scope_instances(const std::vector<OnchipDeclaration> &decls) {
  std::map<std::string, std::string> instances;
  for (const OnchipDeclaration &decl : decls)
    for (const Declarator &d : decl.declarators)
      if (decl.file_scope && !decl.is_extern) instances[d.name] = instance(decl, d);
      else if (decl.file_scope) instances.emplace(d.name, "");
  return instances;
}

}  // namespace

void rewrite_onchip_declarations(Unit &u) {
  u.onchip = read_declarations(u);
  const std::map<std::string, std::string> instances = file_scope_instances(u.onchip);
  std::set<std::string> declared, reported;  // file-scope names so far; undefined ones used
  // A local or parameter of a file-scope name hides it; blocks are followed
  // from the first file-scope declaration on (at namespace scope, so no block
  // is open there), which skips the headers before it.
  BlockNames locals(u);
  size_t next = 0, skip_until = 0;  // the next declaration; the end of the last one
  for (size_t i = 0; i < u.size(); ++i) {
    if (!declared.empty()) locals.step(i);
    if (next < u.onchip.size() && u.onchip[next].qualifier == i) {
      const OnchipDeclaration &decl = u.onchip[next++];
      std::string out;
      for (const Declarator &d : decl.declarators) {
        out += decl.file_scope ? file_scope_variable(u, decl, d) : local_variable(u, decl, d);
        if (decl.file_scope) declared.insert(d.name);
        else locals.declare(i, d.name, 0);
      }
      u.replace(decl.first, decl.last, out);
      skip_until = decl.last;
      continue;
    }
    if (u[i].system || u[i].kind != Kind::kIdent || i <= skip_until || u.member_access_before(i))
      continue;
    const std::string name(u.text(i));
    if (declared.count(name) == 0 || locals.find(name)) continue;
    if (locals.declares(i)) {
      locals.declare(i, name, 0);
      continue;
    }
    const std::string &use = instances.at(name);
    if (!use.empty()) u.replace(i, i, use);
    else if (reported.insert(name).second)
      u.error(i, "'" + name + "' is declared extern but not defined in this file: each .mlu file is "
                 "its own device module, so its on-chip variables are defined in it");
  }
}

}  // namespace mlusim::cncc
