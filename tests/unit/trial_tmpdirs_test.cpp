// A trial's TMPDIR moves on to the next trial only when the trial left it empty and as it was made.
#include "session/trial_tmpdirs.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <cerrno>
#include <fstream>

#include "temp_dir.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::session::trial_tmpdirs_test {
namespace {

namespace fs = std::filesystem;

ino_t inode_of(const fs::path& p) {
  struct stat st {};
  return ::lstat(p.c_str(), &st) == 0 ? st.st_ino : 0;
}

mode_t mode_of(const fs::path& p) {
  struct stat st {};
  return ::lstat(p.c_str(), &st) == 0 ? st.st_mode : 0;
}

int inode_flags_of(const fs::path& p) {
  const int fd = ::open(p.c_str(), O_RDONLY | O_DIRECTORY);
  int flags = -1;
  if (fd >= 0 && ::ioctl(fd, FS_IOC_GETFLAGS, &flags) != 0) flags = -1;
  if (fd >= 0) ::close(fd);
  return flags;
}

// A TMPDIR that was not handed on may still have the old one's inode number: the old one was
// removed, and the file system is free to give its number to the next directory made. So these
// tests check what a handed-on TMPDIR would have carried over (mode, entries, xattr, inode
// flags), never the inode number.

class TrialTmpDirsTest : public ::testing::Test {
 protected:
  fs::path trial(int n) {
    const fs::path p = dir_.path() / ("trial_" + std::to_string(n));
    fs::create_directories(p);
    return p;
  }
  testing::TempDir dir_;
};

TEST_F(TrialTmpDirsTest, AnEmptyUntouchedTmpMovesOnToTheNextTrial) {
  TrialTmpDirs dirs;
  const auto t1 = trial(1);
  dirs.make(t1);
  const ino_t first = inode_of(t1 / "tmp");
  ASSERT_NE(first, 0U);
  dirs.done(t1);
  const auto t2 = trial(2);
  dirs.make(t2);
  EXPECT_FALSE(fs::exists(t1 / "tmp"));
  EXPECT_EQ(inode_of(t2 / "tmp"), first) << "moved, not made again";
  dirs.done(t2);
  dirs.release();
  EXPECT_FALSE(fs::exists(t2 / "tmp")) << "the last one is removed at the run's end";
}

TEST_F(TrialTmpDirsTest, WhatATrialLeftStaysAndTheNextTrialGetsANewOne) {
  TrialTmpDirs dirs;
  const auto t1 = trial(1);
  dirs.make(t1);
  std::ofstream(t1 / "tmp" / "left") << "x";
  dirs.done(t1);
  const auto t2 = trial(2);
  dirs.make(t2);
  EXPECT_TRUE(fs::exists(t1 / "tmp" / "left"));
  EXPECT_TRUE(fs::is_empty(t2 / "tmp"));
}

TEST_F(TrialTmpDirsTest, AChangedTmpIsNeverHandedOn) {
  struct Case {
    const char* what;
    void (*change)(const fs::path& tmp);
  };
  const Case cases[] = {
      {"made read-only", [](const fs::path& tmp) { ::chmod(tmp.c_str(), 0500); }},
      {"given the sticky bit", [](const fs::path& tmp) { ::chmod(tmp.c_str(), 01777); }},
      {"holding an empty subdirectory", [](const fs::path& tmp) { fs::create_directory(tmp / "sub"); }},
      {"replaced by a symlink to a directory",
       [](const fs::path& tmp) {
         fs::remove(tmp);
         fs::create_directory_symlink("/", tmp);
       }},
      {"replaced by a FIFO",
       [](const fs::path& tmp) {
         fs::remove(tmp);
         ::mkfifo(tmp.c_str(), 0600);
       }},
      {"removed", [](const fs::path& tmp) { fs::remove(tmp); }},
  };
  int n = 0;
  for (const bool move_on : {true, false}) {
    SCOPED_TRACE(move_on ? "moved on" : "made anew");
    for (const auto& c : cases) {
      TrialTmpDirs dirs(move_on);
      const auto t1 = trial(++n);
      dirs.make(t1);
      const mode_t fresh = mode_of(t1 / "tmp");
      c.change(t1 / "tmp");
      dirs.done(t1);
      const auto t2 = trial(++n);
      dirs.make(t2);
      const auto tmp = t2 / "tmp";
      EXPECT_TRUE(fs::is_directory(fs::symlink_status(tmp))) << c.what;
      EXPECT_EQ(mode_of(tmp), fresh) << c.what;
      EXPECT_TRUE(fs::is_empty(tmp)) << c.what;
      EXPECT_EQ(::access(tmp.c_str(), W_OK), 0) << c.what;
      std::error_code ignored;  // so that the temporary directory can be removed
      fs::permissions(t1 / "tmp", fs::perms::owner_all, fs::perm_options::add, ignored);
    }
  }
}

TEST_F(TrialTmpDirsTest, ATmpWithAnExtendedAttributeIsNotHandedOn) {
  TrialTmpDirs dirs;
  const auto t1 = trial(1);
  dirs.make(t1);
  if (::setxattr((t1 / "tmp").c_str(), "user.perfzero_test", "1", 1, 0) != 0) {
    GTEST_SKIP() << "this file system takes no user extended attribute";
  }
  dirs.done(t1);
  const auto t2 = trial(2);
  dirs.make(t2);
  char value[8];
  EXPECT_LT(::getxattr((t2 / "tmp").c_str(), "user.perfzero_test", value, sizeof value), 0);
  EXPECT_EQ(errno, ENODATA) << "the attribute was carried over";
}

TEST_F(TrialTmpDirsTest, ATmpGivenAnInodeFlagIsNotHandedOn) {
  TrialTmpDirs dirs;
  const auto t1 = trial(1);
  dirs.make(t1);
  const int fd = ::open((t1 / "tmp").c_str(), O_RDONLY | O_DIRECTORY);
  ASSERT_GE(fd, 0);
  int flags = 0;
  // chattr +A: no access-time updates; harmless, and any user may set it on their own directory.
  const bool set = ::ioctl(fd, FS_IOC_GETFLAGS, &flags) == 0 && (flags |= FS_NOATIME_FL, true) &&
                   ::ioctl(fd, FS_IOC_SETFLAGS, &flags) == 0;
  ::close(fd);
  if (!set) GTEST_SKIP() << "this file system takes no inode flags";
  dirs.done(t1);
  const auto t2 = trial(2);
  dirs.make(t2);
  const int flags_after = inode_flags_of(t2 / "tmp");
  ASSERT_GE(flags_after, 0);
  EXPECT_EQ(flags_after & FS_NOATIME_FL, 0) << "the flag was carried over";
}

TEST_F(TrialTmpDirsTest, AnExistingTmpIsAnErrorNamingIt) {
  TrialTmpDirs dirs;
  const auto t1 = trial(1);
  fs::create_directories(t1 / "tmp" / "old");
  try {
    dirs.make(t1);
    FAIL() << "no error";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find((t1 / "tmp").string()), std::string::npos) << e.what();
  }
}

// On a file system in memory each trial gets a new TMPDIR: an empty one is removed (and said to be
// empty), what a trial left stays, and a link in its place is neither followed nor removed.
TEST_F(TrialTmpDirsTest, MadeAnewAnEmptyTmpIsRemovedAndWhatWasLeftStays) {
  TrialTmpDirs dirs(false);
  const auto t1 = trial(1);
  dirs.make(t1);
  EXPECT_TRUE(dirs.done(t1));
  EXPECT_FALSE(fs::exists(fs::symlink_status(t1 / "tmp"))) << "an empty one is removed";
  const auto t2 = trial(2);
  dirs.make(t2);
  std::ofstream(t2 / "tmp" / "left") << "x";
  EXPECT_FALSE(dirs.done(t2));
  EXPECT_TRUE(fs::exists(t2 / "tmp" / "left"));
  const auto t3 = trial(3);
  dirs.make(t3);
  const auto target = trial(30);
  fs::remove(t3 / "tmp");
  fs::create_directory_symlink(target, t3 / "tmp");
  EXPECT_FALSE(dirs.done(t3));
  EXPECT_TRUE(fs::is_symlink(t3 / "tmp"));
  EXPECT_TRUE(fs::is_directory(target)) << "the link's target is untouched";
  dirs.release();
}

TEST(InMemoryFileSystem, IsTrueForATmpfsOnly) {
  // /dev/shm is a tmpfs on Linux (in a container too).
  ASSERT_TRUE(fs::is_directory("/dev/shm"));
  EXPECT_TRUE(in_memory_file_system("/dev/shm"));
  EXPECT_FALSE(in_memory_file_system("/proc")) << "another kind of file system";
  EXPECT_FALSE(in_memory_file_system("/no/such/directory"));
}

}  // namespace
}  // namespace perfzero::session::trial_tmpdirs_test
