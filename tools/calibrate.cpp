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

extern char **environ;

namespace mlusim::tools {
namespace {

namespace fs = std::filesystem;
using calibration::Case;
using calibration::Kind;

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

struct Row {
  std::optional<double> predicted;
  std::string note;  // why it did not run
};

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

// One run of mlusim-mluops test: the cases `indices` (all of one operator on
// one board) on build `b`; fills their rows from mluops-test.tsv.
void run_mluops(const MluopsBuild &b, const std::vector<size_t> &indices, std::vector<Row> &rows) {
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
        if (verdict == "passed") rows[i].predicted = std::stod(time);
        else rows[i].note = "the case failed: see " + log.string();
      }
  }
  for (size_t i : indices)
    if (!rows[i].predicted && rows[i].note.empty()) rows[i].note = "no result: see " + log.string();
}

std::string board_text(const Case &c) {
  return c.clock_mhz > 0 ? fmt::format("{} @ {} MHz", c.board, c.clock_mhz) : c.board;
}

void print_rows(const std::vector<Row> &rows) {
  std::printf("%-52s %-20s %-17s %11s %11s %8s  %s\n", "case", "board", "unit", "published",
              "mlusim", "error", "role");
  std::vector<double> fitted, held_out;
  int within = 0, ran = 0;
  for (size_t i = 0; i < rows.size(); ++i) {
    const Case &c = calibration::cases()[i];
    const char *role = c.held_out ? "held out" : "fitted";
    if (!rows[i].predicted) {
      std::printf("%-52s %-20s %-17s %11s %11s %8s  %s: %s\n", c.name.c_str(),
                  board_text(c).c_str(), c.unit.c_str(), calibration::published_text(c).c_str(),
                  "-", "-", role, rows[i].note.c_str());
      continue;
    }
    const double error = calibration::relative_error(c, *rows[i].predicted);
    (c.held_out ? held_out : fitted).push_back(error);
    ++ran;
    within += std::abs(error) <= 0.25 ? 1 : 0;
    std::printf("%-52s %-20s %-17s %11s %11.4g %+7.1f%%  %s\n", c.name.c_str(),
                board_text(c).c_str(), c.unit.c_str(), calibration::published_text(c).c_str(),
                *rows[i].predicted, 100 * error, role);
  }
  std::printf("\n%d of %d cases run within +-25%%; median |error| %.1f%% over %zu fitted cases, "
              "%.1f%% over %zu held-out cases\n",
              within, ran, 100 * calibration::median_abs(fitted), fitted.size(),
              100 * calibration::median_abs(held_out), held_out.size());
}

}  // namespace

int run_calibrate(int argc, char **argv) {
  std::vector<MluopsBuild> builds;
  for (int arg = 2; arg < argc; ++arg) {
    if (std::strcmp(argv[arg], "--mluops") != 0 || arg + 1 >= argc) {
      std::fprintf(stderr, "mlusim calibrate: unknown option '%s'; the options are --mluops "
                           "<mlu-ops build made by mlusim-mluops build> (repeatable)\n",
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
  std::vector<Row> rows(cases.size());
  // Our own programs, here; mlu-ops' cases grouped by build, board and operator.
  std::map<std::tuple<size_t, std::string, std::string>, std::vector<size_t>> groups;
  for (size_t i = 0; i < cases.size(); ++i) {
    const Case &c = cases[i];
    if (c.kind == Kind::kProgram) {
      rows[i].predicted = calibration::run_program(c);
      continue;
    }
    size_t b = 0;
    while (b < builds.size() && !(builds[b].arch == c.arch && builds[b].has(c.op))) ++b;
    if (b == builds.size())
      rows[i].note = fmt::format("skipped: needs an mlu-ops build for {} with {} (--mluops <dir>)",
                                 c.arch, c.op);
    else
      groups[{b, c.board, c.op}].push_back(i);
  }
  for (const auto &[key, indices] : groups) run_mluops(builds[std::get<0>(key)], indices, rows);
  print_rows(rows);
  for (const Row &r : rows)
    if (!r.predicted && r.note.rfind("skipped", 0) != 0) return 1;
  return 0;
}

}  // namespace mlusim::tools
