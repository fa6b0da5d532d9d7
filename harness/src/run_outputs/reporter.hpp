#pragma once
// Reporters turn the results model into files. Each is a RunObserver with a name that --report=
// selects; adding an output means adding its file and one line in builtin_reporters.cpp.
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "results/events.hpp"

namespace perfzero::run_outputs {

using Reporter = results::RunObserver;

struct ReporterInfo {
  std::string name;         // what --report= says
  std::string description;  // one line for --help and docs
  // Made once the run's directory is claimed; the run directory is where a run-wide output goes
  // (a trial's outputs go to the trial's directory, which each event names).
  std::function<std::unique_ptr<Reporter>(const std::filesystem::path& run_dir)> make;
  bool by_default = true;  // chosen when --report is not given
};

// Every reporter this build has, in the order they run.
const std::vector<ReporterInfo>& builtin_reporters();
// The names used when --report is not given: every built-in reporter but the dashboard exports.
std::vector<std::string> default_reporter_names();
// What --report selects: nothing given, the defaults; names (perfzero,json), exactly those; names each
// with a '+' (+influx,+openmetrics), the defaults and those. Throws UsageError for a mix of both forms.
std::vector<std::string> selected_reporter_names(const std::vector<std::string>& given);
// Throws UsageError naming an unknown one (with a suggestion) and listing the known ones: before
// anything is written, so a bad --report is a usage error.
void check_reporter_names(const std::vector<std::string>& names);
// The reporters `names` chose (checked as above), writing under run_dir.
std::vector<std::unique_ptr<Reporter>> make_reporters(const std::vector<std::string>& names,
                                                      const std::filesystem::path& run_dir);

}  // namespace perfzero::run_outputs
