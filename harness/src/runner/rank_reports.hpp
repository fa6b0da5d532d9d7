#pragma once
// What each rank of a multi-rank trial said of its own end: perfzero-rank writes
// <trial>/ranks/rank-N.json when its rank ends (harness/launcher/rank_main.c). Read back here, with
// the same care as any file a child controls (runner/untrusted_file.hpp).
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace perfzero::runner {

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
};

struct RankReports {
  std::vector<RankEnd> ranks;         // by rank
  std::vector<int> missing;           // ranks of the world that wrote no report: never started, or lost
  std::vector<int> refused_results;   // ranks other than 0 that wrote a result file: not read
  std::vector<std::string> problems;  // reports that could not be read, and why
};

inline constexpr const char* kRanksDir = "ranks";

RankReports read_rank_reports(const std::filesystem::path& trial_dir, int world_size);

}  // namespace perfzero::runner
