#pragma once
// Reading what a child left in its trial directory. The child controls those paths: a FIFO there
// would block open() for ever (with the harness's signals blocked, so not even Ctrl-C ends it), a
// symlink to /dev/zero or a huge file would be read until memory runs out. Only regular files, not
// followed through a symlink, up to a size cap, are read.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace perfzero::child_results {

inline constexpr std::uint64_t kDefaultMaxResultBytes = 64ULL << 20;  // 64 MiB

struct UntrustedFile {
  std::optional<std::string> text;  // the content, when the file is usable
  bool missing = false;             // there is no file at all
  std::string problem;              // why the file is not usable (not regular, too large, unreadable)
};

// `limit_source` names what sets max_bytes in the "too large" problem: the flag that raises it for a
// method's result, or "" for a fixed limit (a run fact, a rank's report), which no flag changes.
UntrustedFile read_untrusted_file(const std::filesystem::path& path, std::uint64_t max_bytes,
                                  std::string_view limit_source = "");

}  // namespace perfzero::child_results
