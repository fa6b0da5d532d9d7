#pragma once
// The flags of `perfzero export` (docs/exports.md, "MLflow").
#include <optional>
#include <string>

namespace perfzero::cli {

struct ExportOptions {
  std::string destination;   // mlflow: the only one; the file exports are --report's
  std::string run_dir;       // a finished (or interrupted) run's directory
  std::string tracking_uri;  // empty: MLFLOW_TRACKING_URI
  std::string experiment;    // empty: the run's execution label
};

// Parses `perfzero export` flags (argv[0] is "export"). Returns the help text for --help; throws
// UsageError naming the flag for anything else it cannot take.
std::optional<std::string> parse_export_flags(int argc, const char* const* argv, ExportOptions& out);

}  // namespace perfzero::cli
