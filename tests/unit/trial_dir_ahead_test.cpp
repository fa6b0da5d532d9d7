// The next trial's directory, made on a helper thread: taken whole, never made over one that exists,
// and removed when no trial takes it.
#include "session/trial_dir_ahead.hpp"

#include <gtest/gtest.h>

#include <fstream>

#include "temp_dir.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::session::trial_dir_ahead_test {
namespace {

namespace fs = std::filesystem;

TEST(TrialDirAhead, MakesTheDirectoryItsTmpdirAndAnEmptyLog) {
  testing::TempDir dir;
  TrialTmpDirs tmp_dirs;
  TrialDirAhead ahead(tmp_dirs, true);
  const auto trial = dir.path() / "case" / "trial_1";
  ahead.prepare(trial, "perfzero.log");
  EXPECT_FALSE(ahead.take(dir.path() / "case" / "trial_2")) << "another directory";
  ASSERT_TRUE(ahead.take(trial));
  EXPECT_TRUE(fs::is_directory(trial / "tmp"));
  EXPECT_TRUE(fs::is_regular_file(trial / "perfzero.log"));
  EXPECT_EQ(fs::file_size(trial / "perfzero.log"), 0U);
  EXPECT_FALSE(ahead.take(trial)) << "taken once";
}

TEST(TrialDirAhead, LeavesADirectoryThatExistsAsItIs) {
  testing::TempDir dir;
  TrialTmpDirs tmp_dirs;
  TrialDirAhead ahead(tmp_dirs, true);
  const auto trial = dir.path() / "trial_1";
  fs::create_directories(trial);
  std::ofstream(trial / "perfzero.log") << "an earlier attempt";
  ahead.prepare(trial, "perfzero.log");
  EXPECT_FALSE(ahead.take(trial));
  EXPECT_EQ(fs::file_size(trial / "perfzero.log"), 18U);
  EXPECT_FALSE(fs::exists(trial / "tmp"));
}

TEST(TrialDirAhead, AFailedStepIsLeftToTheCaller) {
  testing::TempDir dir;
  TrialTmpDirs tmp_dirs;
  TrialDirAhead ahead(tmp_dirs, true);
  const auto blocker = dir.write("file", "not a directory");
  ahead.prepare(blocker / "trial_1", "perfzero.log");
  EXPECT_FALSE(ahead.take(blocker / "trial_1"));
}

TEST(TrialDirAhead, ANewCasesDirectoryMadeForAnUntakenTrialIsRemovedToo) {
  testing::TempDir dir;
  TrialTmpDirs tmp_dirs;
  TrialDirAhead ahead(tmp_dirs, true);
  ahead.prepare(dir.path() / "new_case" / "trial_1", "perfzero.log");
  ahead.discard();
  EXPECT_FALSE(fs::exists(dir.path() / "new_case"));
  fs::create_directories(dir.path() / "old_case");
  ahead.prepare(dir.path() / "old_case" / "trial_1", "perfzero.log");
  ahead.discard();
  EXPECT_TRUE(fs::exists(dir.path() / "old_case")) << "there before: not ours to remove";
}

TEST(TrialDirAhead, WhatNoTrialTookIsRemoved) {
  testing::TempDir dir;
  const auto trial = dir.path() / "trial_1";
  {
    TrialTmpDirs tmp_dirs;
    TrialDirAhead ahead(tmp_dirs, true);
    ahead.prepare(trial, "perfzero.log");
    ahead.discard();
    EXPECT_FALSE(fs::exists(trial));
    ahead.prepare(trial, "perfzero.log");
  }  // and by the destructor
  EXPECT_FALSE(fs::exists(trial));
}

TEST(TrialDirAhead, HandsOnTheTmpdirTheLastTrialLeft) {
  testing::TempDir dir;
  TrialTmpDirs tmp_dirs;
  TrialDirAhead ahead(tmp_dirs, true);
  const auto t1 = dir.path() / "trial_1";
  const auto t2 = dir.path() / "trial_2";
  ahead.prepare(t1, "perfzero.log");
  ASSERT_TRUE(ahead.take(t1));
  tmp_dirs.done(t1);
  ahead.prepare(t2, "perfzero.log");
  ASSERT_TRUE(ahead.take(t2));
  EXPECT_FALSE(fs::exists(t1 / "tmp"));
  EXPECT_TRUE(fs::is_directory(t2 / "tmp"));
}

// On a file system in memory the harness thread makes each directory itself: handing it over would
// cost more than making it.
TEST(TrialDirAhead, OnAFileSystemInMemoryNothingIsMadeAhead) {
  testing::TempDir dir;
  TrialTmpDirs tmp_dirs;
  TrialDirAhead ahead(tmp_dirs, false);
  EXPECT_FALSE(ahead.makes_ahead());
  ahead.prepare(dir.path() / "trial_1", "perfzero.log");
  EXPECT_FALSE(ahead.take(dir.path() / "trial_1"));
  EXPECT_FALSE(fs::exists(dir.path() / "trial_1"));
  // /dev/shm is a tmpfs on Linux (in a container too).
  ASSERT_TRUE(fs::is_directory("/dev/shm"));
  EXPECT_FALSE(worth_making_ahead("/dev/shm"));
  EXPECT_TRUE(worth_making_ahead("/proc")) << "another kind of file system";
}

}  // namespace
}  // namespace perfzero::session::trial_dir_ahead_test
