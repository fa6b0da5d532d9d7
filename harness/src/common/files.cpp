#include "common/files.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <mutex>
#include <random>
#include <sstream>
#include <system_error>
#include <vector>

#include <fmt/format.h>

#include "common/fd_guard.hpp"
#include "common/text.hpp"
#include "common/trusted_root.hpp"

namespace perfzero::files {

namespace {

[[noreturn]] void fail(int error, const std::string& what, const std::filesystem::path& tmp) {
  if (!tmp.empty()) ::unlink(tmp.c_str());
  throw WriteError(error, std::generic_category(), what);
}

void write_all(int fd, std::string_view content, const std::filesystem::path& tmp, const std::filesystem::path& path) {
  std::size_t written = 0;
  while (written < content.size()) {
    const ssize_t n = ::write(fd, content.data() + written, content.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int saved = n < 0 ? errno : ENOSPC;
      ::close(fd);
      fail(saved, "cannot write " + path.string(), tmp);
    }
    written += static_cast<std::size_t>(n);
  }
}

// /dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N: this process's own descriptor N.
std::optional<int> own_descriptor(const std::string& text) {
  if (text == "/dev/stdout") return 1;
  if (text == "/dev/stderr") return 2;
  for (const std::string_view prefix : {"/dev/fd/", "/proc/self/fd/"}) {
    if (!text.starts_with(prefix) || text.size() == prefix.size() || text.size() > prefix.size() + 6) continue;
    const std::string digits = text.substr(prefix.size());
    if (!std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; })) continue;
    return std::stoi(digits);
  }
  return std::nullopt;
}

// Written through the descriptor itself, after what stdio holds for it: reopening it would start at
// offset 0 of a file behind it, under what the process prints later.
void write_to_descriptor(int n, const std::filesystem::path& path, std::string_view content) {
  std::fflush(stdout);
  std::fflush(stderr);
  const int fd = ::fcntl(n, F_DUPFD_CLOEXEC, 0);
  if (fd < 0) fail(errno, "cannot write " + path.string(), {});
  write_all(fd, content, {}, path);
  if (::close(fd) != 0) fail(errno, "cannot write " + path.string(), {});
}

// An output named by a character device or a pipe (`--junit /dev/stdout`, a shell's `>(...)`,
// /dev/null), or by a link in /dev or /proc (which stands for a descriptor): written into, appended
// as a shell's `>>` would, with every error reported (/dev/full: no space). A rename would put a
// regular file in the device's place (as root; /dev/full was replaced so) or fail. A socket or a
// block device is refused. False when `path` is none of these (a file, a directory, nothing yet).
bool write_into_special(const std::filesystem::path& path, std::string_view content) {
  const std::string text = path.lexically_normal().string();
  if (const auto n = own_descriptor(text)) {
    write_to_descriptor(*n, path, content);
    return true;
  }
  struct stat link_st {};
  if (::lstat(path.c_str(), &link_st) != 0) return false;
  const bool descriptor_link = S_ISLNK(link_st.st_mode) && (text.starts_with("/dev/") || text.starts_with("/proc/"));
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return false;  // a dangling link: replaced, as before
  if ((S_ISREG(st.st_mode) && !descriptor_link) || S_ISDIR(st.st_mode)) return false;
  if (!S_ISREG(st.st_mode) && !S_ISCHR(st.st_mode) && !S_ISFIFO(st.st_mode)) {
    fail(ENOTSUP, "cannot write " + path.string() + ": it is a socket or a block device, not a file or a pipe", {});
  }
  // O_NONBLOCK: a pipe nobody reads fails at once (ENXIO) instead of waiting forever.
  const int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_NOCTTY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    const int saved = errno;
    fail(saved,
         saved == ENXIO ? "cannot write " + path.string() + ": no process reads that pipe"
                        : "cannot open " + path.string(),
         {});
  }
  const int flags = ::fcntl(fd, F_GETFL);
  if (flags >= 0) ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
  write_all(fd, content, {}, path);
  if (::close(fd) != 0) fail(errno, "cannot write " + path.string(), {});
  return true;
}

}  // namespace

// write_atomically beneath a trusted root (common/trusted_root.hpp): every step through `dir_fd`, the
// file's directory as the kernel resolved it with no link followed.
void write_atomically_at(int dir_fd, const std::filesystem::path& path, std::string_view content,
                         Durability durability) {
  const std::string name = path.filename().string();
  static thread_local std::mt19937_64 rng{std::random_device{}()};
  std::string tmp_name;
  int fd = -1;
  for (int attempt = 0; fd < 0 && attempt < 100; ++attempt) {
    tmp_name = fmt::format("{}.tmp.{:012x}", name, rng() & 0xffffffffffffULL);
    fd = ::openat(dir_fd, tmp_name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0 && errno != EEXIST) break;
  }
  if (fd < 0) fail(errno, "cannot create a temporary file beside " + path.string(), {});
  const auto tmp = path.parent_path() / tmp_name;
  const auto unlink_tmp = [&] { ::unlinkat(dir_fd, tmp_name.c_str(), 0); };
  try {
    write_all(fd, content, {}, path);
  } catch (...) {
    unlink_tmp();
    throw;
  }
  if (durability == Durability::synced && ::fsync(fd) != 0) {
    const int saved = errno;
    ::close(fd);
    unlink_tmp();
    fail(saved, "cannot write " + path.string() + " to disk (fsync)", {});
  }
  if (::close(fd) != 0) {
    const int saved = errno;
    unlink_tmp();
    fail(saved, "cannot write " + path.string(), {});
  }
  if (::renameat(dir_fd, tmp_name.c_str(), dir_fd, name.c_str()) != 0) {
    const int saved = errno;
    unlink_tmp();
    fail(saved, "cannot rename into " + path.string(), {});
  }
  if (durability == Durability::synced) ::fsync(dir_fd);
}

void write_atomically(const std::filesystem::path& path, std::string_view content, Durability durability) {
  if (const auto dir_fd = open_parent_beneath_root(path)) {
    // A run's own files: whatever was planted in their place is replaced, never written into.
    const FdGuard guard{*dir_fd};
    write_atomically_at(*dir_fd, path, content, durability);
    return;
  }
  if (write_into_special(path, content)) return;
  // mkstemp in the target's directory: an unpredictable name created with O_EXCL, so a symlink
  // planted beside the file cannot redirect the write (a fixed "<file>.tmp.<pid>" could be).
  std::string pattern = path.string() + ".tmp.XXXXXX";
  std::vector<char> name(pattern.begin(), pattern.end());
  name.push_back('\0');
  const int fd = ::mkostemp(name.data(), O_CLOEXEC);
  if (fd < 0) fail(errno, "cannot create a temporary file beside " + path.string(), {});
  const std::filesystem::path tmp(name.data());
  // mkstemp makes the file 0600; reports are meant to be read by others, as before.
  if (::fchmod(fd, 0644) != 0) {
    const int saved = errno;
    ::close(fd);
    fail(saved, "cannot set the mode of " + tmp.string(), tmp);
  }
  write_all(fd, content, tmp, path);
  if (durability == Durability::synced && ::fsync(fd) != 0) {
    const int saved = errno;
    ::close(fd);
    fail(saved, "cannot write " + path.string() + " to disk (fsync)", tmp);
  }
  // close() is where some file systems (NFS) report a full disk.
  if (::close(fd) != 0) fail(errno, "cannot write " + path.string(), tmp);
  if (::rename(tmp.c_str(), path.c_str()) != 0) fail(errno, "cannot rename into " + path.string(), tmp);
  if (durability == Durability::synced) sync_directory(path.parent_path());
}

void sync_directory(const std::filesystem::path& dir) {
  // The rename is durable once the directory is; failing here loses nothing already visible.
  const int fd = ::open(dir.empty() ? "." : dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  ::fsync(fd);
  ::close(fd);
}

bool sync_file_system(const std::filesystem::path& dir) {
  const int fd = ::open(dir.empty() ? "." : dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return false;
  const bool ok = ::syncfs(fd) == 0;
  ::close(fd);
  return ok;
}

bool reserve_space(const std::filesystem::path& path, long bytes) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd < 0) return false;
  const bool ok = ::posix_fallocate(fd, 0, bytes) == 0;
  ::close(fd);
  if (!ok) ::unlink(path.c_str());
  return ok;
}

bool read_text_into(const std::filesystem::path& path, std::string& out) {
  out.clear();
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  struct stat st {};
  // The size is only a hint (procfs says 0, a file may grow): read until end of file.
  const std::size_t hint = ::fstat(fd, &st) == 0 && st.st_size > 0 ? static_cast<std::size_t>(st.st_size) : 0;
  std::size_t used = 0;
  out.resize(std::max<std::size_t>(hint + 1, 4096));
  for (;;) {
    if (used == out.size()) out.resize(out.size() * 2);
    const ssize_t got = ::read(fd, out.data() + used, out.size() - used);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) {
      ::close(fd);
      out.resize(used);
      return got == 0;
    }
    used += static_cast<std::size_t>(got);
  }
}

std::optional<std::string> read_text(const std::filesystem::path& path) {
  std::string text;
  if (!read_text_into(path, text)) return std::nullopt;
  return text;
}

bool has_no_entry(int dir_fd) {
  // getdents64 itself: fdopendir's fstat, two fcntls and its 32 KiB buffer cost a short trial more
  // than the read (two empty TMPDIRs are checked per trial).
  alignas(8) std::array<char, 4096> buffer{};
  bool empty = true;
  bool readable = true;
  for (;;) {
    const long got = ::syscall(SYS_getdents64, dir_fd, buffer.data(), buffer.size());
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) readable = false;
    if (got <= 0) break;
    for (long at = 0; at < got && empty;) {
      const auto* entry = reinterpret_cast<const dirent64*>(buffer.data() + at);
      empty = std::strcmp(entry->d_name, ".") == 0 || std::strcmp(entry->d_name, "..") == 0;
      at += entry->d_reclen;
    }
    if (!empty) break;
  }
  ::close(dir_fd);
  return readable && empty;
}

namespace {

// Descriptors of /proc files read again and again (/proc/stat at every trial's end and every
// monitor tick), kept for the process's life: procfs makes the file anew at each read from offset 0,
// so a pread sees what an open would, without the open and the close.
int kept_proc_descriptor(const std::filesystem::path& path) {
  static std::mutex mutex;
  static std::map<std::string, int> kept;
  const std::lock_guard lock(mutex);
  const auto [it, added] = kept.try_emplace(path.string(), -1);
  if (added || it->second < 0) it->second = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  return it->second;
}

}  // namespace

std::optional<std::string> read_line(const std::filesystem::path& path) {
  // open and read rather than an ifstream: samplers read /proc/stat twice a trial, and the stream's
  // set-up (buffer, locale) cost more than the kernel's making of the file.
  // The machine's own /proc files only: a process's (/proc/PID, /proc/self) go with it.
  const std::string& p = path.native();
  const bool proc = p.rfind("/proc/", 0) == 0 && p.size() > 6 && (p[6] < '0' || p[6] > '9') &&
                    p.rfind("/proc/self/", 0) != 0 && p.rfind("/proc/thread-self/", 0) != 0;
  const int fd = proc ? kept_proc_descriptor(path) : ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  std::string line;
  std::array<char, 512> chunk{};
  for (off_t at = 0;;) {
    // pread on a kept descriptor (another thread may read it too); read on a file that cannot seek.
    const ssize_t got = proc ? ::pread(fd, chunk.data(), chunk.size(), at) : ::read(fd, chunk.data(), chunk.size());
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;
    at += got;
    const std::string_view part(chunk.data(), static_cast<std::size_t>(got));
    const auto end = part.find('\n');
    line.append(part.substr(0, end));
    if (end != std::string_view::npos) break;
  }
  if (!proc) ::close(fd);
  return text::trim(line);
}

}  // namespace perfzero::files
