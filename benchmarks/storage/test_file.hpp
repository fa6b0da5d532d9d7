#pragma once
// The file the storage methods measure, placed where the user said and made safe to measure:
// - unnamed (O_TMPFILE) or unlinked right after it is made, so it goes when the method does, even
//   killed with SIGKILL: nothing is left on the user's disk;
// - opened with O_DIRECT, so the page cache cannot stand in for the disk;
// - refused on tmpfs (memory, not a disk) unless allowed, and wherever it would leave less free
//   than the larger of min_free_percent of the file system and min_free_bytes;
// - written through once before it is measured, so reads meet data, not holes.
#include <cstdint>
#include <optional>
#include <string>

namespace perfzero::storage {

struct Placement {
  std::string directory;
  std::uint64_t file_size = 1ULL << 30;
  bool allow_tmpfs = false;
  double min_free_percent = 10;
  std::uint64_t min_free_bytes = 2ULL << 30;
};

// Why the file could not be made: `skip` when this directory cannot be measured as asked (tmpfs,
// too little room, no direct I/O), else the input or the system failed.
struct Refusal {
  bool skip = false;
  std::string message;
};

class TestFile {
 public:
  TestFile() = default;
  TestFile(const TestFile&) = delete;
  TestFile& operator=(const TestFile&) = delete;
  TestFile(TestFile&& other) noexcept;
  TestFile& operator=(TestFile&& other) noexcept;
  ~TestFile();

  int fd() const { return fd_; }
  bool direct() const { return direct_; }
  const std::string& file_system() const { return file_system_; }
  std::uint64_t size() const { return size_; }

  // Makes, sizes and fills the file; a Refusal says why not.
  static std::optional<Refusal> open(const Placement& placement, TestFile& out);

 private:
  int fd_ = -1;
  bool direct_ = false;
  std::string file_system_;
  std::uint64_t size_ = 0;
};

// The name of a file system type (statfs's f_type), or its number in hex.
std::string file_system_name(long type);

}  // namespace perfzero::storage
