// common/files: atomic writes create their temporary file safely and leave the data in place.
#include "common/files.hpp"

#include <sys/stat.h>

#include <gtest/gtest.h>

#include "common/trial_files.hpp"
#include "temp_dir.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::files::files_test {
namespace {

using testing::TempDir;

// The reporter that writes a sampler's series and the run loop that clears an earlier attempt's
// share these names: a series written under one is removed under the other.
TEST(TrialFiles, ASamplersLogIsNamedOnceForWritingAndForClearing) {
  EXPECT_EQ(files::sampler_log_file("process_tree"), files::kProcessLogFile);
  EXPECT_EQ(files::sampler_log_file("host_load"), "sampler_host_load.log");
  EXPECT_TRUE(files::is_sampler_log_file(files::sampler_log_file("gpu")));
  EXPECT_FALSE(files::is_sampler_log_file(files::kProcessLogFile)) << "always written again";
  EXPECT_FALSE(files::is_sampler_log_file(files::kChildLogFile));
  EXPECT_FALSE(files::is_sampler_log_file("sampler_notes.txt"));
}

TEST(WriteAtomically, LeavesTheDataReadableAndNoTemporaryFile) {
  TempDir dir;
  const auto file = dir.path() / "report.json";
  write_atomically(file, "first\n", Durability::synced);
  write_atomically(file, "second\n");
  EXPECT_EQ(read_text(file), "second\n");
  struct stat st {};
  ASSERT_EQ(::stat(file.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0644U);
  int entries = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir.path())) ++entries;
  EXPECT_EQ(entries, 1);
}

TEST(WriteAtomically, APlantedSymlinkAtTheOldTemporaryNameRedirectsNothing) {
  TempDir dir;
  const auto victim = dir.write("victim", "keep me\n");
  const auto file = dir.path() / "report.json";
  // The name the harness used to write through, and a spread of others a guesser might plant.
  std::filesystem::create_symlink(victim, file.string() + ".tmp." + std::to_string(::getpid()));
  std::filesystem::create_symlink(victim, file.string() + ".tmp.XXXXXX");
  write_atomically(file, "report\n");
  EXPECT_EQ(read_text(victim), "keep me\n");
  EXPECT_EQ(read_text(file), "report\n");
  EXPECT_FALSE(std::filesystem::is_symlink(file));
}

TEST(WriteAtomically, AFailedWriteNamesTheFileAndLeavesNothingBehind) {
  TempDir dir;
  const auto file = dir.path() / "missing_dir" / "report.json";
  try {
    write_atomically(file, "x");
    FAIL() << "expected a std::system_error";
  } catch (const std::system_error& e) {
    EXPECT_NE(std::string(e.what()).find(file.string()), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace perfzero::files::files_test
