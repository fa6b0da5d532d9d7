#pragma once
// Keeps /proc files open between samples and re-reads them with pread(): at 100 Hz, opening,
// closing and even building path strings were most of the monitor's cost (docs/performance.md).
// A cached descriptor stays bound to its process, so a recycled pid is never read through it; once
// the process is gone it reads nothing and is dropped.
#include <sys/types.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <unordered_map>

namespace perfzero::procfs {

enum class ProcFile : std::uint8_t {
  stat,      // /proc/PID/stat
  status,    // /proc/PID/status
  children,  // /proc/TID/task/TID/children (any thread id works as PID)
};

class ProcFileCache {
 public:
  ProcFileCache() = default;
  ~ProcFileCache();
  ProcFileCache(const ProcFileCache&) = delete;
  ProcFileCache& operator=(const ProcFileCache&) = delete;

  // The file's content (up to the buffer's size; may be empty), or nullopt when it cannot be read.
  std::optional<std::string_view> read(pid_t pid, ProcFile file);
  // Closes descriptors not read in the last `keep_for` calls (their processes ended, mostly).
  void forget_unused(int keep_for);
  // Closes every descriptor: their process was reaped, and its pid may name another one next.
  void clear();
  std::size_t open_files() const { return files_.size(); }

 private:
  struct Entry {
    int fd = -1;
    int idle = 0;  // calls of forget_unused since the last read
  };
  std::unordered_map<std::uint64_t, Entry> files_;
  std::array<char, 8192> buffer_{};
};

}  // namespace perfzero::procfs
