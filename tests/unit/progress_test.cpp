#include "progress/progress.hpp"

#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>

#include <gtest/gtest.h>

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::progress::progress_test {
namespace {

// A FILE* standing in for stdout, read back as text.
class Captured {
 public:
  Captured() : file_(std::tmpfile(), &std::fclose) {}
  std::FILE* get() const { return file_.get(); }
  std::string text() const {
    std::fflush(file_.get());
    std::rewind(file_.get());
    std::string out;
    char buffer[512];
    std::size_t n = 0;
    while ((n = std::fread(buffer, 1, sizeof buffer, file_.get())) > 0) out.append(buffer, n);
    return out;
  }

 private:
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file_;
};

TEST(Progress, OneLinePerFinishedRunWithCounterOutcomeAndTime) {
  Captured out;
  Progress progress(out.get(), false, 12);
  progress.finished("sanity.Sanity.benchmark_noop", "trial 1/12", Outcome::succeeded, "", 0.0125);
  progress.finished("ext.fail", "trial 2/12", Outcome::failed, "exited with code 3", 1.5);
  const std::string text = out.text();
  EXPECT_EQ(text.rfind("[ 1/12] sanity.Sanity.benchmark_noop trial 1/12  succeeded  12.5 ms  ETA ", 0), 0U) << text;
  EXPECT_NE(text.find("\n[ 2/12] ext.fail trial 2/12  failed  1.50 s  (exited with code 3)  ETA "), std::string::npos)
      << text;
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 2);
}

TEST(Progress, NoEtaAfterTheLastRun) {
  Captured out;
  Progress progress(out.get(), false, 1);
  progress.finished("m", "trial 1/1", Outcome::succeeded, "", 2.0);
  EXPECT_EQ(out.text(), "[1/1] m trial 1/1  succeeded  2.00 s\n");
}

TEST(Progress, EtaScalesWithTheRunsLeft) {
  Captured out;
  Progress progress(out.get(), false, 1001);
  progress.finished("m", "trial 1/1001", Outcome::succeeded, "", 0.0);
  // 1000 runs left at the rate of the first: the estimate is 1000 times the time it took, never 0.
  const std::string text = out.text();
  const auto eta = text.find("ETA ");
  ASSERT_NE(eta, std::string::npos) << text;
  EXPECT_NE(text.substr(eta), "ETA 0.0 ms\n") << text;
}

TEST(Progress, ResumedRunsAreShownAndCounted) {
  Captured out;
  Progress progress(out.get(), false, 2);
  progress.resumed("m", "trial 1/2", Outcome::succeeded);
  progress.finished("m", "trial 2/2", Outcome::crashed, "ended by SIGSEGV", 0.5);
  EXPECT_EQ(out.text(),
            "[1/2] m trial 1/2  succeeded  (already reported; --resume keeps it)\n"
            "[2/2] m trial 2/2  crashed  500.0 ms  (ended by SIGSEGV)\n");
}

TEST(Progress, NoLiveLineWhenNotATerminal) {
  Captured out;
  Progress progress(out.get(), false, 3);
  progress.running("m", "trial 1/3", 0.2);
  progress.note("debug: a note");
  EXPECT_EQ(out.text(), "debug: a note\n");
}

TEST(Progress, LiveLineOnATerminalIsClearedBeforeTheNextLine) {
  Captured out;
  Progress progress(out.get(), true, 4);
  progress.running("m", "trial 1/4", 0.2);
  progress.finished("m", "trial 1/4", Outcome::succeeded, "", 0.25);
  const std::string text = out.text();
  EXPECT_EQ(text.rfind("\r\033[K[1/4] [....................] m trial 1/4 running 200.0 ms", 0), 0U) << text;
  // The finished line starts on a cleared line, so no live text is left in front of it.
  EXPECT_NE(text.find("running 200.0 ms\r\033[K[1/4] m trial 1/4  succeeded  250.0 ms"), std::string::npos) << text;
  Captured after;
  Progress half(after.get(), true, 4);
  half.finished("m", "trial 1/4", Outcome::succeeded, "", 0.1);
  half.finished("m", "trial 2/4", Outcome::succeeded, "", 0.1);
  half.running("m", "trial 3/4", 0.0);
  EXPECT_NE(after.text().find("[3/4] [##########..........] m trial 3/4 running"), std::string::npos) << after.text();
}

}  // namespace
}  // namespace perfzero::progress::progress_test
