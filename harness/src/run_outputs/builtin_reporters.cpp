// The reporters this build has: one line each.
#include <algorithm>

#include <fmt/format.h>

#include "common/errors.hpp"
#include "common/text.hpp"
#include "run_outputs/export_reporters.hpp"
#include "run_outputs/summary_reporters.hpp"
#include "run_outputs/trial_report.hpp"

namespace perfzero::run_outputs {

namespace {

using MakeInRunDir = std::unique_ptr<Reporter> (*)(const std::filesystem::path&);

// For the reporters that need only the run's directory.
std::function<std::unique_ptr<Reporter>(const ReporterSettings&)> in_run_dir(MakeInRunDir make) {
  return [make](const ReporterSettings& settings) { return make(settings.run_dir); };
}

}  // namespace

const std::vector<ReporterInfo>& builtin_reporters() {
  static const std::vector<ReporterInfo> all{
      {"perfzero", "perfzero_summary.json per (method, trial): PerfZero's report schema",
       [](const ReporterSettings&) { return make_trial_report_reporter(); }},
      {"process_info", "process_info.log per trial (and sampler_<name>.log for other samplers)",
       [](const ReporterSettings&) { return make_process_log_reporter(); }},
      {"json", "summary.json: every method's outcome, statistics and trials", in_run_dir(make_summary_json_reporter)},
      {"csv", "summary.csv: one row per (method, metric) with its statistics", in_run_dir(make_summary_csv_reporter)},
      {"md", "summary.md: a table for people, comparisons, problems and flagged trials",
       in_run_dir(make_summary_markdown_reporter)},
      // Dashboard exports (docs/exports.md): asked for by name, not written by every run.
      {"elasticsearch", "elasticsearch_bulk.ndjson + elasticsearch_template.json: one document per trial and metric",
       in_run_dir(make_elasticsearch_reporter), false},
      {"influx", "influx.lp: InfluxDB line protocol, one point per trial and metric", in_run_dir(make_influx_reporter),
       false},
      {"openmetrics", "perfzero.prom: OpenMetrics/Prometheus text of the run's statistics",
       in_run_dir(make_openmetrics_reporter), false},
      // Sent, not written (docs/exports.md, "MLflow"): never chosen by default, as a run must not reach
      // out to a server nobody asked for.
      {"mlflow", "an MLflow tracking server: an MLflow run per case, a step per trial (--mlflow_tracking_uri)",
       make_mlflow_reporter, false, check_mlflow_settings},
  };
  return all;
}

std::vector<std::string> default_reporter_names() {
  std::vector<std::string> names;
  for (const auto& r : builtin_reporters()) {
    if (r.by_default) names.push_back(r.name);
  }
  return names;
}

std::vector<std::string> selected_reporter_names(const std::vector<std::string>& given) {
  if (given.empty()) return default_reporter_names();
  const auto added = std::count_if(given.begin(), given.end(), [](const std::string& n) { return n.starts_with('+'); });
  if (added == 0) return given;
  if (static_cast<std::size_t>(added) != given.size()) {
    throw UsageError(
        fmt::format("--report: '{}' mixes names that replace the defaults with '+name' that adds to them; use one form "
                    "(e.g. --report=+influx for the defaults and influx, or --report=json,influx for exactly those)",
                    text::join(given, ",")));
  }
  std::vector<std::string> names = default_reporter_names();
  for (const auto& name : given) {
    const std::string bare = name.substr(1);
    if (std::find(names.begin(), names.end(), bare) == names.end()) names.push_back(bare);
  }
  return names;
}

namespace {

const ReporterInfo& reporter_named(const std::string& name) {
  const auto& all = builtin_reporters();
  const auto it = std::find_if(all.begin(), all.end(), [&](const ReporterInfo& r) { return r.name == name; });
  if (it != all.end()) return *it;
  std::vector<std::string> known;
  known.reserve(all.size());
  for (const auto& r : all) known.push_back(r.name);
  throw UsageError(fmt::format("--report: unknown report '{}'{}; known: {}", name, text::did_you_mean(name, known),
                               text::join(known, ",")));
}

}  // namespace

void check_reporter_names(const std::vector<std::string>& names, const ReporterSettings& settings) {
  for (const auto& name : names) static_cast<void>(reporter_named(name));
  for (const auto& name : names) {
    if (const auto& check = reporter_named(name).check) check(settings);
  }
}

std::vector<std::unique_ptr<Reporter>> make_reporters(const std::vector<std::string>& names,
                                                      const ReporterSettings& settings) {
  std::vector<std::unique_ptr<Reporter>> out;
  out.reserve(names.size());
  for (const auto& name : names) out.push_back(reporter_named(name).make(settings));
  return out;
}

}  // namespace perfzero::run_outputs
