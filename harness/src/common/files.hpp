#pragma once
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace perfzero::files {

// Writes via a temporary file in the same directory and a rename: readers see the old file or the
// new one, never half of one, and a harness crash loses nothing already written. No fsync: it cost
// milliseconds per method (docs/performance.md) and guards only against the kernel crashing.
void write_atomically(const std::filesystem::path& path, std::string_view content);
std::optional<std::string> read_text(const std::filesystem::path& path);
// First line of a small file (sysfs, procfs), trimmed; nullopt when unreadable.
std::optional<std::string> read_line(const std::filesystem::path& path);

}  // namespace perfzero::files
