#pragma once
// How the ranks of a multi-host method agree on NCCL's unique id without MPI in the CUDA worker:
// rank 0 makes it and publishes it in the trial directory (which every host sees, as the reports
// need anyway; docs/multi-host.md), the others wait for the file. A rank 0 that cannot take part
// (no GPU) publishes why instead, so the other ranks end at once with the same reason.
#include <nccl.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <variant>

namespace perfzero::nccl {

// The file rank 0 writes: {"attempt": "<PERFZERO_ATTEMPT>", "id": "<256 hex digits>"}, or "skipped" or
// "failed" with why instead of "id". A file of another attempt (a resumed trial's earlier start, in
// the same directory) is not this attempt's and is waited past.
inline constexpr const char* kUniqueIdFile = "nccl_unique_id.json";

void publish_unique_id(const std::filesystem::path& trial_dir, const ncclUniqueId& id);
void publish_skip(const std::filesystem::path& trial_dir, const std::string& reason);
void publish_failure(const std::filesystem::path& trial_dir, const std::string& reason);

struct Skipped {
  std::string reason;
};
struct Failed {
  std::string reason;
};
struct TimedOut {
  std::string message;
};
// The id rank 0 published, rank 0's reason for skipping or failing, or a time-out after `wait`.
std::variant<ncclUniqueId, Skipped, Failed, TimedOut> wait_for_unique_id(const std::filesystem::path& trial_dir,
                                                                         std::chrono::milliseconds wait);

std::string to_hex(const ncclUniqueId& id);
// False when `hex` is not exactly NCCL_UNIQUE_ID_BYTES bytes of hex digits.
bool from_hex(const std::string& hex, ncclUniqueId& id);

}  // namespace perfzero::nccl
