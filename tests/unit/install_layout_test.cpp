// common/install_layout.hpp: where perfzero finds its helper programs in a build tree, an
// installed prefix (bin/ and libexec/perfzero/), and a prefix given as the directory.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "common/install_layout.hpp"
#include "temp_dir.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::files::install_layout_test {
namespace {

void make_launcher(const testing::TempDir& root, const std::string& dir) {
  const auto launcher = root.write(dir + "/perfzero-launch", "#!/bin/sh\n");
  std::filesystem::permissions(launcher, std::filesystem::perms::owner_all);
}

TEST(InstallLayout, ABuildTreeKeepsItsHelpersBesidePerfzero) {
  testing::TempDir dir;
  make_launcher(dir, "harness");
  make_launcher(dir, "libexec/perfzero");  // beside perfzero wins over libexec
  EXPECT_EQ(helper_dir_of(dir.path() / "harness"), dir.path() / "harness");
}

TEST(InstallLayout, AnInstalledPerfzeroFindsThemInLibexec) {
  testing::TempDir prefix;
  std::filesystem::create_directories(prefix.path() / "bin");
  make_launcher(prefix, "libexec/perfzero");
  EXPECT_EQ(helper_dir_of(prefix.path() / "bin"), prefix.path() / "libexec/perfzero");
  // ab --baseline_build PREFIX: the prefix itself.
  EXPECT_EQ(helper_dir_of(prefix.path()), prefix.path() / "libexec/perfzero");
}

TEST(InstallLayout, NoLauncherAnywhereNamesTheDirectoryItself) {
  testing::TempDir dir;
  EXPECT_EQ(helper_dir_of(dir.path()), dir.path());
  // A launcher that is not executable does not count.
  const auto launcher = dir.write("libexec/perfzero/perfzero-launch", "");
  std::filesystem::permissions(launcher, std::filesystem::perms::owner_read);
  EXPECT_EQ(helper_dir_of(dir.path()), dir.path());
}

TEST(InstallLayout, TheTestBinaryKnowsItsOwnDirectory) {
  EXPECT_TRUE(std::filesystem::is_directory(self_dir()));
  EXPECT_TRUE(std::filesystem::exists(self_dir() / "perfzero_unit_tests")) << self_dir();
}

}  // namespace
}  // namespace perfzero::files::install_layout_test
