// tools/progress.h: the line it draws, silence when not on a terminal, and
// drawing and clearing on one (a pseudo-terminal stands in for it).
#include "tools/progress.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <pty.h>
#include <unistd.h>

#include <cstdio>
#include <string>

namespace {

using mlusim::tools::Progress;

TEST(Progress, LineSaysDoneElapsedAndWhatIsLeft) {
  // 3 of 10 in 30 s: 10 s each, 7 left.
  EXPECT_EQ(Progress::line("report", 3, 10, "cases", 30, "psamask"),
            "report: 3/10 cases, 0:30 elapsed, about 1:10 left (psamask)");
  EXPECT_EQ(Progress::line("demo", 0, 5, "operators", 0, ""), "demo: 0/5 operators, 0:00 elapsed");
  EXPECT_EQ(Progress::line("sweep", 4, 4, "cases", 3725, ""), "sweep: 4/4 cases, 1:02:05 elapsed");
  EXPECT_LE(Progress::line("x", 1, 2, "cases", 1, std::string(500, 'a')).size(), 120u);
}

TEST(Progress, WritesNothingWhenNotOnATerminal) {
  std::FILE *file = std::tmpfile();
  ASSERT_NE(file, nullptr);
  {
    Progress progress("report", 2, "cases", file);
    EXPECT_FALSE(progress.shown());
    progress.advance("first");
    progress.clear();
    progress.advance("second");
  }
  EXPECT_EQ(std::ftell(file), 0);
  std::fclose(file);
}

std::string drain(int fd) {
  std::string out;
  char buf[512];
  for (ssize_t n; (n = read(fd, buf, sizeof(buf))) > 0;) out.append(buf, static_cast<size_t>(n));
  return out;
}

TEST(Progress, DrawsAndClearsItsLineOnATerminal) {
  int controller = -1, terminal = -1;
  ASSERT_EQ(openpty(&controller, &terminal, nullptr, nullptr, nullptr), 0);
  fcntl(controller, F_SETFL, fcntl(controller, F_GETFL) | O_NONBLOCK);
  std::FILE *out = fdopen(terminal, "w");
  ASSERT_NE(out, nullptr);
  {
    Progress progress("report", 2, "cases", out);
    EXPECT_TRUE(progress.shown());
    EXPECT_NE(drain(controller).find("report: 0/2 cases"), std::string::npos);
    progress.advance("first case");
    const std::string first = drain(controller);
    EXPECT_NE(first.find("\r\033[Kreport: 1/2 cases"), std::string::npos) << first;
    EXPECT_NE(first.find("(first case)"), std::string::npos) << first;
    progress.clear();
    EXPECT_EQ(drain(controller), "\r\033[K");
    progress.advance("second case");  // redrawn at once after a clear
    EXPECT_NE(drain(controller).find("report: 2/2 cases"), std::string::npos);
  }
  EXPECT_EQ(drain(controller), "\r\033[K");  // the destructor leaves the line empty
  std::fclose(out);
  close(controller);
}

}  // namespace
