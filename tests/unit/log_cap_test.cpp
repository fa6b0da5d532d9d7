#include "runner/log_cap.hpp"

#include <sys/stat.h>

#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "temp_dir.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::runner::log_cap_test {
namespace {

using perfzero::testing::TempDir;

std::string slurp(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST(LogCap, KeepsHeadAndTailAndSaysWhatWasDropped) {
  TempDir dir;
  const auto path = dir.write("perfzero.log", "HEAD" + std::string(100000, '.') + "TAIL");
  EXPECT_EQ(cap_log(path, 1000), 100008u - 1000u);
  const std::string log = slurp(path);
  EXPECT_EQ(log.substr(0, 4), "HEAD");
  EXPECT_EQ(log.substr(log.size() - 4), "TAIL");
  EXPECT_NE(log.find("[perfzero: 99008 bytes of output dropped here"), std::string::npos);
  EXPECT_LT(log.size(), 1200u);
}

TEST(LogCap, LeavesSmallLogsAndOddFilesAlone) {
  TempDir dir;
  const auto small = dir.write("small.log", "hello\n");
  EXPECT_EQ(cap_log(small, 1000), 0u);
  EXPECT_EQ(slurp(small), "hello\n");
  const auto just_over = dir.write("over.log", std::string(1010, 'x'));
  EXPECT_EQ(cap_log(just_over, 1000), 0u);  // the marker would not save anything
  ASSERT_EQ(::mkfifo((dir.path() / "fifo").c_str(), 0644), 0);
  EXPECT_EQ(cap_log(dir.path() / "fifo", 1000), 0u);
  EXPECT_EQ(cap_log(dir.path() / "missing", 1000), 0u);
}

}  // namespace
}  // namespace perfzero::runner::log_cap_test
