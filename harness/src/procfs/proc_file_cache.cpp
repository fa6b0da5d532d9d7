#include "procfs/proc_file_cache.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>

namespace perfzero::procfs {

ProcFileCache::~ProcFileCache() { clear(); }

void ProcFileCache::clear() {
  for (auto& [key, entry] : files_) ::close(entry.fd);
  files_.clear();
}

std::optional<std::string_view> ProcFileCache::read(pid_t pid, ProcFile file) {
  const std::uint64_t key = (static_cast<std::uint64_t>(pid) << 8) | static_cast<std::uint64_t>(file);
  auto it = files_.find(key);
  if (it == files_.end()) {
    std::array<char, 64> path{};
    const int p = static_cast<int>(pid);
    switch (file) {
      case ProcFile::stat:
        std::snprintf(path.data(), path.size(), "/proc/%d/stat", p);
        break;
      case ProcFile::status:
        std::snprintf(path.data(), path.size(), "/proc/%d/status", p);
        break;
      case ProcFile::children:
        std::snprintf(path.data(), path.size(), "/proc/%d/task/%d/children", p, p);
        break;
    }
    const int fd = ::open(path.data(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return std::nullopt;
    it = files_.emplace(key, Entry{fd, 0}).first;
  }
  it->second.idle = 0;
  // 0 bytes is a valid read (the children file of a childless process); an error means the process
  // is gone.
  const ssize_t n = ::pread(it->second.fd, buffer_.data(), buffer_.size() - 1, 0);
  if (n < 0) {
    ::close(it->second.fd);
    files_.erase(it);
    return std::nullopt;
  }
  return std::string_view(buffer_.data(), static_cast<std::size_t>(n));
}

void ProcFileCache::forget_unused(int keep_for) {
  for (auto it = files_.begin(); it != files_.end();) {
    if (++it->second.idle > keep_for) {
      ::close(it->second.fd);
      it = files_.erase(it);
    } else {
      ++it;
    }
  }
}

}  // namespace perfzero::procfs
