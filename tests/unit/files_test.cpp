// common/files: atomic writes create their temporary file safely and leave the data in place.
#include "common/files.hpp"

#include <fcntl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>

#include <gtest/gtest.h>

#include "common/trial_files.hpp"
#include "own_full_device.hpp"
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

int open_dir(const std::filesystem::path& dir) { return ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC); }

TEST(HasNoEntry, OnlyADirectoryWithNothingButDotAndDotDotIsEmpty) {
  TempDir dir;
  std::filesystem::create_directories(dir.path() / "empty");
  std::filesystem::create_directories(dir.path() / "one_dir" / "sub");
  std::ofstream(dir.path() / "one_file_marker").close();
  std::filesystem::create_directories(dir.path() / "many");
  // More entries than one getdents64 read holds: the first ones are "." and ".." in no order.
  for (int i = 0; i < 300; ++i) {
    std::string name = "a_long_enough_name_to_fill_the_buffer_";
    name += std::to_string(i);
    std::ofstream(dir.path() / "many" / name).close();
  }
  std::filesystem::create_directories(dir.path() / "dotfile");
  std::ofstream(dir.path() / "dotfile" / ".hidden").close();
  EXPECT_TRUE(files::has_no_entry(open_dir(dir.path() / "empty")));
  EXPECT_FALSE(files::has_no_entry(open_dir(dir.path() / "one_dir")));
  EXPECT_FALSE(files::has_no_entry(open_dir(dir.path() / "many")));
  EXPECT_FALSE(files::has_no_entry(open_dir(dir.path() / "dotfile")));
  EXPECT_FALSE(files::has_no_entry(::open((dir.path() / "one_file_marker").c_str(), O_RDONLY | O_CLOEXEC)))
      << "a file is not an empty directory";
  EXPECT_FALSE(files::has_no_entry(-1));
}

// The machine's /proc files stay open between reads: each read still sees the file as it is now.
TEST(ReadLine, AKeptProcFileIsReadAfreshEachTime) {
  const auto first = files::read_line("/proc/uptime");
  ASSERT_TRUE(first);
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  const auto second = files::read_line("/proc/uptime");
  ASSERT_TRUE(second);
  EXPECT_GT(std::stod(*second), std::stod(*first));
  EXPECT_FALSE(files::read_line("/proc/no_such_file_here"));
  TempDir dir;
  std::ofstream(dir.path() / "line") << "  first  \nsecond\n";
  EXPECT_EQ(files::read_line(dir.path() / "line"), "first");
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

// A device where the output goes (a full disk's /dev/full): written into, its error reported, and the
// node left a device; a rename put a regular file in /dev/full's place (as root). A node of our own
// where mknod is allowed, so a regression cannot replace the machine's.
TEST(WriteAtomically, ACharacterDeviceIsWrittenIntoAndItsErrorReportedNeverReplaced) {
  TempDir dir;
  const std::filesystem::path full = testing::own_full_device(dir.path());
  try {
    write_atomically(full, "<testsuites/>");
    FAIL() << "a write to " << full << " succeeded";
  } catch (const std::system_error& e) {
    EXPECT_EQ(e.code().value(), ENOSPC) << e.what();
    EXPECT_NE(std::string(e.what()).find(full.string()), std::string::npos) << e.what();
  }
  struct stat st {};
  ASSERT_EQ(::stat(full.c_str(), &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode)) << full << " was replaced";
  write_atomically("/dev/null", "x");  // and one that takes it
  ASSERT_EQ(::stat("/dev/null", &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode));
}

// A pipe (a shell's >(...), a named pipe a reader waits on) gets the content; one nobody reads is an
// error at once, never a wait; a socket is refused by name.
TEST(WriteAtomically, APipeIsWrittenIntoAndOneWithoutAReaderFailsAtOnce) {
  TempDir dir;
  const auto fifo = dir.path() / "junit.xml";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  try {
    write_atomically(fifo, "x");
    FAIL() << "a pipe without a reader was written";
  } catch (const std::system_error& e) {
    EXPECT_NE(std::string(e.what()).find("no process reads that pipe"), std::string::npos) << e.what();
  }
  std::string got;
  std::thread reader([&] {
    std::ifstream in(fifo);
    got.assign(std::istreambuf_iterator<char>(in), {});
  });
  // The reader's open blocks until a writer comes, and ours fails until a reader is there: retry.
  bool written = false;
  for (int i = 0; i < 500 && !written; ++i) {
    try {
      write_atomically(fifo, "<testsuites/>");
      written = true;
    } catch (const std::system_error&) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }
  reader.join();
  EXPECT_TRUE(written);
  EXPECT_EQ(got, "<testsuites/>");
  struct stat st {};
  ASSERT_EQ(::stat(fifo.c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));
  const auto socket_path = dir.path() / "sock";
  const int sock = ::socket(AF_UNIX, SOCK_STREAM, 0);
  ASSERT_GE(sock, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  const std::string socket_name = socket_path.string();
  ASSERT_LT(socket_name.size(), sizeof(addr.sun_path));
  std::copy(socket_name.begin(), socket_name.end(), addr.sun_path);
  ASSERT_EQ(::bind(sock, reinterpret_cast<const sockaddr*>(&addr), sizeof(addr)), 0);
  try {
    write_atomically(socket_path, "x");
    FAIL() << "a socket was written";
  } catch (const std::system_error& e) {
    EXPECT_NE(std::string(e.what()).find("a socket or a block device"), std::string::npos) << e.what();
  }
  ::close(sock);
}

}  // namespace
}  // namespace perfzero::files::files_test
