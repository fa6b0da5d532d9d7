#pragma once
// The run summary: every method with its outcome and, across trials, statistics of wall time and of
// each metric. Written as summary.json, summary.csv and summary.md after every method.
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/outcome.hpp"
#include "report/run_context.hpp"
#include "report/trial_record.hpp"

namespace perfzero::report {

struct MetricValue {
  std::string name;
  double value = 0;
  std::string unit;
};

struct TrialSummary {
  int trial = 1;
  Outcome outcome = Outcome::invalid;
  std::string detail;
  double wall_time = 0;
  std::vector<MetricValue> metrics;
  std::string report;    // path relative to the output directory; empty when none was written
  bool resumed = false;  // taken from an earlier run's report (--resume)
};

struct CaseSummary {
  std::string name;
  std::string method;
  nlohmann::json params = nlohmann::json::object();
  int trials_planned = 0;
  std::vector<TrialSummary> trials;
  std::vector<TrialSummary> warmups;
};

TrialSummary summarize_trial(const TrialRecord& record, const std::filesystem::path& output_dir);
// Reads back a perfzero_summary.json written by an earlier run; nullopt if it is not one of ours.
std::optional<TrialSummary> summary_from_report(const nlohmann::json& report);

// The worst outcome among the trials (interrupted only when nothing worse happened).
Outcome case_outcome(const CaseSummary& c);

nlohmann::json comparisons_json(const RunContext& run, const std::vector<CaseSummary>& cases);
nlohmann::json summary_json(const RunContext& run, const std::vector<CaseSummary>& cases, const std::string& status);
std::string summary_csv(const std::vector<CaseSummary>& cases);
std::string summary_markdown(const RunContext& run, const std::vector<CaseSummary>& cases, const std::string& status);
void write_run_summary(const RunContext& run, const std::vector<CaseSummary>& cases, const std::string& status);

}  // namespace perfzero::report
