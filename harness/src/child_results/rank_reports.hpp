#pragma once
// What each rank of a multi-rank trial said of its own end: perfzero-rank writes
// <trial>/ranks/rank-N.json when its rank ends, and rank-N.start.json (where it runs) before the
// method starts (harness/launcher/rank_record.c). Read back here, with the same care as any file a
// child controls (child_results/untrusted_file.hpp).
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace perfzero::child_results {

// The host a rank ran on, as its agent saw it (every rank).
struct HostFacts {
  long cpus = 0;
  std::string cpu_model;
  std::uint64_t mem_total_bytes = 0;
  std::string kernel;
  std::string boot_id;  // the same on two "hosts" that are one machine (namespaces, containers)
};

// The host's CPU load while the rank ran, from the agent of the host's first rank (local rank 0).
struct HostLoad {
  double busy_cpu_seconds = 0;   // every CPU's busy time over the rank's life (/proc/stat)
  double busy_max_fraction = 0;  // the busiest sampling interval, as a share of all CPUs
  long samples = 0;
  long interval_ms = 0;
  double wall_seconds = 0;
  double agent_cpu_seconds = 0;  // what the agent itself used, its sampling thread included
};

// One GPU of the host while the rank ran, from the agent of the host's first rank (nvidia-smi).
struct HostGpu {
  int index = 0;
  std::string name;
  long samples = 0;
  double util_max_percent = 0;
  double util_mean_percent = 0;
  double memory_used_max_bytes = 0;
  double memory_total_bytes = 0;
  std::optional<double> power_mean_watts;  // absent where the GPU does not report power
};

struct RankEnd {
  int rank = 0;
  int local_rank = -1;
  std::string host;
  long pid = 0;
  std::optional<int> exit_code;  // when it exited
  int signal = 0;                // when a signal ended it
  std::string error;             // perfzero-rank's own word: the command could not start
  std::uint64_t max_rss_bytes = 0;
  double user_seconds = 0;
  double system_seconds = 0;
  double wall_seconds = 0;
  long tmp_leftover_files = 0;  // what it left in its node-local TMPDIR, removed after it
  // Its process tree sampled while it ran (absent when it ended before the first sample).
  std::optional<std::uint64_t> tree_max_rss_bytes;  // the largest sum over the tree
  long tree_max_processes = 0;
  long tree_max_threads = 0;
  std::optional<HostFacts> host_facts;
  std::optional<HostLoad> host_load;
  std::vector<HostGpu> host_gpus;
};

// Where a rank that wrote no end report had started: killed before it could write one (SIGKILL once
// a time-out's grace ran out), or its host was lost.
struct RankStart {
  int rank = 0;
  int local_rank = -1;
  std::string host;
  std::optional<HostFacts> host_facts;
};

struct RankReports {
  std::vector<RankEnd> ranks;         // by rank
  std::vector<int> missing;           // ranks of the world that wrote no report: never started, or lost
  std::vector<RankStart> unreported;  // those of `missing` that had started, by rank
  std::vector<int> refused_results;   // ranks other than 0 that wrote a result file: not read
  std::vector<std::string> problems;  // reports that could not be read, and why
};

inline constexpr const char* kRanksDir = "ranks";

RankReports read_rank_reports(const std::filesystem::path& trial_dir, int world_size);

}  // namespace perfzero::child_results
