#include "child_results/untrusted_file.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <string>

#include "temp_dir.hpp"

namespace perfzero::child_results {
using perfzero::testing::TempDir;
namespace {

TEST(UntrustedFile, ReadsARegularFileWithinTheCap) {
  TempDir dir;
  const auto path = dir.write("result.json", "{}");
  const auto file = read_untrusted_file(path, 1024);
  ASSERT_TRUE(file.text.has_value()) << file.problem;
  EXPECT_EQ(*file.text, "{}");
  EXPECT_TRUE(read_untrusted_file(dir.path() / "none", 1024).missing);
}

TEST(UntrustedFile, RefusesFifosSymlinksDirectoriesAndLargeFiles) {
  TempDir dir;
  ASSERT_EQ(::mkfifo((dir.path() / "fifo").c_str(), 0644), 0);
  EXPECT_EQ(read_untrusted_file(dir.path() / "fifo", 1024).problem, "fifo is a FIFO; only a regular file is read");
  std::filesystem::create_symlink("/dev/zero", dir.path() / "zero");
  EXPECT_EQ(read_untrusted_file(dir.path() / "zero", 1024).problem,
            "zero is a symbolic link; only a regular file is read");
  std::filesystem::create_directory(dir.path() / "d");
  EXPECT_EQ(read_untrusted_file(dir.path() / "d", 1024).problem, "d is a directory; only a regular file is read");
  const auto big = dir.write("big", std::string(2000, 'x'));
  EXPECT_EQ(read_untrusted_file(big, 1024, "--max_result_bytes").problem,
            "big has 2000 bytes, over the limit of 1024 (--max_result_bytes)");
  // A fixed limit (a run fact's) names no flag that would not change it.
  EXPECT_EQ(read_untrusted_file(big, 1024).problem, "big has 2000 bytes, over the limit of 1024");
}

}  // namespace
}  // namespace perfzero::child_results
