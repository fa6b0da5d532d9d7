// summary.csv: long format, one row per (case, metric), wall time first, so spreadsheets and
// dashboards can pivot it. A statistic without data is an empty cell.
#include <filesystem>
#include <utility>

#include <fmt/format.h>

#include "common/escape.hpp"
#include "common/files.hpp"
#include "results/statistics.hpp"
#include "run_outputs/format.hpp"
#include "run_outputs/summary_reporters.hpp"

namespace perfzero::run_outputs {

namespace {

std::string stats_cells(const results::Stats& s) {
  return fmt::format("{},{},{},{},{},{},{},{},{}", s.count, number(s.median, ""), number(s.mean, ""),
                     number(s.stddev, ""), number(s.min, ""), number(s.max, ""), number(s.cv, ""), number(s.p5, ""),
                     number(s.p95, ""));
}

class SummaryCsvReporter : public Reporter {
 public:
  explicit SummaryCsvReporter(std::filesystem::path run_dir) : run_dir_(std::move(run_dir)) {}
  void checkpoint(const results::Run& run) override { write(run); }
  void run_finished(const results::Run& run) override { write(run); }

 private:
  void write(const results::Run& run) const { files::write_atomically(run_dir_ / "summary.csv", summary_csv(run)); }

  std::filesystem::path run_dir_;
};

}  // namespace

std::string summary_csv(const results::Run& run) {
  std::string out =
      "name,method,outcome,trials_run,trials_succeeded,metric,unit,count,median,mean,stddev,min,max,cv,p5,p95\n";
  for (const auto& c : run.cases) {
    if (c.trials.empty() && c.warmups.empty()) continue;
    const results::CaseStats stats = results::case_stats(c);
    const std::string prefix =
        fmt::format("{},{},{},{},{}", text::csv_cell(c.name), text::csv_cell(c.method),
                    to_string(results::case_outcome(c)), c.trials.size(), stats.trials_succeeded);
    out += fmt::format("{},wall_time,s,{}\n", prefix, stats_cells(stats.wall_time));
    for (const auto& m : stats.metrics) {
      out += fmt::format("{},{},{},{}\n", prefix, text::csv_cell(m.name), text::csv_cell(m.unit), stats_cells(m.stats));
    }
  }
  return out;
}

std::unique_ptr<Reporter> make_summary_csv_reporter(const std::filesystem::path& run_dir) {
  return std::make_unique<SummaryCsvReporter>(run_dir);
}

}  // namespace perfzero::run_outputs
