#pragma once
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>

namespace perfzero::files {

// What write_atomically throws: a file the command was asked to write could not be, named in
// what(). A std::system_error, so that callers that catch those still do; the command's last
// resort tells it from a failed standard output by this type.
class WriteError : public std::system_error {
 public:
  using std::system_error::system_error;
};

// How much a write survives. `visible`: a harness crash loses nothing written (rename), a kernel
// crash or power loss may. `synced`: fsync of the file and its directory. Trial reports and summaries
// are `visible`: the journal, which syncs its own lines, is the record they are written again from,
// and an fsync costs milliseconds per method (docs/reliability.md).
enum class Durability { visible, synced };

// Writes via a temporary file made with mkstemp in the same directory, then a rename: readers see
// the old file or the new one, never half of one. Throws std::system_error naming the file. A path
// that names a character device or a pipe (/dev/stdout, /dev/null, a shell's >(...)), or a link in
// /dev or /proc, is written into instead (appended), its errors reported; a socket or a block
// device is refused.
void write_atomically(const std::filesystem::path& path, std::string_view content,
                      Durability durability = Durability::visible);
// fsync of a directory, so that a rename in it survives a kernel crash; best effort.
void sync_directory(const std::filesystem::path& dir);
// syncfs of the file system `dir` is on: every file written there reaches the disk, in one call
// rather than one fsync per file (the run's end: thousands of trial reports). False when it failed.
bool sync_file_system(const std::filesystem::path& dir);
// Sets `bytes` of disk aside in `path` (posix_fallocate), so that a run that meets a full disk can
// free them and still write its final status; false when even that is refused (best effort).
bool reserve_space(const std::filesystem::path& path, long bytes);

std::optional<std::string> read_text(const std::filesystem::path& path);
// read_text into a buffer the caller keeps, so that reading many files reuses one allocation;
// false (and `out` empty) when the file cannot be opened or read.
bool read_text_into(const std::filesystem::path& path, std::string& out);
// Whether the directory open as `dir_fd` holds no entry but . and ..; closes the descriptor. False
// when it cannot be read.
bool has_no_entry(int dir_fd);
// First line of a small file (sysfs, procfs), trimmed; nullopt when unreadable.
std::optional<std::string> read_line(const std::filesystem::path& path);

}  // namespace perfzero::files
