#include "config/yaml_file.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "common/errors.hpp"
#include "temp_dir.hpp"

namespace perfzero::config::yaml {
namespace {

const FileKind kKind{"test file", "--test"};

std::string error_of(const std::filesystem::path& path) {
  try {
    (void)read_yaml_file(path, kKind);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(YamlFile, ReadsARegularFileWholeThroughASymlink) {
  testing::TempDir dir;
  const auto file = dir.path() / "a.yaml";
  // Past one read chunk, so the pieces must join in order.
  std::string text;
  for (int i = 0; text.size() < 200'000; ++i) text += "- item " + std::to_string(i) + "\n";
  std::ofstream(file, std::ios::binary) << text;
  EXPECT_EQ(read_yaml_file(file, kKind), text);
  std::filesystem::create_symlink(file, dir.path() / "link.yaml");
  EXPECT_EQ(read_yaml_file(dir.path() / "link.yaml", kKind), text);
  std::ofstream(dir.path() / "empty.yaml").close();
  EXPECT_EQ(read_yaml_file(dir.path() / "empty.yaml", kKind), "");
}

TEST(YamlFile, RefusesWhatIsNotASmallRegularFileNamingIt) {
  testing::TempDir dir;
  const auto missing = dir.path() / "missing.yaml";
  EXPECT_EQ(error_of(missing), missing.string() + ": no such test file");
  EXPECT_EQ(error_of(dir.path()), dir.path().string() + ": is a directory; --test expects a test file (.yaml)");
  const auto fifo = dir.path() / "fifo.yaml";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_EQ(error_of(fifo),
            fifo.string() + ": is not a regular file (a FIFO, device or socket); --test expects a test file");
  EXPECT_NE(error_of("/dev/zero").find("is not a regular file"), std::string::npos);
  const auto huge = dir.path() / "huge.yaml";
  std::ofstream(huge).close();
  std::filesystem::resize_file(huge, kMaxYamlFileBytes + 1);  // sparse: no disk needed
  EXPECT_EQ(error_of(huge), huge.string() + ": larger than 16 MiB; a test file is expected to be small");
}

}  // namespace
}  // namespace perfzero::config::yaml
