#include "run_outputs/trial_report.hpp"

#include <map>
#include <memory>

#include <fmt/format.h>
#include <boost/version.hpp>

#include "common/files.hpp"
#include "results/model_json.hpp"
#include "run_outputs/format.hpp"

namespace perfzero::run_outputs {

namespace {

using nlohmann::json;

json metrics_json(const results::Trial& t) {
  json metrics = json::array();
  for (const auto& m : t.metrics) {
    json metric = {{"name", m.name}, {"value", m.value}};
    if (m.min_value) metric["min_value"] = *m.min_value;
    if (m.max_value) metric["max_value"] = *m.max_value;
    metrics.push_back(std::move(metric));
  }
  return metrics;
}

// PerfZero's keys for the build being measured: build_version holds its commit and build_label the
// build's label (--ml_framework_build_label, else --build_label), unless the method names its own.
json framework_json(const results::RunInfo& run, const results::Case& c, const results::Trial& t) {
  const bool python = !c.python.is_null();
  json fw = {
      {"name", python       ? "python"
               : c.external ? "external"
                            : "perfzero-cpp"},
      {"version", c.external ? "" : run.harness_version},
      {"build_version", run.source.commit},
      {"build_label", !run.ml_framework_build_label.empty() ? run.ml_framework_build_label : run.source.build_label}};
  if (t.ml_framework_info.is_object()) {
    for (const char* key : {"name", "version", "build_version"}) {
      if (t.ml_framework_info.contains(key) && t.ml_framework_info[key].is_string()) fw[key] = t.ml_framework_info[key];
    }
    // A framework's CUDA and cuDNN, as PerfZero records TensorFlow's (the Python runner fills them).
    for (const char* key : {"cuda_version", "cudnn_version"}) {
      if (t.ml_framework_info.contains(key) && t.ml_framework_info[key].is_string()) fw[key] = t.ml_framework_info[key];
    }
  }
  return fw;
}

// The libraries this harness was built with stand where PerfZero lists Python packages, beside the
// repositories --git_repos checked out ({url, branch, hash}, as PerfZero records them).
json site_package_info(const results::RunInfo& run) {
  json info = {{"boost", BOOST_LIB_VERSION},
               {"fmt", std::to_string(FMT_VERSION)},
               {"nlohmann_json", fmt::format("{}.{}.{}", NLOHMANN_JSON_VERSION_MAJOR, NLOHMANN_JSON_VERSION_MINOR,
                                             NLOHMANN_JSON_VERSION_PATCH)}};
  if (run.site_packages.is_object()) {
    for (const auto& [name, repo] : run.site_packages.items()) info[name] = repo;
  }
  return info;
}

json ours_json(const results::RunInfo& run, const results::Case& c, const results::Trial& t) {
  json units = json::object();
  json directions = json::object();
  for (const auto& m : t.metrics) {
    units[m.name] = m.unit;
    if (m.direction != Direction::unspecified) directions[m.name] = std::string(to_string(m.direction));
  }
  json ours = {
      {"outcome", to_string(t.outcome)},
      {"outcome_detail", t.detail},
      {"case", c.name},
      {"method", c.method},
      {"method_type", results::method_type(c)},
      {"params", c.params},
      {"trial", t.number},
      {"trials_planned", c.trials_planned},
      {"origin", c.origin},
      {"exit_code", t.exit_code ? json(*t.exit_code) : json(nullptr)},
      {"signal", t.signal.empty() ? json(nullptr) : json(t.signal)},
      {"timeout_seconds", c.timeout_seconds},
      {"metric_units", std::move(units)},
      {"metric_directions", std::move(directions)},
      {"timing",
       {{"child_wall_time", t.wall_time},
        {"child_self_wall_time", t.self_wall_time ? json(*t.self_wall_time) : json(nullptr)},
        {"harness_trial_time", t.harness_seconds},
        {"started_offset", t.started_offset}}},
      {"process", t.process.detail},
      {"samplers", t.samplers},
      {"flags", t.flags},
      {"repetitions", t.repetitions},
      {"system", run.system},
      {"source", results::source_info_to_json(run.source)},
      {"run",
       {{"output_dir", run.output_dir}, {"suite_files", run.suite_files}, {"harness_version", run.harness_version}}},
      {"files",
       {{"log", files::kChildLogFile}, {"process_info", files::kProcessLogFile}, {"result", files::kResultFile}}},
  };
  if (c.external) {
    ours["command"] = c.command;
    ours["working_dir"] = c.working_dir;
  }
  if (!c.python.is_null()) ours["python"] = c.python;
  if (!c.main_metric.empty()) ours["main_metric"] = c.main_metric;
  // A multi-rank method (launch: mpirun): every rank's end and usage, and the hosts they ran on.
  if (c.launch.is_object()) ours["launch"] = c.launch;
  if (t.ranks.is_object()) {
    ours["ranks"] = t.ranks;
    ours["hosts"] = t.ranks.value("hosts", json::array());
  }
  return ours;
}

class TrialReportReporter : public Reporter {
 public:
  void trial_finished(const results::Run& run, const results::Case& c, const results::Trial& t,
                      const results::TrialArtifacts& artifacts) override {
    if (!results::gets_trial_report(t)) return;
    // Not synced: the journal line is the trial's record (synced behind, common/sync_behind.hpp),
    // and a report a power loss took is written again from it by --resume (trial_adopted). Syncing
    // each report and its directory as well cost a short command's trial 0.1 ms on this VM's disk
    // (docs/performance.md); databases sync their log, not every page, for the same reason. Built
    // and written while the next trial runs, from copies: the model changes as the run goes on, and
    // the run's part (machine, flags, environment) is copied again only when it changed.
    if (!info_ || info_edits_ != run.info.edits) {
      info_ = std::make_shared<const results::RunInfo>(run.info);
      info_edits_ = run.info.edits;
    }
    // A case's heading (all but its trials) does not change during the run: copied once per case.
    auto& heading = headings_[c.name];
    if (!heading) heading = std::make_shared<const results::Case>(results::case_heading(c));
    results::write_trial_file(artifacts, artifacts.dir / files::kReportFile,
                              [info = info_, heading, trial = t, dir = artifacts.dir] {
                                return text_of(build_trial_report(*info, *heading, trial, dir));
                              });
  }

  void trial_adopted(const results::Run& run, const results::Case& c, const results::Trial& t,
                     const results::TrialArtifacts& artifacts) override {
    if (!results::gets_trial_report(t)) return;
    const nlohmann::json report = build_trial_report(run.info, c, t, artifacts.dir);
    // Kept only when it is this trial's, as journaled: an earlier attempt's whole report (a trial run
    // again in its directory, whose new report was lost) is not.
    const auto kept_text = files::read_text(artifacts.dir / files::kReportFile);
    const auto kept = kept_text ? nlohmann::json::parse(*kept_text, nullptr, false) : nlohmann::json();
    if (kept.is_object() && kept.value("execution_id", nlohmann::json()) == report["execution_id"] &&
        kept.value("benchmark_result", nlohmann::json()) == report["benchmark_result"]) {
      return;
    }
    std::filesystem::create_directories(artifacts.dir);  // a whole trial directory may be gone
    write(report, artifacts.dir);
  }

 private:
  std::shared_ptr<const results::RunInfo> info_;
  std::uint64_t info_edits_ = 0;
  std::map<std::string, std::shared_ptr<const results::Case>> headings_;

  static std::string text_of(const nlohmann::json& report) { return dump_json(report, 2) + "\n"; }
  static void write(const nlohmann::json& report, const std::filesystem::path& dir) {
    files::write_atomically(dir / files::kReportFile, text_of(report));
  }
};

}  // namespace

std::string trial_report_path(const results::Trial& trial) {
  return results::gets_trial_report(trial) ? trial.dir + "/" + files::kReportFile : std::string();
}

nlohmann::json build_trial_report(const results::RunInfo& run, const results::Case& c, const results::Trial& t,
                                  const std::filesystem::path& trial_dir) {
  return {
      {"execution_id", run.execution_id},
      {"execution_timestamp", run.execution_timestamp},
      {"setup_info", run.setup_info},
      {"benchmark_result",
       {{"name", c.name},
        {"wall_time", t.wall_time},
        {"succeeded", t.outcome == Outcome::succeeded},
        {"metrics", metrics_json(t)},
        {"extras", t.extras},
        {"trial_id", t.number}}},
      {"benchmark_info",
       {{"harness_name", "perfzero-cpp"},
        {"harness_info", run.harness_info},
        {"has_exception", t.has_exception},
        {"execution_label", run.execution_label},
        {"output_url", "file://" + std::filesystem::absolute(trial_dir).string()},
        {"env_vars", run.env_vars},
        {"flags", run.flags},
        {"site_package_info", site_package_info(run)}}},
      {"ml_framework_info", framework_json(run, c, t)},
      {"system_info", run.system_info},
      {"process_info",
       {{"max_rss", t.process.max_rss},
        {"max_vms", t.process.max_vms},
        {"max_cpu_percent", t.process.max_cpu_percent}}},
      {"schema_version", results::kSchemaVersion},
      {"perfzero_cpp", ours_json(run, c, t)},
  };
}

std::unique_ptr<Reporter> make_trial_report_reporter() { return std::make_unique<TrialReportReporter>(); }

}  // namespace perfzero::run_outputs
