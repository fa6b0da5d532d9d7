#pragma once
// Caps a child's perfzero.log after the child's tree has ended. The child writes to it directly
// (no pipe through the harness), so a chatty child can leave hundreds of MiB; past the cap the log
// keeps its head (how it started) and its tail (how it ended), with a line saying what was dropped.
#include <cstdint>
#include <filesystem>

namespace perfzero::runner {

// Bytes dropped from the log (0 when it was within `max_bytes`, missing, or not a regular file).
// Works in place, a chunk at a time: the log is never loaded whole.
std::uint64_t cap_log(const std::filesystem::path& path, std::uint64_t max_bytes);

}  // namespace perfzero::runner
