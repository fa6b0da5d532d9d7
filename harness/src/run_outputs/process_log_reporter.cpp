// process_info.log (PerfZero's name and keys) from the process-tree sampler's series, and
// sampler_<name>.log for every other sampler's: one JSON object per sample and line.
#include <cmath>

#include "common/files.hpp"
#include "run_outputs/format.hpp"
#include "run_outputs/trial_report.hpp"

namespace perfzero::run_outputs {

namespace {

// Whole numbers (bytes, counts) are written as integers, as PerfZero's loaders expect.
nlohmann::json cell(double v) {
  if (std::isfinite(v) && v == std::floor(v) && std::fabs(v) < 9.0e15) return static_cast<std::int64_t>(v);
  return v;
}

std::string lines_of(const results::TimeSeries& series) {
  std::string out;
  for (const auto& row : series.rows) {
    nlohmann::json line = nlohmann::json::object();
    for (std::size_t i = 0; i < series.columns.size() && i < row.size(); ++i) line[series.columns[i]] = cell(row[i]);
    out += dump_json(line, -1);
    out += '\n';
  }
  return out;
}

class ProcessLogReporter : public Reporter {
 public:
  void trial_finished(const results::Run& /*run*/, const results::Case& /*c*/, const results::Trial& t,
                      const results::TrialArtifacts& artifacts) override {
    if (!results::gets_trial_report(t)) return;
    for (const auto& series : artifacts.series) {
      // A sampler that could not start (no GPU, no NVML) leaves a series nobody filled: no file for
      // it. Nor for another sampler's empty series (a trial shorter than one monitor tick): its
      // summary is in the report, and an empty file costs a trial as much as a full one.
      if (series.sampler.empty()) continue;
      if (series.rows.empty() && series.sampler != "process_tree") continue;
      results::write_trial_file(artifacts, artifacts.dir / files::sampler_log_file(series.sampler),
                                [series] { return lines_of(series); });
    }
  }
};

}  // namespace

std::unique_ptr<Reporter> make_process_log_reporter() { return std::make_unique<ProcessLogReporter>(); }

}  // namespace perfzero::run_outputs
