#include "config/yaml_file.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "common/errors.hpp"
#include "temp_dir.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::config::yaml::yaml_file_test {
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

TEST(YamlFile, OnlyTextIsReadAndAnythingElseIsNamedWithItsPlace) {
  testing::TempDir dir;
  auto write = [&](const std::string& name, const std::string& bytes) {
    std::ofstream(dir.path() / name, std::ios::binary) << bytes;
    return dir.path() / name;
  };
  // UTF-8, with and without its byte order mark, tabs and CRLF line ends are read as they are; so are
  // bytes that are not UTF-8 (a Latin-1 name), which a suite may carry (NotUtf8.EveryEntryPointKeepsRunning).
  EXPECT_EQ(read_yaml_file(write("utf8.yaml", "name: caf\xc3\xa9 \xe2\x9c\x93\r\n\tx\n"), kKind),
            "name: caf\xc3\xa9 \xe2\x9c\x93\r\n\tx\n");
  EXPECT_NO_THROW((void)read_yaml_file(write("bom.yaml", "\xef\xbb\xbfmethods: []\n"), kKind));
  EXPECT_NO_THROW((void)read_yaml_file(write("latin1.yaml", "suite: caf\xe9\n"), kKind));

  const auto utf16 = write("utf16.yaml", std::string("\xff\xfem\0e\0t\0", 8));
  EXPECT_EQ(error_of(utf16), utf16.string() +
                                 ": starts with a UTF-16 byte order mark; a test file must be UTF-8 text (a UTF-16 "
                                 "file converts with iconv -f UTF-16 -t UTF-8)");
  const auto utf32 = write("utf32.yaml", std::string("\xff\xfe\0\0m\0\0\0", 8));
  EXPECT_NE(error_of(utf32).find("starts with a UTF-32 byte order mark"), std::string::npos) << error_of(utf32);
  const auto binary = write("binary.yaml", std::string("methods:\n  - a\0b\n", 17));
  EXPECT_EQ(error_of(binary), binary.string() +
                                  ":2:6: is not text: it holds a NUL byte (a binary file, or UTF-16 without a byte "
                                  "order mark); a test file must be UTF-8 text");
  const auto control = write("control.yaml", "a: 1\nb: \x1b[2J\n");
  EXPECT_EQ(error_of(control), control.string() +
                                   ":2:4: is not text: it holds the control character 0x1B; a test file must be "
                                   "UTF-8 text");
}

}  // namespace
}  // namespace perfzero::config::yaml::yaml_file_test
