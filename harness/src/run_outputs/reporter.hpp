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

// What a reporter may need beyond the model: where the run's directory is (a run-wide output goes
// there; a trial's outputs go to the trial's directory, which each event names) and the destinations
// of the reporters that send rather than write.
struct ReporterSettings {
  std::filesystem::path run_dir;
  std::string mlflow_tracking_uri;  // --mlflow_tracking_uri; empty: MLFLOW_TRACKING_URI
};

struct ReporterInfo {
  std::string name;         // what --report= says
  std::string description;  // one line for --help and docs
  // Made once the run's directory is claimed.
  std::function<std::unique_ptr<Reporter>(const ReporterSettings& settings)> make;
  bool by_default = true;  // chosen when --report is not given
  // Before anything is written: throws UsageError when the settings cannot work (no server named).
  std::function<void(const ReporterSettings& settings)> check = nullptr;
};

// Every reporter this build has, in the order they run.
const std::vector<ReporterInfo>& builtin_reporters();
// The names used when --report is not given: every built-in reporter but the dashboard exports.
std::vector<std::string> default_reporter_names();
// What --report selects: nothing given, the defaults; names (perfzero,json), exactly those; names each
// with a '+' (+influx,+openmetrics), the defaults and those. Throws UsageError for a mix of both forms.
std::vector<std::string> selected_reporter_names(const std::vector<std::string>& given);
// Throws UsageError naming an unknown one (with a suggestion) and listing the known ones, or saying
// what a chosen one lacks (an MLflow server): before anything is written, so a bad --report is a
// usage error.
void check_reporter_names(const std::vector<std::string>& names, const ReporterSettings& settings = {});
// The reporters `names` chose (checked as above), writing under settings.run_dir.
std::vector<std::unique_ptr<Reporter>> make_reporters(const std::vector<std::string>& names,
                                                      const ReporterSettings& settings);

}  // namespace perfzero::run_outputs
