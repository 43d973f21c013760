#include "tools/calibrate.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <tuple>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "harness/calibration.h"
#include "harness/calibration_fit.h"

extern char **environ;

namespace mlusim::tools {
namespace {

namespace fs = std::filesystem;
using calibration::Case;
using calibration::Kind;
using calibration::Outcome;

// An mlu-ops build made by mlusim-mluops (its mluops-build.conf).
struct MluopsBuild {
  fs::path dir;
  std::string arch;
  std::vector<std::string> ops;
  bool has(const std::string &op) const {
    for (const std::string &o : ops)
      if (o == op) return true;
    return false;
  }
};

// The shell assignments of mluops-build.conf: NAME='value'.
std::optional<MluopsBuild> read_build(const fs::path &dir) {
  std::ifstream conf(dir / "mluops-build.conf");
  if (!conf) return std::nullopt;
  MluopsBuild b{fs::absolute(dir), "", {}};
  for (std::string line; std::getline(conf, line);) {
    const size_t eq = line.find("='");
    if (eq == std::string::npos || line.size() < eq + 3) continue;
    const std::string name = line.substr(0, eq), value = line.substr(eq + 2, line.size() - eq - 3);
    if (name == "MLUOPS_ARCH") b.arch = value;
    if (name == "MLUOPS_BUILT") {
      std::istringstream words(value);
      for (std::string op; words >> op;) b.ops.push_back(op);
    }
  }
  return b;
}

// Runs `argv` with its output in `log` and `env` added; its exit status.
int run_logged(const std::vector<std::string> &args, const std::vector<std::string> &env,
               const fs::path &log) {
  std::vector<char *> argv;
  for (const std::string &a : args) argv.push_back(const_cast<char *>(a.c_str()));
  argv.push_back(nullptr);
  std::vector<std::string> env_text(env);
  for (char **e = environ; *e != nullptr; ++e) env_text.emplace_back(*e);
  std::vector<char *> envp;
  for (std::string &e : env_text) envp.push_back(e.data());
  envp.push_back(nullptr);
  posix_spawn_file_actions_t files;
  posix_spawn_file_actions_init(&files);
  posix_spawn_file_actions_addopen(&files, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&files, 1, 2);
  pid_t child = 0;
  const int err = posix_spawn(&child, argv[0], &files, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&files);
  if (err != 0) {
    std::fprintf(stderr, "mlusim calibrate: cannot run %s: %s\n", argv[0], std::strerror(err));
    return 127;
  }
  int status = 0;
  waitpid(child, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

// The case file of case `index` as the harness reports it.
std::string case_file_name(size_t index) { return fmt::format("calibration_{}.prototxt", index); }

bool write_case(const Case &c, const MluopsBuild &b, const fs::path &to) {
  if (c.in_tree.empty()) {
    std::ofstream out(to);
    out << c.prototxt;
    return static_cast<bool>(out);
  }
  std::error_code error;
  fs::copy_file(b.dir / "src/test/mlu_op_gtest/pb_gtest/src/zoo" / c.in_tree, to,
                fs::copy_options::overwrite_existing, error);
  return !error;
}

// MLUSIM_CONSTANTS for `settings`.
std::string constants_env(const std::vector<calibration::Setting> &settings) {
  std::string text = "MLUSIM_CONSTANTS=";
  for (const calibration::Setting &s : settings)
    text += fmt::format("{}{}={}", text.back() == '=' ? "" : ",", s.name, s.value);
  return text;
}

// One run of mlusim-mluops test: the cases `indices` (all of one operator on
// one board, with the same `settings`) on build `b`; fills their outcomes
// from mluops-test.tsv.
void run_mluops(const MluopsBuild &b, const std::vector<size_t> &indices,
                const std::vector<calibration::Setting> &settings, std::vector<Outcome> &rows) {
  const Case &first = calibration::cases()[indices.front()];
  const fs::path cases = b.dir / "calibration" / first.board;
  std::error_code error;
  fs::remove_all(cases / first.op, error);
  fs::create_directories(cases / first.op, error);
  for (size_t i : indices)
    if (!write_case(calibration::cases()[i], b, cases / first.op / case_file_name(i)))
      rows[i].note = "its case file could not be written";
  const fs::path log = b.dir / "logs" / fmt::format("calibrate-{}-{}.log", first.board, first.op);
  fs::create_directories(log.parent_path(), error);
  std::fprintf(stderr, "mlusim calibrate: %s on the simulated %s through mlusim-mluops (%s)\n",
               first.op.c_str(), first.board.c_str(), log.c_str());
  const fs::path tool = fs::read_symlink("/proc/self/exe").parent_path() / "mlusim-mluops";
  std::vector<std::string> env{"MLUSIM_DEVICE=" + first.board};
  if (first.clock_mhz > 0) env.push_back(fmt::format("MLUSIM_CLOCK_MHZ={}", first.clock_mhz));
  if (!settings.empty()) env.push_back(constants_env(settings));
  run_logged({tool.string(), "test", "--build", b.dir.string(), "--ops", first.op, "--cases",
              cases.string()},
             env, log);
  std::ifstream tsv(b.dir / "mluops-test.tsv");
  for (std::string line; std::getline(tsv, line);) {
    std::istringstream fields(line);
    std::string op, file, verdict, time;
    std::getline(fields, op, '\t');
    std::getline(fields, file, '\t');
    std::getline(fields, verdict, '\t');
    std::getline(fields, time, '\t');
    for (size_t i : indices)
      if (fs::path(file).filename() == case_file_name(i)) {
        if (verdict == "passed") rows[i].figure = std::stod(time);
        else rows[i].note = "the case failed: see " + log.string();
      }
  }
  for (size_t i : indices)
    if (!rows[i].figure && rows[i].note.empty()) rows[i].note = "no result: see " + log.string();
}

// Runs cases()[indices[i]] with settings[i]: our own programs here, mlu-ops'
// cases grouped by build, board and operator. Outcomes by case index.
std::vector<Outcome> run_cases(const std::vector<MluopsBuild> &builds,
                               const std::vector<size_t> &indices,
                               const std::vector<std::vector<calibration::Setting>> &settings) {
  const std::vector<Case> &cases = calibration::cases();
  std::vector<Outcome> rows(cases.size());
  // One run of mlusim-mluops per build, board and operator: its cases, and
  // the settings of their board.
  struct Group {
    std::vector<size_t> cases;
    std::vector<calibration::Setting> settings;
  };
  std::map<std::tuple<size_t, std::string, std::string>, Group> groups;
  for (size_t n = 0; n < indices.size(); ++n) {
    const size_t i = indices[n];
    const Case &c = cases[i];
    if (c.kind == Kind::kProgram) {
      rows[i].figure = calibration::run_program(c, settings[n]);
      continue;
    }
    // A case with `needs` runs on any build of its architecture with its
    // operator too: that build can only be the one `needs` names (for
    // mtp_270, mlu-ops' own three_interpolate_forward does not build).
    size_t b = 0;
    while (b < builds.size() && !(builds[b].arch == c.arch && builds[b].has(c.op))) ++b;
    if (b == builds.size()) {
      rows[i].note = c.needs.empty()
                         ? fmt::format("skipped: needs an mlu-ops build for {} with {} (--mluops "
                                       "<dir>)", c.arch, c.op)
                         : "skipped: needs " + c.needs;
      continue;
    }
    Group &group = groups[{b, c.board, c.op}];
    group.cases.push_back(i);
    group.settings = settings[n];
  }
  for (const auto &[key, group] : groups)
    run_mluops(builds[std::get<0>(key)], group.cases, group.settings, rows);
  return rows;
}

std::string board_text(const Case &c) {
  return c.clock_mhz > 0 ? fmt::format("{} @ {} MHz", c.board, c.clock_mhz) : c.board;
}

void print_rows(const std::vector<Outcome> &rows) {
  std::printf("%-52s %-20s %-17s %11s %11s %8s  %s\n", "case", "board", "unit", "published",
              "mlusim", "error", "role");
  std::vector<double> fitted, held_out;
  int within = 0, ran = 0;
  for (size_t i = 0; i < rows.size(); ++i) {
    const Case &c = calibration::cases()[i];
    const char *role = c.held_out() ? "held out" : "fitted";
    if (!rows[i].figure) {
      std::printf("%-52s %-20s %-17s %11s %11s %8s  %s: %s\n", c.name.c_str(),
                  board_text(c).c_str(), c.unit.c_str(), calibration::published_text(c).c_str(),
                  "-", "-", role, rows[i].note.c_str());
      continue;
    }
    const double error = calibration::relative_error(c, *rows[i].figure);
    (c.held_out() ? held_out : fitted).push_back(error);
    ++ran;
    within += std::abs(error) <= 0.25 ? 1 : 0;
    std::printf("%-52s %-20s %-17s %11s %11.4g %+7.1f%%  %s\n", c.name.c_str(),
                board_text(c).c_str(), c.unit.c_str(), calibration::published_text(c).c_str(),
                *rows[i].figure, 100 * error, role);
  }
  std::printf("\n%d of %d cases run within +-25%%; median |error| %.1f%% over %zu fitted cases, "
              "%.1f%% over %zu held-out cases\n",
              within, ran, 100 * calibration::median_abs(fitted), fitted.size(),
              100 * calibration::median_abs(held_out), held_out.size());
}

void print_fitted(const std::vector<calibration::Fitted> &fitted) {
  std::printf("%-36s %-22s %11s %11s %8s  %s\n", "constant", "setting", "in use", "found",
              "error", "its cases");
  for (const calibration::Fitted &f : fitted) {
    std::string cases;
    for (const Case &c : calibration::cases())
      if (c.fits == f.constant.label) cases += (cases.empty() ? "" : "; ") + board_text(c) + ": " + c.name;
    if (f.found)
      std::printf("%-36s %-22s %11.4g %11.4g %+7.1f%%  %s\n", f.constant.label.c_str(),
                  f.constant.setting.c_str(), f.in_use, *f.found, 100 * f.error_at_found,
                  cases.c_str());
    else
      std::printf("%-36s %-22s %11.4g %11s %8s  %s (not fitted: %s)\n", f.constant.label.c_str(),
                  f.constant.setting.c_str(), f.in_use, "-", "-", cases.c_str(), f.note.c_str());
  }
}

// The constants fitted on the cases marked for them, every case run through
// `builds` (calibrate --fit).
std::vector<calibration::Fitted> fit_constants(const std::vector<MluopsBuild> &builds) {
  const calibration::Evaluate evaluate =
      [&](const std::vector<size_t> &indices,
          const std::vector<std::vector<calibration::Setting>> &settings) {
        const std::vector<Outcome> rows = run_cases(builds, indices, settings);
        std::vector<Outcome> outcomes;
        for (size_t i : indices) outcomes.push_back(rows[i]);
        return outcomes;
      };
  return calibration::fit(calibration::cases(), calibration::fit_constants(), evaluate);
}

}  // namespace

int run_calibrate(int argc, char **argv) {
  // Every case runs at its preset's constants, or the ones the fit found.
  unsetenv("MLUSIM_CONSTANTS");
  std::vector<MluopsBuild> builds;
  bool fit = false;
  for (int arg = 2; arg < argc; ++arg) {
    if (std::strcmp(argv[arg], "--fit") == 0) {
      fit = true;
      continue;
    }
    if (std::strcmp(argv[arg], "--mluops") != 0 || arg + 1 >= argc) {
      std::fprintf(stderr, "mlusim calibrate: unknown option '%s'; the options are --fit and "
                           "--mluops <mlu-ops build made by mlusim-mluops build> (repeatable)\n",
                   argv[arg]);
      return 2;
    }
    const std::optional<MluopsBuild> b = read_build(argv[++arg]);
    if (!b) {
      std::fprintf(stderr, "mlusim calibrate: %s holds no mlu-ops build (no mluops-build.conf); "
                           "make one with mlusim-mluops build\n", argv[arg]);
      return 2;
    }
    builds.push_back(*b);
  }
  const std::vector<Case> &cases = calibration::cases();
  std::vector<calibration::Fitted> fitted;
  if (fit) {
    fitted = fit_constants(builds);
    print_fitted(fitted);
    std::printf("\nEvery case at the constants found:\n\n");
  }
  std::vector<size_t> all;
  std::vector<std::vector<calibration::Setting>> settings;
  for (size_t i = 0; i < cases.size(); ++i) {
    all.push_back(i);
    settings.push_back(fit ? calibration::settings_for(calibration::bang_arch_of(cases[i].board),
                                                       fitted)
                           : std::vector<calibration::Setting>{});
  }
  const std::vector<Outcome> rows = run_cases(builds, all, settings);
  print_rows(rows);
  for (const Outcome &r : rows)
    if (!r.figure && r.note.rfind("skipped", 0) != 0) return 1;
  return 0;
}

}  // namespace mlusim::tools
