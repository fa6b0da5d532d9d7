#pragma once
// One cloud instance's life as the fleet runner recorded it: the runner
// (infra/terraform/cloud-init/scripts/perfzero-runner.sh) writes <run>/instances/<instance>.json and
// uploads it with the run, so `perfzero report` can price the whole experiment, boot to power-off,
// not only the measured trials (docs/report.md, "The cost of the experiment").
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace perfzero::fleet_report {

inline constexpr int kInstanceTimelineVersion = 1;

struct InstanceLife {
  std::string file;                    // where it was read, for messages
  std::string instance;                // the instance's id (or host name)
  std::string capacity = "on_demand";  // on_demand or spot
  double booted_at = 0;                // epoch seconds
  std::optional<double> container_started_at;
  std::optional<double> ended_at;  // the upload's end; else when it was last seen (a preempted one)
  std::string end;                 // done, failed, preempted, or running (last seen alive)
};

// The instances of the run in `run_dir` (its instances/ folder; none there: empty). A file that is
// not a regular file, is too large or is not a timeline is named in `problems` and left out.
std::vector<InstanceLife> read_instance_lives(const std::filesystem::path& run_dir, std::vector<std::string>& problems);

// Parses one timeline; throws std::runtime_error saying what is wrong.
InstanceLife parse_instance_life(const std::string& text, const std::string& file);

}  // namespace perfzero::fleet_report
