#pragma once
// Claims the run's output directory so that two runs never write into one.
#include <filesystem>
#include <optional>
#include <string>

namespace perfzero::session {

inline constexpr const char* kRunManifest = "run.json";

struct ClaimedOutput {
  std::filesystem::path dir;
  std::string execution_id;  // from the manifest when resuming
  bool resuming = false;
  int lock_fd = -1;  // held (flock) for the whole run
};

std::string new_execution_id();
// Creates and locks the directory. Throws UsageError when another run holds it, or when it already
// holds a run and `resume` is false, or when resuming a different execution id.
// `resumable`: the command has --resume to suggest (`ab` has not: it starts a new session each time).
ClaimedOutput claim_output_dir(const std::string& requested_dir, const std::string& requested_id, bool resume,
                               bool resumable = true);

}  // namespace perfzero::session
