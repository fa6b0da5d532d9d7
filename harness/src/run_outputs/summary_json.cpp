// summary.json: every case with its outcome, statistics and trials, the comparisons, the machine in
// brief. Rewritten whole at checkpoints and at the end of the run (the journal holds the rest).
#include "run_outputs/summary_reporters.hpp"

#include <map>

#include "common/files.hpp"
#include "results/auto_trials.hpp"
#include "results/comparisons.hpp"
#include "results/model_json.hpp"
#include "results/statistics.hpp"
#include "run_outputs/format.hpp"

namespace perfzero::run_outputs {

namespace {

using nlohmann::json;

json optional_json(const std::optional<double>& v) { return v ? json(*v) : json(nullptr); }

// A trial as the summary lists it: what people and dashboards filter on. The full record (extras,
// sampler summaries, process detail, repetitions) is in the journal and the trial's own report.
json trial_brief(const results::Trial& t) {
  // Member by member: a braced list builds every value twice, for every trial at every checkpoint.
  json brief = json::object();
  brief["trial"] = t.number;
  brief["outcome"] = to_string(t.outcome);
  brief["detail"] = t.detail;
  brief["has_exception"] = t.has_exception;
  brief["exit_code"] = t.exit_code ? json(*t.exit_code) : json(nullptr);
  brief["signal"] = t.signal.empty() ? json(nullptr) : json(t.signal);
  brief["wall_time"] = t.wall_time;
  json& metrics = brief["metrics"] = json::object();
  for (const auto& m : t.metrics) metrics[m.name] = m.value;
  brief["max_rss"] = t.process.max_rss;
  brief["flags"] = t.flags;
  brief["dir"] = t.dir;
  brief["report"] = t.report.empty() ? json(nullptr) : json(t.report);
  brief["resumed"] = t.resumed;
  return brief;
}

json disturbance_json(const results::FlagCounts& counts) {
  json out = json::object();
  for (const auto& [flag, n] : counts) out[flag] = n;
  return out;
}

// trials: auto: its limits, why it stopped and the noise it reached; null for a fixed number.
json auto_json(const results::Case& c) {
  if (!c.auto_trials) return nullptr;
  const results::AutoState s = results::auto_state(c, *c.auto_trials);
  json out = results::auto_trials_to_json(c.auto_trials);
  out["metric"] = s.metric;
  out["noise"] = s.noise ? json(*s.noise) : json(nullptr);
  out["trials_measured"] = s.measured;
  out["stopped"] = s.done ? json(s.reason) : json(nullptr);
  return out;
}

json case_json(const results::Case& c, std::map<std::string, int>& totals) {
  const results::CaseStats stats = results::case_stats(c);
  json metrics = json::object();
  for (const auto& m : stats.metrics) {
    json j = results::to_json(m.stats);
    j["unit"] = m.unit;
    metrics[m.name] = std::move(j);
  }
  std::map<std::string, int> trial_outcomes;
  json trials = json::array();
  for (const auto& t : c.trials) {
    trial_outcomes[std::string(to_string(t.outcome))] += 1;
    trials.push_back(trial_brief(t));
  }
  json warmups = json::array();
  for (const auto& t : c.warmups) warmups.push_back(trial_brief(t));
  const Outcome outcome = results::case_outcome(c);
  totals[std::string(to_string(outcome))] += 1;
  json out = {{"name", c.name},
              {"method", c.method},
              {"method_type", results::method_type(c)},
              {"params", c.params},
              {"dir", c.dir},
              {"outcome", to_string(outcome)},
              {"trials_planned", c.trials_planned},
              {"trials_run", c.trials.size()},
              {"trials_auto", auto_json(c)},
              {"trials_succeeded", stats.trials_succeeded},
              {"trials_flagged", stats.trials_flagged},
              {"trials_disturbed", stats.trials_disturbed},
              {"disturbances", disturbance_json(stats.disturbances)},
              {"trial_outcomes", trial_outcomes},
              {"wall_time", results::to_json(stats.wall_time)},
              {"metrics", std::move(metrics)},
              {"trials", std::move(trials)},
              {"warmups", std::move(warmups)}};
  if (!c.main_metric.empty()) out["main_metric"] = c.main_metric;
  return out;
}

json comparisons_json(const results::Run& run) {
  json out = json::array();
  for (const auto& r : results::evaluate_comparisons(run)) {
    out.push_back(
        {{"name", r.spec->name},
         {"ours", {{"method", r.spec->ours_case}, {"metric", r.spec->ours_metric}, {"median", optional_json(r.ours)}}},
         {"theirs",
          {{"method", r.spec->theirs_case}, {"metric", r.spec->theirs_metric}, {"median", optional_json(r.theirs)}}},
         {"ratio", optional_json(r.ratio)},
         {"goal", optional_json(r.spec->goal)},
         {"goal_met", r.goal_met ? json(*r.goal_met) : json(nullptr)}});
  }
  return out;
}

json system_brief(const results::RunInfo& info) {
  const auto& s = info.system;
  return {{"cpu_model", info.system_info.value("cpu_model", "")},
          {"logical_cpu_count", info.system_info.value("logical_cpu_count", 0)},
          {"effective_vcpus", s.value("effective_vcpus", 0.0)},
          {"memory_total_bytes", s.value("memory_total_bytes", std::uint64_t{0})},
          {"cloud", s.value("cloud", json::object()).value("vendor", "")},
          {"instance_type", info.instance_type},
          {"platform_name", info.platform_name},
          {"system_name", info.system_name}};
}

// How many trials were disturbed, and what to do about it (docs/monitoring.md, "Flags").
json disturbed_json(const results::Run& run) {
  const results::RunDisturbances d = results::run_disturbances(run);
  return {{"trials", d.trials},
          {"disturbed", d.disturbed},
          {"flags", disturbance_json(d.flags)},
          {"advice", d.disturbed > 0 ? json(results::kDisturbanceAdvice) : json(nullptr)}};
}

class SummaryJsonReporter : public Reporter {
 public:
  explicit SummaryJsonReporter(std::filesystem::path run_dir) : run_dir_(std::move(run_dir)) {}
  void checkpoint(const results::Run& run) override { write(run); }
  void run_finished(const results::Run& run) override { write(run); }

 private:
  void write(const results::Run& run) const {
    files::write_atomically(run_dir_ / "summary.json", dump_json(summary_json(run), 2) + "\n");
  }

  std::filesystem::path run_dir_;
};

}  // namespace

nlohmann::json summary_json(const results::Run& run) {
  json cases = json::array();
  std::map<std::string, int> totals;
  for (const auto& c : run.cases) {
    if (c.trials.empty() && c.warmups.empty()) continue;  // not reached (yet, or before an interrupt)
    cases.push_back(case_json(c, totals));
  }
  return {{"schema_version", results::kSchemaVersion},
          {"execution_id", run.info.execution_id},
          {"execution_timestamp", run.info.execution_timestamp},
          {"execution_label", run.info.execution_label},
          {"status", run.status},
          {"source", results::source_info_to_json(run.info.source)},
          {"output_dir", run.info.output_dir},
          {"system", system_brief(run.info)},
          {"method_outcomes", totals},
          {"disturbed_trials", disturbed_json(run)},
          {"methods", std::move(cases)},
          {"comparisons", comparisons_json(run)}};
}

std::unique_ptr<Reporter> make_summary_json_reporter(const std::filesystem::path& run_dir) {
  return std::make_unique<SummaryJsonReporter>(run_dir);
}

}  // namespace perfzero::run_outputs
