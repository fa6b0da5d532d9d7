#include "report/trial_report.hpp"

#include <fmt/format.h>
#include <boost/version.hpp>

#include <algorithm>

#include "api/param_json.hpp"
#include "common/files.hpp"
#include "perfzero_build_info.hpp"

namespace perfzero::report {

std::uint64_t reported_max_rss(const runner::TrialExecution& execution) {
  std::uint64_t peak = std::max(execution.monitor.max_rss_tree, execution.monitor.max_hwm_process);
  if (execution.kernel) peak = std::max(peak, execution.kernel->max_rss_bytes);
  return peak;
}

namespace {

nlohmann::json metrics_json(const runner::ChildResult* child) {
  nlohmann::json metrics = nlohmann::json::array();
  if (child == nullptr) return metrics;
  for (const auto& m : child->metrics) {
    nlohmann::json metric = {{"name", m.name}, {"value", m.value}};
    if (m.min_value) metric["min_value"] = *m.min_value;
    if (m.max_value) metric["max_value"] = *m.max_value;
    metrics.push_back(std::move(metric));
  }
  return metrics;
}

nlohmann::json framework_json(const RunContext& run, const TrialRecord& record, const runner::ChildResult* child) {
  nlohmann::json fw = {{"name", record.planned->external ? "external" : "perfzero-cpp"},
                       {"version", record.planned->external ? "" : build_info::kVersion},
                       {"build_version", ""},
                       {"build_label", run.ml_framework_build_label}};
  if (child != nullptr && child->ml_framework_info.is_object()) {
    for (const char* key : {"name", "version", "build_version"}) {
      if (child->ml_framework_info.contains(key) && child->ml_framework_info[key].is_string()) {
        fw[key] = child->ml_framework_info[key];
      }
    }
  }
  return fw;
}

// The libraries this harness was built with stand where PerfZero lists Python packages.
nlohmann::json site_package_info() {
  return {{"boost", BOOST_LIB_VERSION},
          {"fmt", std::to_string(FMT_VERSION)},
          {"nlohmann_json", fmt::format("{}.{}.{}", NLOHMANN_JSON_VERSION_MAJOR, NLOHMANN_JSON_VERSION_MINOR,
                                        NLOHMANN_JSON_VERSION_PATCH)}};
}

nlohmann::json process_extension(const runner::TrialExecution& e, const config::PlannedCase& planned) {
  const auto& m = e.monitor;
  const double cpu_seconds = e.kernel ? e.kernel->user_seconds + e.kernel->system_seconds : m.tree_cpu_seconds;
  nlohmann::json kernel = nullptr;
  if (e.kernel) {
    kernel = {{"max_rss_bytes", e.kernel->max_rss_bytes},
              {"user_cpu_seconds", e.kernel->user_seconds},
              {"system_cpu_seconds", e.kernel->system_seconds},
              {"reaped_processes", e.kernel->reaped_processes}};
  }
  return {
      {"max_rss_sources",
       {{"sampled_tree_sum", m.max_rss_tree},
        {"sampled_largest_vmhwm", m.max_hwm_process},
        {"kernel_largest_maxrss", e.kernel ? nlohmann::json(e.kernel->max_rss_bytes) : nullptr}}},
      {"avg_cpu_percent", e.wall_seconds > 0 ? 100.0 * cpu_seconds / e.wall_seconds : 0.0},
      {"user_cpu_seconds", e.kernel ? nlohmann::json(e.kernel->user_seconds) : nullptr},
      {"system_cpu_seconds", e.kernel ? nlohmann::json(e.kernel->system_seconds) : nullptr},
      {"max_threads", m.max_threads},
      {"max_processes", m.max_processes},
      {"samples", m.samples.size()},
      {"monitor_interval_ms", planned.monitor_interval.count()},
      {"monitor_cpu_seconds", m.monitor_cpu_seconds},
      {"leftover_processes_killed", e.leftover_processes_killed},
      {"kernel_rusage", kernel},
  };
}

}  // namespace

nlohmann::json build_trial_report(const RunContext& run, const TrialRecord& record) {
  const auto& planned = *record.planned;
  const auto& e = record.execution;
  const auto* child = std::get_if<runner::ChildResult>(&record.result);
  const bool succeeded = record.classification.outcome == Outcome::succeeded;

  nlohmann::json units = nlohmann::json::object();
  if (child != nullptr) {
    for (const auto& m : child->metrics) units[m.name] = m.unit;
  }
  nlohmann::json ours = {
      {"outcome", to_string(record.classification.outcome)},
      {"outcome_detail", record.classification.detail},
      {"case", planned.name},
      {"method", planned.method},
      {"method_type", planned.external ? "command" : "builtin"},
      {"params", detail::params_to_json(planned.params)},
      {"trial", record.trial},
      {"trials_planned", planned.trials},
      {"origin", planned.origin},
      {"exit_code", e.end == runner::ProcessEnd::exited ? nlohmann::json(e.exit_code) : nullptr},
      {"signal", e.end == runner::ProcessEnd::signaled ? nlohmann::json(runner::signal_name(e.signal)) : nullptr},
      {"timeout_seconds", static_cast<double>(planned.timeout.count()) / 1000.0},
      {"metric_units", units},
      {"repetitions", child != nullptr ? runner::repetitions_json(child->repetitions) : nlohmann::json::array()},
      {"timing",
       {{"child_wall_time", e.wall_seconds},
        {"child_self_wall_time",
         child != nullptr && child->self_wall_time ? nlohmann::json(*child->self_wall_time) : nullptr},
        {"harness_trial_time", record.harness_seconds},
        {"started_offset", record.started_offset}}},
      {"process", process_extension(e, planned)},
      {"system", system_extension_json(run)},
      {"run",
       {{"output_dir", run.output_dir.string()},
        {"suite_files", run.suite_files},
        {"harness_version", build_info::kVersion}}},
      {"files", {{"log", kChildLogFile}, {"process_info", kProcessLogFile}, {"result", kResultFile}}},
  };
  if (planned.external) {
    ours["command"] = planned.command.argv;
    ours["working_dir"] = planned.command.working_dir.string();
  }

  return {
      {"execution_id", run.execution_id},
      {"execution_timestamp", run.execution_timestamp},
      {"setup_info", run.setup_info},
      {"benchmark_result",
       {{"name", planned.name},
        {"wall_time", e.wall_seconds},
        {"succeeded", succeeded},
        {"metrics", metrics_json(child)},
        {"extras", child != nullptr ? child->extras : nlohmann::json::object()},
        {"trial_id", record.trial}}},
      {"benchmark_info",
       {{"harness_name", "perfzero-cpp"},
        {"harness_info",
         {{"url", build_info::kGitUrl}, {"branch", build_info::kGitBranch}, {"hash", build_info::kGitHash}}},
        {"has_exception", record.classification.has_exception},
        {"execution_label", run.execution_label},
        {"output_url", "file://" + std::filesystem::absolute(record.dir).string()},
        {"env_vars", run.env_vars},
        {"flags", run.flags},
        {"site_package_info", site_package_info()}}},
      {"ml_framework_info", framework_json(run, record, child)},
      {"system_info", system_info_json(run)},
      {"process_info",
       {{"max_rss", reported_max_rss(e)},
        {"max_vms", e.monitor.max_vms_tree},
        {"max_cpu_percent", e.monitor.max_cpu_percent}}},
      {"schema_version", kSchemaVersion},
      {"perfzero_cpp", std::move(ours)},
  };
}

void write_trial_files(const RunContext& run, const TrialRecord& record) {
  std::string lines;
  for (const auto& s : record.execution.monitor.samples) {
    lines += nlohmann::json{{"time", s.time},       {"rss", s.rss},
                            {"vms", s.vms},         {"cpu_percent", s.cpu_percent},
                            {"threads", s.threads}, {"processes", s.processes}}
                 .dump();
    lines += '\n';
  }
  files::write_atomically(record.dir / kProcessLogFile, lines);
  files::write_atomically(record.dir / kReportFile, build_trial_report(run, record).dump(2) + "\n");
}

}  // namespace perfzero::report
