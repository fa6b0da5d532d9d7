#pragma once
// What a perfzero run becomes in MLflow (docs/exports.md, "MLflow"): one MLflow run per case, with a
// step per trial, so that MLflow's charts draw a method's trials as one line and its run comparison
// sets methods side by side. Every string here has been through redact/ (names, values, the trial
// reports): this is the only place an export reads the model, and nothing it builds is unredacted.
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "mlflow/tracking_server.hpp"
#include "results/model.hpp"

namespace perfzero::mlflow {

struct StepContent {
  int step = 0;  // the trial's number
  std::vector<Metric> metrics;
};

struct ArtifactContent {
  std::string path;            // where it goes in the MLflow run: trial_<n>/perfzero_summary.json
  std::filesystem::path file;  // the trial report on disk
};

struct CaseContent {
  std::string key;  // the case's name in the run: the export record's key
  std::string run_name;
  std::int64_t start_time_ms = 0;
  std::int64_t end_time_ms = 0;
  std::vector<KeyValue> params;
  std::vector<KeyValue> tags;
  std::vector<StepContent> steps;
  std::vector<ArtifactContent> artifacts;
  std::string status;  // FINISHED, FAILED or KILLED; empty while the run has not ended
};

// The experiment's name: the run's execution label, or "perfzero" when it has none.
std::string experiment_name(const results::Run& run);
// Every case that measured something (a case whose trials never ran has nothing to send).
std::vector<CaseContent> run_content(const results::Run& run, const std::filesystem::path& run_dir);
// A trial report as it is sent: its JSON redacted again at every depth (redact::redacted_json), so a
// secret a method put in its extras does not leave either. nullopt when it is not readable JSON.
std::optional<std::string> artifact_text(const std::filesystem::path& file);

}  // namespace perfzero::mlflow
