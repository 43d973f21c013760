#include "tools/cncc/driver.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <regex>
#include <string_view>
#include <cctype>
#include <sstream>

#include "runtime/devices.h"
#include "tools/cncc/translate.h"

namespace mlusim::cncc {
namespace fs = std::filesystem;
namespace {

bool ends_with(const std::string &s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}
bool starts_with(const std::string &s, std::string_view prefix) { return s.rfind(prefix, 0) == 0; }
bool is_arch_option(const std::string &a) {
  return starts_with(a, "--bang-mlu-arch=") || starts_with(a, "--bang-arch=");
}

// Host compiler options whose value is the next argument ("-isystem dir").
bool host_option_with_value(const std::string &a) {
  return a == "-isystem" || a == "-include" || a == "-iquote" || a == "-idirafter" ||
         a == "-imacros" || a == "-MF" || a == "-MT" || a == "-MQ";
}

// Options for cncc's own toolchain (its LLVM back end, its assembler cnas, its
// check of the Neuware installation), as mlu-ops' build passes them: they mean
// nothing to the host compiler and change nothing on the simulator, so they
// are accepted quietly. Moves *i past the option's value; sets *missing when
// the value is not there.
bool toolchain_option(const std::vector<std::string> &args, size_t *i, bool *missing) {
  const std::string &a = args[*i];
  if (a == "-mllvm" || a == "-Xbang-cnas" || a == "--neuware-path") {
    *missing = *i + 1 >= args.size();
    *i += *missing ? 0 : 1;
    return true;
  }
  return a == "--no-neuware-version-check" || starts_with(a, "--neuware-path=");
}

// "__bang_foo" from the compiler's "'__bang_foo' was not declared" or "there
// are no arguments to '__bang_foo' that depend on a template parameter" (g++),
// or "use of undeclared identifier '__bang_foo'" (clang++), any quotes.
std::string undeclared_intrinsic(const std::string &line) {
  size_t at = line.find("was not declared");  // g++: the identifier before the words
  if (at == std::string::npos) {
    for (std::string_view words : {"there are no arguments to", "use of undeclared identifier"})
      if (line.find(words) != std::string::npos) at = line.size();  // the identifier after them
  }
  if (at == std::string::npos) return "";
  for (std::string_view prefix : {"__bang_", "__memcpy", "__memset", "__sync", "__nramset",
                                  "__gdramset", "__gather", "__scatter", "__load_", "__store_",
                                  "__cn_", "__float2", "__half2", "__bfloat162", "__int2"}) {
    const size_t p = line.rfind(prefix, at);
    if (p == std::string::npos) continue;
    size_t e = p;
    while (e < line.size() && (std::isalnum(static_cast<unsigned char>(line[e])) || line[e] == '_')) ++e;
    return line.substr(p, e - p);
  }
  return "";
}

// Runs argv; relays the child's stderr, with a note on intrinsics we lack.
int run(const std::vector<std::string> &argv, bool verbose) {
  if (verbose) {
    for (const auto &a : argv) std::cerr << a << ' ';
    std::cerr << '\n';
  }
  int err[2];
  if (pipe(err) != 0) return 127;
  const pid_t pid = fork();
  if (pid == 0) {
    dup2(err[1], STDERR_FILENO);
    close(err[0]);
    close(err[1]);
    std::vector<char *> cargv;
    for (const auto &a : argv) cargv.push_back(const_cast<char *>(a.c_str()));
    cargv.push_back(nullptr);
    execvp(cargv[0], cargv.data());
    std::fprintf(stderr, "mlusim-cncc: cannot run %s: %s\n", cargv[0], std::strerror(errno));
    _exit(127);
  }
  close(err[1]);
  std::string captured;
  char buf[4096];
  for (ssize_t n; (n = read(err[0], buf, sizeof(buf))) > 0;) captured.append(buf, static_cast<size_t>(n));
  close(err[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  // A BANG C intrinsic we do not simulate is a compile error that says so.
  std::istringstream lines(captured);
  for (std::string line; std::getline(lines, line);) {
    std::cerr << line << '\n';
    const std::string intrinsic = undeclared_intrinsic(line);
    if (!intrinsic.empty())
      std::cerr << "mlusim-cncc: note: " << intrinsic
                << " is a BANG C intrinsic that mlusim does not simulate yet "
                   "(docs/bang_c_intrinsics.md lists what it has)\n";
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

std::string read_file(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// The compiler-defined macros cncc gives a program built for `arch` (on-chip
// sizes in KiB, as mlu-ops' kernels multiply them by 1024), and the name of
// the architecture for mlusim's own messages.
std::vector<std::string> arch_defines(const Arch &arch) {
  std::vector<std::string> d = {"-D__BANG__=1", "-D__MLUSIM_CNCC__=1",
                                "-D__BANG_ARCH__=" + std::to_string(arch.bang_arch),
                                "-D__MLUSIM_BANG_MLU_ARCH__=" + arch.flag};
  if (const DeviceSpec *spec = find_preset(arch.preset)) {
    d.push_back("-D__MLU_NRAM_SIZE__=" + std::to_string(spec->nram_bytes / 1024));
    d.push_back("-D__MLU_WRAM_SIZE__=" + std::to_string(spec->wram_bytes / 1024));
    d.push_back("-D__MLU_SRAM_SIZE__=" + std::to_string(spec->sram_bytes / 1024));
  }
  return d;
}

// Whether the host compiler is clang: the file it runs, links resolved
// (c++ -> g++-12, clang++-16 -> clang).
bool is_clang(const std::string &compiler) {
  fs::path path = compiler;
  if (!path.has_parent_path()) {
    std::istringstream dirs(std::getenv("PATH") != nullptr ? std::getenv("PATH") : "");
    for (std::string dir; std::getline(dirs, dir, ':');)
      if (fs::exists(fs::path(dir) / compiler)) {
        path = fs::path(dir) / compiler;
        break;
      }
  }
  std::error_code ec;
  const fs::path real = fs::canonical(path, ec);
  return (ec ? path : real).filename().string().find("clang") != std::string::npos;
}

// The host compiler's flags for a .mlu, so that it compiles as cncc does:
// - -fno-strict-aliasing first (a later -fstrict-aliasing still wins): BANG C
//   code reads values through casts of pointers to other types (mlu-ops'
//   "float log2e = *(float *)&x2d;", NRAM carved as int8_t and reinterpreted),
//   which cncc compiles as written; g++ may drop such a store when it assumes
//   strict aliasing (it warns "x2d is used uninitialized" there).
// - -Wall means cncc's set. cncc is clang, of a version before 13: its -Wall
//   has neither -Wsign-compare (g++'s -Wall has it for C++) nor
//   -Wunused-but-set-variable (clang 13 added it), and its -Wcomment does not
//   report a // comment continued by a backslash onto another // line. g++'s
//   -Wall also has -Wmaybe-uninitialized, and -Wsequence-point, which reports
//   "x = c ? 0 : (x = y)" (well defined since C++17; clang knows). mlu-ops
//   builds its .mlu files with -Wall -Werror, so those warnings are turned off
//   right after -Wall (a later -W option still turns one back on).
// - with clang, -Wno-absolute-value: clang reports abs() of a bool
//   (mlu-ops' logspace), which cncc builds under -Werror.
std::vector<std::string> as_cncc(const std::vector<std::string> &flags,
                                 const std::string &compiler) {
  std::vector<std::string> out = {"-fno-strict-aliasing"};
  if (is_clang(compiler)) out.push_back("-Wno-absolute-value");
  for (const std::string &f : flags) {
    out.push_back(f);
    if (f != "-Wall") continue;
    out.insert(out.end(), {"-Wno-sign-compare", "-Wno-unused-but-set-variable"});
    if (!is_clang(compiler))
      out.insert(out.end(), {"-Wno-comment", "-Wno-maybe-uninitialized", "-Wno-sequence-point"});
  }
  return out;
}

// One .mlu's C++ text: preprocessed into `ii` (kept with -v), translated,
// and told the device it is built for. `flags` are the host compiler's flags
// for this source (-I, -D, -O, -std, ...); `dep_flags` (-MD -MF ...) go to the
// preprocessing step only. Returns the failing step's status, or 0.
int translate_mlu(const Toolchain &tc, const Arch &arch, const std::string &compiler,
                  const std::vector<std::string> &flags, const std::vector<std::string> &dep_flags,
                  const std::string &source, const std::string &ii, bool verbose, std::string *text) {
  std::vector<std::string> pre = {compiler, "-E", "-x", "c++"};
  const std::vector<std::string> mlu_flags = as_cncc(flags, compiler);
  pre.insert(pre.end(), mlu_flags.begin(), mlu_flags.end());
  for (const auto &d : arch_defines(arch)) pre.push_back(d);
  // cncc includes bang.h in every .mlu, whether it says so or not.
  pre.insert(pre.end(), {"-isystem", tc.include_dir, "-include", "bang.h"});
  pre.insert(pre.end(), dep_flags.begin(), dep_flags.end());
  pre.insert(pre.end(), {source, "-o", ii});
  if (int rc = run(pre, verbose)) return rc;
  Translation t = translate(read_file(ii));
  if (!verbose) fs::remove(ii);
  for (const auto &e : t.errors) std::cerr << e << '\n';
  if (!t.errors.empty()) return 1;
  *text = std::move(t.text);
  if (arch.chosen)
    *text += "\nstatic const bool mlusim_built_for_arch = ::mlusim::bang::use_device(\"" +
             arch.preset + "\");\n";
  return 0;
}

// The flags for compiling preprocessed text: without the preprocessor's
// (-I, -D, -U, -isystem dir, ...), which clang reports as unused.
std::vector<std::string> without_preprocessor_flags(const std::vector<std::string> &flags) {
  std::vector<std::string> out;
  for (size_t i = 0; i < flags.size(); ++i) {
    const std::string &f = flags[i];
    const bool joined = f.size() > 2 && (starts_with(f, "-I") || starts_with(f, "-D") ||
                                         starts_with(f, "-U"));
    const bool separate = f == "-I" || f == "-D" || f == "-U" || host_option_with_value(f);
    if (separate) ++i;  // and its value
    else if (!joined) out.push_back(f);
  }
  return out;
}

// One .mlu to an object: translate, compile (object.ii and object.cpp are
// kept with -v).
int compile_mlu(const Toolchain &tc, const Arch &arch, const std::string &compiler,
                const std::vector<std::string> &flags, const std::vector<std::string> &dep_flags,
                const std::string &source, const std::string &object, bool verbose) {
  const std::string cpp = object + ".cpp";
  std::string text;
  if (int rc = translate_mlu(tc, arch, compiler, flags, dep_flags, source, object + ".ii", verbose,
                             &text))
    return rc;
  std::ofstream(cpp, std::ios::binary) << text;
  std::vector<std::string> cc = {compiler, "-x", "c++-cpp-output"};
  const std::vector<std::string> mlu_flags =
      as_cncc(without_preprocessor_flags(flags), compiler);
  cc.insert(cc.end(), mlu_flags.begin(), mlu_flags.end());
  cc.insert(cc.end(), {"-c", cpp, "-o", object});
  const int rc = run(cc, verbose);
  if (!verbose) fs::remove(cpp);
  return rc;
}

// -E: each .mlu's translated text (what the host compiler builds) to `output`,
// or to standard output.
int print_translation(const Toolchain &tc, const Arch &arch, const std::vector<std::string> &flags,
                      const std::vector<std::string> &mlu, const std::string &output, bool verbose) {
  std::ofstream file;
  if (!output.empty()) file.open(output, std::ios::binary);
  std::ostream &out = output.empty() ? std::cout : file;
  for (const auto &src : mlu) {
    const fs::path ii = fs::temp_directory_path() / ("mlusim-cncc-" + std::to_string(getpid()) + "-" +
                                                     fs::path(src).filename().string() + ".ii");
    std::string text;
    if (int rc = translate_mlu(tc, arch, tc.cxx, flags, {}, src, ii.string(), verbose, &text))
      return rc;
    out << text;
  }
  return out ? 0 : 1;
}

// cncc needs no C++ standard flag for .mlu; mlusim's headers need C++20.
std::string standard_flag(const std::string &requested) {
  static const std::regex old(R"(-std=(c|gnu)\+\+(98|03|0x|11|1y|14|1z|17))");
  if (requested.empty()) return "-std=c++20";
  if (std::regex_match(requested, old)) {
    std::cerr << "mlusim-cncc: note: " << requested
              << ": compiling as C++20, which mlusim's bang.h needs\n";
    return "-std=c++20";
  }
  return requested;
}

}  // namespace

namespace {

// cncc's architecture names: the __BANG_ARCH__ each defines and the simulated
// preset it runs on ("" for an architecture mlusim has no device for).
struct KnownArch {
  const char *flag;
  int bang_arch;
  const char *preset;
};
constexpr KnownArch kKnownArchs[] = {
    {"mtp_372", 372, "MLU370-X4"}, {"compute_30", 300, "MLU370-X4"}, {"mtp_270", 270, "MLU270"},
    {"mtp_220", 220, "MLU270"},    {"compute_20", 200, "MLU270"},    {"mtp_290", 290, "MLU290"},
    {"mtp_322", 322, ""},          {"mtp_592", 592, "MLU590-H8"},             {"mtp_613", 613, ""},
};

std::string simulated_arch_names() {
  std::string out;
  for (const KnownArch &k : kKnownArchs)
    if (*k.preset != '\0') out += (out.empty() ? "" : ", ") + std::string(k.flag);
  return out;
}

}  // namespace

bool parse_arch(const std::string &name, Arch *arch) {
  for (const KnownArch &k : kKnownArchs)
    if (name == k.flag && *k.preset != '\0') {
      *arch = Arch{name, k.bang_arch, k.preset, true};
      return true;
    }
  return false;
}

bool choose_arch(const std::vector<std::string> &options, Arch *arch) {
  if (options.empty()) return true;
  std::vector<std::string> skipped;
  bool chosen = false;
  for (const std::string &option : options) {
    const std::string name = option.substr(option.find('=') + 1);
    if (!chosen && parse_arch(name, arch)) chosen = true;
    else if (name != arch->flag) skipped.push_back(option);
  }
  if (!chosen) {
    std::cerr << "mlusim-cncc: error: " << options.front()
              << ": no simulated device for this architecture (mlusim has "
              << simulated_arch_names() << ")\n";
    return false;
  }
  for (const std::string &option : skipped)
    std::cerr << "mlusim-cncc: note: " << option << ": not built (mlusim builds one architecture, "
              << arch->flag << ")\n";
  return true;
}

int run_cncc(const Toolchain &tc, const std::vector<std::string> &args) {
  Arch arch;
  std::string output, standard;
  bool compile_only = false, translate_only = false, verbose = false, force_mlu = false;
  std::vector<std::string> flags, link_flags, mlu, cxx, objects, arch_options;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string &a = args[i];
    auto value = [&](const char *flag) { return a.size() > std::strlen(flag) ? a.substr(std::strlen(flag)) : (i + 1 < args.size() ? args[++i] : ""); };
    bool missing = false;
    if (toolchain_option(args, &i, &missing)) {
      if (!missing) continue;
      std::cerr << "mlusim-cncc: error: " << a << " needs a value\n";
      return 2;
    }
    if (a == "-o") output = i + 1 < args.size() ? args[++i] : "";
    else if (a == "-c") compile_only = true;
    else if (a == "-E") translate_only = true;
    else if (a == "-v" || a == "--verbose") verbose = true;
    else if (a == "-x") force_mlu = (i + 1 < args.size() ? args[++i] : "") == "mlu";
    else if (is_arch_option(a)) arch_options.push_back(a);
    else if (starts_with(a, "-std=")) standard = a;
    else if (starts_with(a, "-I") || starts_with(a, "-D") || starts_with(a, "-U"))
      flags.push_back(a.size() > 2 ? a : a + value(a.substr(0, 2).c_str()));
    else if (starts_with(a, "-l") || starts_with(a, "-L"))
      link_flags.push_back(a.size() > 2 ? a : a + value(a.substr(0, 2).c_str()));
    else if (starts_with(a, "-Wl,"))
      link_flags.push_back(a);
    else if (starts_with(a, "-O") || starts_with(a, "-g") || starts_with(a, "-W") ||
             starts_with(a, "-f") || a == "-pthread")
      flags.push_back(a);
    else if (host_option_with_value(a) && i + 1 < args.size())
      flags.insert(flags.end(), {a, args[++i]});
    else if (starts_with(a, "--bang") || starts_with(a, "--")) {
      std::cerr << "mlusim-cncc: note: " << a << " is a device option; ignored on the simulator\n";
    } else if (starts_with(a, "-")) {
      flags.push_back(a);  // the host compiler judges it: never silently dropped
    } else if (force_mlu || ends_with(a, ".mlu")) {
      mlu.push_back(a);
    } else if (ends_with(a, ".o") || ends_with(a, ".a") || ends_with(a, ".so")) {
      objects.push_back(a);
    } else {
      cxx.push_back(a);
    }
  }
  if (!choose_arch(arch_options, &arch)) return 2;
  if (mlu.empty() && cxx.empty() && objects.empty()) {
    std::cerr << "mlusim-cncc: error: no input files\n";
    return 2;
  }
  if ((compile_only || translate_only) && !output.empty() && mlu.size() + cxx.size() > 1) {
    std::cerr << "mlusim-cncc: error: -o with " << (translate_only ? "-E" : "-c")
              << " and several sources\n";
    return 2;
  }
  if (translate_only && (!cxx.empty() || !objects.empty())) {
    std::cerr << "mlusim-cncc: error: -E shows the translation of .mlu sources only\n";
    return 2;
  }
  flags.insert(flags.begin(), standard_flag(standard));
  std::istringstream library_flags(MLUSIM_PROGRAM_FLAGS);
  for (std::string f; library_flags >> f;) flags.push_back(f);
  if (translate_only) return print_translation(tc, arch, flags, mlu, output, verbose);
  const fs::path temp = compile_only ? fs::path() : fs::temp_directory_path() /
                                                        ("mlusim-cncc-" + std::to_string(getpid()));
  if (!compile_only) fs::create_directories(temp);
  auto object_for = [&](const std::string &src) {
    if (compile_only) return output.empty() ? fs::path(src).stem().string() + ".o" : output;
    return (temp / (fs::path(src).filename().string() + ".o")).string();
  };
  int rc = 0;
  for (const auto &src : mlu) {
    const std::string obj = object_for(src);
    if ((rc = compile_mlu(tc, arch, tc.cxx, flags, {}, src, obj, verbose)) != 0) break;
    objects.push_back(obj);
  }
  for (size_t k = 0; rc == 0 && k < cxx.size(); ++k) {
    const std::string obj = object_for(cxx[k]);
    std::vector<std::string> cc = {tc.cxx};
    cc.insert(cc.end(), flags.begin(), flags.end());
    cc.insert(cc.end(), {"-I", tc.include_dir, "-c", cxx[k], "-o", obj});
    rc = run(cc, verbose);
    objects.push_back(obj);
  }
  if (rc == 0 && !compile_only) {
    std::vector<std::string> ld = {tc.cxx};
    ld.insert(ld.end(), objects.begin(), objects.end());
    ld.insert(ld.end(), flags.begin(), flags.end());  // -O, -g, sanitizers: as compiled
    ld.insert(ld.end(), {"-o", output.empty() ? "a.out" : output, "-L" + tc.lib_dir,
                         "-Wl,-rpath," + tc.lib_dir, "-lmlusim"});
    ld.insert(ld.end(), link_flags.begin(), link_flags.end());
    rc = run(ld, verbose);
  }
  if (!compile_only && !verbose) fs::remove_all(temp);
  return rc;
}

// CMake runs "mlusim-cncc --launcher [--bang-mlu-arch=X] <c++> <flags> -o obj -c src".
// A .mlu source is translated on its way; anything else runs unchanged.
int run_launcher(const Toolchain &tc, const std::vector<std::string> &args) {
  Arch arch;
  size_t i = 0;
  std::vector<std::string> arch_options;
  for (; i < args.size() && is_arch_option(args[i]); ++i) arch_options.push_back(args[i]);
  if (!choose_arch(arch_options, &arch)) return 2;
  if (i >= args.size()) {
    std::cerr << "mlusim-cncc: error: --launcher needs a compiler command\n";
    return 2;
  }
  const size_t first = i;
  const std::string compiler = args[i];
  std::vector<std::string> flags, dep_flags;
  std::string source, object;
  for (++i; i < args.size(); ++i) {
    const std::string &a = args[i];
    if (a == "-o" && i + 1 < args.size()) object = args[++i];
    else if (a == "-c" && i + 1 < args.size() && ends_with(args[i + 1], ".mlu")) source = args[++i];
    else if ((a == "-MF" || a == "-MT" || a == "-MQ") && i + 1 < args.size()) {
      dep_flags.push_back(a);
      dep_flags.push_back(args[++i]);
    } else if (a == "-MD" || a == "-MMD") dep_flags.push_back(a);
    else flags.push_back(a);
  }
  if (source.empty())  // not a .mlu: the command as CMake wrote it
    return run(std::vector<std::string>(args.begin() + static_cast<long>(first), args.end()), false);
  return compile_mlu(tc, arch, compiler, flags, dep_flags, source, object, false);
}

}  // namespace mlusim::cncc
