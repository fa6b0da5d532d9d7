#pragma once
// The two sides of `perfzero ab`, as two plans of the same shape: case i of the baseline is paired
// with case i of the candidate (docs/compare.md, "perfzero ab").
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli/ab_options.hpp"
#include "config/run_plan.hpp"
#include "method_catalog/catalog.hpp"
#include "session/child_command.hpp"

namespace perfzero::ab {

struct AbSide {
  std::string role;  // "baseline" or "candidate"
  std::string what;  // the command, build directory, image or NAME=VALUE, as the table's header shows it
  session::HarnessPaths paths;
  std::unique_ptr<method_catalog::Catalog> catalog;  // the methods of this side's build (builds); else ours
  std::vector<config::PlannedCase> plan;
  std::filesystem::path run_dir;  // <output_dir>/<role>
  std::string container;          // images: the one container name its trials use, removed after each stop
  // --host_busy_threshold, else the suites' key (config::host_busy_threshold_for); unset: the default
  std::optional<double> host_busy_threshold;
};

// Throws UsageError or ConfigError (with the flag or suite place) when a side cannot be planned, or
// when the two plans do not pair up.
void plan_sides(const cli::AbOptions& options, const method_catalog::Catalog& ours, const std::string& session_id,
                AbSide& baseline, AbSide& candidate);

// The settings every case of both sides gets: trials = --max_trials (the most pairs), warm-ups, timeout.
config::RunSettings ab_settings(const cli::AbOptions& options);

}  // namespace perfzero::ab
