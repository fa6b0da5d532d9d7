#include "storage/test_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>
#include <utility>

#include <fmt/format.h>

namespace perfzero::storage {

namespace {

constexpr long kTmpfsMagic = 0x01021994;
constexpr long kRamfsMagic = 0x858458f6;
constexpr std::uint64_t kFillChunk = 1ULL << 20;

std::string gib(std::uint64_t bytes) { return fmt::format("{:.1f} GiB", static_cast<double>(bytes) / (1ULL << 30)); }

// An unnamed file in `dir`, or a named one unlinked at once where the file system has no O_TMPFILE.
int open_unnamed(const std::string& dir, int flags) {
  const int fd = ::open(dir.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC | flags, 0600);
  if (fd >= 0 || (errno != EOPNOTSUPP && errno != EISDIR && errno != ENOENT)) return fd;
  std::string name = dir + "/.perfzero-storage-XXXXXX";
  const int named = ::mkostemp(name.data(), O_CLOEXEC | flags);
  if (named >= 0) ::unlink(name.c_str());
  return named;
}

// Writes the whole file once, with bytes that do not compress, and waits until it is on the disk.
bool fill(int fd, std::uint64_t size, std::string& error) {
  void* raw = nullptr;
  if (::posix_memalign(&raw, 4096, kFillChunk) != 0) {
    error = "out of memory for the fill buffer";
    return false;
  }
  const std::unique_ptr<void, decltype(&std::free)> buffer(raw, &std::free);
  std::mt19937_64 random(12345);
  auto* words = static_cast<std::uint64_t*>(raw);
  for (std::size_t i = 0; i < kFillChunk / sizeof(std::uint64_t); ++i) words[i] = random();
  for (std::uint64_t at = 0; at < size; at += kFillChunk) {
    const auto n = static_cast<std::size_t>(std::min(kFillChunk, size - at));
    const ssize_t wrote = ::pwrite(fd, raw, n, static_cast<off_t>(at));
    if (wrote != static_cast<ssize_t>(n)) {
      error = fmt::format("writing the file at {}: {}", at, wrote < 0 ? std::strerror(errno) : "short write");
      return false;
    }
  }
  if (::fdatasync(fd) != 0) {
    error = fmt::format("fdatasync: {}", std::strerror(errno));
    return false;
  }
  return true;
}

}  // namespace

std::string file_system_name(long type) {
  switch (type) {
    case kTmpfsMagic:
      return "tmpfs";
    case kRamfsMagic:
      return "ramfs";
    case 0xEF53:
      return "ext4";
    case 0x58465342:
      return "xfs";
    case static_cast<long>(0x9123683E):
      return "btrfs";
    case 0x6969:
      return "nfs";
    case 0x794c7630:
      return "overlayfs";
    case 0x2fc12fc1:
      return "zfs";
    default:
      return fmt::format("0x{:x}", static_cast<unsigned long>(type));
  }
}

TestFile::TestFile(TestFile&& other) noexcept { *this = std::move(other); }

TestFile& TestFile::operator=(TestFile&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = std::exchange(other.fd_, -1);
    direct_ = other.direct_;
    file_system_ = std::move(other.file_system_);
    size_ = other.size_;
  }
  return *this;
}

TestFile::~TestFile() {
  if (fd_ >= 0) ::close(fd_);
}

std::optional<Refusal> TestFile::open(const Placement& p, TestFile& out) {
  struct stat st {};
  if (::stat(p.directory.c_str(), &st) != 0) {
    return Refusal{false, fmt::format("directory '{}': {}", p.directory, std::strerror(errno))};
  }
  if (!S_ISDIR(st.st_mode)) {
    return Refusal{false, fmt::format("directory '{}' is not a directory (raw devices are not measured)", p.directory)};
  }
  struct statfs fs {};
  struct statvfs vfs {};
  if (::statfs(p.directory.c_str(), &fs) != 0 || ::statvfs(p.directory.c_str(), &vfs) != 0) {
    return Refusal{false, fmt::format("cannot read the file system of '{}': {}", p.directory, std::strerror(errno))};
  }
  const std::string type = file_system_name(static_cast<long>(fs.f_type));
  const bool memory = fs.f_type == kTmpfsMagic || fs.f_type == kRamfsMagic;
  if (memory && !p.allow_tmpfs) {
    return Refusal{true, fmt::format("'{}' is on {} (memory, not a disk); name a directory on the disk to measure, or "
                                     "set allow_tmpfs: true",
                                     p.directory, type)};
  }
  const std::uint64_t total = static_cast<std::uint64_t>(vfs.f_blocks) * vfs.f_frsize;
  const std::uint64_t free = static_cast<std::uint64_t>(vfs.f_bavail) * vfs.f_frsize;
  const auto keep =
      std::max(static_cast<std::uint64_t>(p.min_free_percent / 100.0 * static_cast<double>(total)), p.min_free_bytes);
  if (p.file_size > free || free - p.file_size < keep) {
    return Refusal{true, fmt::format("'{}' ({}) has {} free of {}: a {} file would leave less than the {} the method "
                                     "keeps free (the larger of min_free_percent {} % and min_free_bytes {})",
                                     p.directory, type, gib(free), gib(total), gib(p.file_size), gib(keep),
                                     p.min_free_percent, gib(p.min_free_bytes))};
  }
  // Direct I/O wherever the file system has it: tmpfs has none, and measures memory anyway.
  const int fd = open_unnamed(p.directory, memory ? 0 : O_DIRECT);
  if (fd < 0) {
    const int e = errno;
    if (e == EINVAL && !memory) {
      return Refusal{true, fmt::format("'{}' ({}) does not support direct I/O (O_DIRECT), without which the page "
                                       "cache would be measured instead of the disk",
                                       p.directory, type)};
    }
    return Refusal{false, fmt::format("cannot make a file in '{}': {}", p.directory, std::strerror(e))};
  }
  TestFile file;
  file.fd_ = fd;
  file.direct_ = !memory;
  file.file_system_ = type;
  file.size_ = p.file_size;
  if (::posix_fallocate(fd, 0, static_cast<off_t>(p.file_size)) == ENOSPC) {
    return Refusal{true, fmt::format("'{}' has no room for a {} file", p.directory, gib(p.file_size))};
  }
  std::string error;
  if (!fill(fd, p.file_size, error)) return Refusal{false, error};
  out = std::move(file);
  return std::nullopt;
}

}  // namespace perfzero::storage
