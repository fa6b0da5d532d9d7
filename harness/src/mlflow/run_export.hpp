#pragma once
// Sends a run to an MLflow tracking server: what the export record (export_record.hpp) says is
// missing, and nothing else. Never throws for what the server or the network does: a server that is
// down or refuses ends the export early, and the summary says what was not sent.
#include <filesystem>
#include <string>
#include <vector>

#include "mlflow/tracking_server.hpp"
#include "results/model.hpp"

namespace perfzero::mlflow {

struct ExportSummary {
  std::string server;  // the tracking URI, redacted
  std::string run_dir;
  std::string experiment;  // its name, and its id once known
  std::string experiment_id;
  int runs_made = 0;  // MLflow runs created by this export
  int steps_sent = 0;
  int artifacts_sent = 0;
  int steps_left = 0;  // still to send after this export
  int artifacts_left = 0;
  int other_left = 0;             // runs, parameters, tags or statuses still to send
  std::string why_not;            // why the export stopped early; empty when it did not
  std::string artifacts_why_not;  // why artifacts were not sent (a server without --serve-artifacts)
  bool complete() const { return steps_left == 0 && artifacts_left == 0 && other_left == 0; }
  // For a person: what went, what did not and why, one line each.
  std::vector<std::string> lines() const;
};

// `experiment`: the MLflow experiment; empty: the run's execution label (run_content.hpp).
ExportSummary export_run(const results::Run& run, const std::filesystem::path& run_dir, const ServerSettings& settings,
                         const std::string& experiment = "");

}  // namespace perfzero::mlflow
