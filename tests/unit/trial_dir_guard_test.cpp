// session/trial_dir_guard: a trial directory is made with one mkdir when everything above it is a
// real directory, and never through a link; what a method did to it is told in words.
#include "session/trial_dir_guard.hpp"

#include <gtest/gtest.h>

#include <fstream>

#include "temp_dir.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::session::trial_dir_guard_test {
namespace {

namespace fs = std::filesystem;

TEST(MakeFreshTrialDir, MakesTheDirectoryBelowRealDirectoriesOnly) {
  testing::TempDir run;
  const fs::path method = run.path() / "m";
  EXPECT_FALSE(make_fresh_trial_dir(run.path(), method / "trial_1")) << "its method's directory is missing";
  EXPECT_FALSE(fs::exists(method / "trial_1"));
  fs::create_directory(method);
  EXPECT_TRUE(make_fresh_trial_dir(run.path(), method / "trial_1"));
  EXPECT_TRUE(fs::is_directory(fs::symlink_status(method / "trial_1")));
  EXPECT_FALSE(make_fresh_trial_dir(run.path(), method / "trial_1")) << "it is there already";
  std::ofstream(method / "trial_2") << "a file where the directory goes";
  EXPECT_FALSE(make_fresh_trial_dir(run.path(), method / "trial_2"));
}

TEST(MakeFreshTrialDir, NeverMakesItThroughALink) {
  testing::TempDir run;
  testing::TempDir elsewhere;
  fs::create_directory_symlink(elsewhere.path(), run.path() / "m");
  EXPECT_FALSE(make_fresh_trial_dir(run.path(), run.path() / "m" / "trial_1"));
  EXPECT_TRUE(fs::is_empty(elsewhere.path())) << "made through the link";
  EXPECT_EQ(not_a_real_directory(run.path(), run.path() / "m" / "trial_1").rfind("replaced the directory m", 0), 0U);
  restore_trial_dir(run.path(), run.path() / "m" / "trial_1");
  EXPECT_TRUE(fs::is_directory(fs::symlink_status(run.path() / "m")));
  EXPECT_TRUE(fs::is_directory(fs::symlink_status(run.path() / "m" / "trial_1")));
  EXPECT_TRUE(fs::is_empty(elsewhere.path()));
}

TEST(DamageTo, SaysWhatTheMethodDidToItsDirectory) {
  testing::TempDir run;
  const fs::path dir = run.path() / "m" / "trial_1";
  fs::create_directories(dir);
  const auto made = real_directory(dir);
  ASSERT_TRUE(made.has_value());
  EXPECT_EQ(damage_to(run.path(), dir, *made), "");
  // Moved aside, not removed: a directory made in its place could otherwise get its inode number.
  fs::rename(dir, run.path() / "m" / "aside");
  EXPECT_EQ(damage_to(run.path(), dir, *made), "removed its trial directory");
  fs::create_directory_symlink("/", dir);
  EXPECT_EQ(damage_to(run.path(), dir, *made), "replaced its trial directory with a symbolic link to /");
  fs::remove(dir);
  fs::create_directory(dir);
  EXPECT_EQ(damage_to(run.path(), dir, *made), "replaced its trial directory with another directory");
}

}  // namespace
}  // namespace perfzero::session::trial_dir_guard_test
