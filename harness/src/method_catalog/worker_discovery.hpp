#pragma once
// Finds the worker executables and runs each with --list-json, all at once, under one time limit.
#include <chrono>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace perfzero::method_catalog {

inline constexpr std::string_view kWorkerPrefix = "perfzero-worker-";

// Executables named perfzero-worker-* in `bin_dir`, then in each directory of `worker_path`
// (colon-separated, $PERFZERO_WORKER_PATH); each file once, sorted by name within a directory.
std::vector<std::filesystem::path> find_workers(const std::filesystem::path& bin_dir, std::string_view worker_path);

struct Listing {
  std::filesystem::path worker;
  std::string out;
  std::string err;
  std::string failure;  // why it is unusable (did not start, timed out, exit status); "" when it ran
};

// Runs `worker --list-json` for every worker concurrently; one that outlives `limit` is killed.
std::vector<Listing> list_workers(const std::vector<std::filesystem::path>& workers, std::chrono::milliseconds limit);

}  // namespace perfzero::method_catalog
