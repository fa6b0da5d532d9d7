#pragma once
// Reporters turn the results model into files. Each is a RunObserver with a name that --report=
// selects; adding an output means adding its file and one line in builtin_reporters.cpp.
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
  std::function<std::unique_ptr<Reporter>()> make;
  bool by_default = true;  // chosen when --report is not given
};

// Every reporter this build has, in the order they run.
const std::vector<ReporterInfo>& builtin_reporters();
// The names used when --report is not given: every built-in reporter but the dashboard exports.
std::vector<std::string> default_reporter_names();
// What --report selects: nothing given, the defaults; names (perfzero,json), exactly those; names each
// with a '+' (+influx,+openmetrics), the defaults and those. Throws UsageError for a mix of both forms.
std::vector<std::string> selected_reporter_names(const std::vector<std::string>& given);
// Throws UsageError naming the unknown one (with a suggestion) and listing the known ones.
std::vector<std::unique_ptr<Reporter>> make_reporters(const std::vector<std::string>& names);

}  // namespace perfzero::run_outputs
