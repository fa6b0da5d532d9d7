#include "report/run_summary.hpp"

#include <fmt/format.h>

#include <map>

#include "common/files.hpp"
#include "report/stats.hpp"
#include "report/trial_report.hpp"

namespace perfzero::report {

TrialSummary summarize_trial(const TrialRecord& record, const std::filesystem::path& output_dir) {
  TrialSummary s;
  s.trial = record.trial;
  s.outcome = record.classification.outcome;
  s.detail = record.classification.detail;
  s.wall_time = record.execution.wall_seconds;
  if (const auto* child = std::get_if<runner::ChildResult>(&record.result)) {
    for (const auto& m : child->metrics) s.metrics.push_back({m.name, m.value, m.unit});
  }
  if (s.outcome != Outcome::interrupted) {
    s.report = std::filesystem::relative(record.dir / kReportFile, output_dir).string();
  }
  return s;
}

std::optional<TrialSummary> summary_from_report(const nlohmann::json& report) {
  try {
    TrialSummary s;
    const auto& ours = report.at("perfzero_cpp");
    const auto outcome = outcome_from_string(ours.at("outcome").get<std::string>());
    if (!outcome) return std::nullopt;
    s.outcome = *outcome;
    s.detail = ours.value("outcome_detail", "");
    s.trial = report.at("benchmark_result").at("trial_id").get<int>();
    s.wall_time = report.at("benchmark_result").at("wall_time").get<double>();
    const auto& units = ours.value("metric_units", nlohmann::json::object());
    for (const auto& m : report.at("benchmark_result").at("metrics")) {
      const std::string name = m.at("name").get<std::string>();
      s.metrics.push_back({name, m.at("value").get<double>(), units.value(name, "")});
    }
    s.resumed = true;
    return s;
  } catch (const nlohmann::json::exception&) {
    return std::nullopt;
  }
}

Outcome case_outcome(const CaseSummary& c) {
  // Ordered from best to worst.
  static const std::vector<Outcome> order{Outcome::succeeded, Outcome::skipped,   Outcome::interrupted, Outcome::failed,
                                          Outcome::invalid,   Outcome::timed_out, Outcome::crashed};
  std::size_t worst = 0;
  for (const auto& t : c.trials) {
    const auto at = static_cast<std::size_t>(std::find(order.begin(), order.end(), t.outcome) - order.begin());
    worst = std::max(worst, at);
  }
  if (c.trials.empty()) return Outcome::interrupted;
  return order[worst];
}

namespace {

struct CaseStats {
  Stats wall;
  std::vector<std::tuple<std::string, std::string, Stats>> metrics;  // name, unit, stats (in first-seen order)
};

// Statistics use succeeded trials only: a crash's wall time or a failed run's metric would distort them.
CaseStats case_stats(const CaseSummary& c) {
  CaseStats out;
  std::vector<double> walls;
  std::vector<std::string> order;
  std::map<std::string, std::pair<std::string, std::vector<double>>> values;
  for (const auto& t : c.trials) {
    if (t.outcome != Outcome::succeeded) continue;
    walls.push_back(t.wall_time);
    for (const auto& m : t.metrics) {
      if (values.find(m.name) == values.end()) order.push_back(m.name);
      auto& slot = values[m.name];
      slot.first = m.unit;
      slot.second.push_back(m.value);
    }
  }
  out.wall = compute_stats(walls);
  for (const auto& name : order) out.metrics.emplace_back(name, values[name].first, compute_stats(values[name].second));
  return out;
}

std::map<std::string, int> outcome_counts(const std::vector<TrialSummary>& trials) {
  std::map<std::string, int> counts;
  for (const auto& t : trials) counts[std::string(to_string(t.outcome))] += 1;
  return counts;
}

nlohmann::json trial_json(const TrialSummary& t) {
  return {{"trial", t.trial},
          {"outcome", to_string(t.outcome)},
          {"detail", t.detail},
          {"wall_time", t.wall_time},
          {"report", t.report.empty() ? nlohmann::json(nullptr) : nlohmann::json(t.report)},
          {"resumed", t.resumed}};
}

std::string csv_field(const std::string& value) {
  if (value.find_first_of(",\"\n") == std::string::npos) return value;
  std::string out = "\"";
  for (char c : value) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string md_cell(const std::string& value) {
  std::string out;
  for (char c : value) {
    if (c == '|')
      out += "\\|";
    else if (c == '\n')
      out += ' ';
    else
      out += c;
  }
  return out;
}

std::string number(double v) { return fmt::format("{:.6g}", v); }

const CaseSummary* find_case(const std::vector<CaseSummary>& cases, const std::string& name) {
  for (const auto& c : cases) {
    if (c.name == name) return &c;
  }
  return nullptr;
}

std::optional<double> median_of(const std::vector<CaseSummary>& cases, const std::string& name,
                                const std::string& metric) {
  const CaseSummary* c = find_case(cases, name);
  if (c == nullptr) return std::nullopt;
  const CaseStats stats = case_stats(*c);
  for (const auto& [metric_name, unit, s] : stats.metrics) {
    if (metric_name == metric && s.count > 0) return s.median;
  }
  return std::nullopt;
}

struct ComparisonResult {
  const config::Comparison* spec;
  std::optional<double> ours;
  std::optional<double> theirs;
  std::optional<double> ratio;
};

std::vector<ComparisonResult> compare(const RunContext& run, const std::vector<CaseSummary>& cases) {
  std::vector<ComparisonResult> out;
  for (const auto& c : run.comparisons) {
    ComparisonResult r{&c, median_of(cases, c.ours_case, c.ours_metric),
                       median_of(cases, c.theirs_case, c.theirs_metric), std::nullopt};
    if (r.ours && r.theirs && *r.theirs != 0) r.ratio = *r.ours / *r.theirs;
    out.push_back(r);
  }
  return out;
}

}  // namespace

nlohmann::json comparisons_json(const RunContext& run, const std::vector<CaseSummary>& cases) {
  nlohmann::json out = nlohmann::json::array();
  auto opt = [](const std::optional<double>& v) { return v ? nlohmann::json(*v) : nlohmann::json(nullptr); };
  for (const auto& r : compare(run, cases)) {
    nlohmann::json goal_met = nullptr;
    if (r.spec->goal && r.ratio) goal_met = *r.ratio >= *r.spec->goal;
    out.push_back(
        {{"name", r.spec->name},
         {"ours", {{"method", r.spec->ours_case}, {"metric", r.spec->ours_metric}, {"median", opt(r.ours)}}},
         {"theirs", {{"method", r.spec->theirs_case}, {"metric", r.spec->theirs_metric}, {"median", opt(r.theirs)}}},
         {"ratio", opt(r.ratio)},
         {"goal", opt(r.spec->goal)},
         {"goal_met", goal_met}});
  }
  return out;
}

nlohmann::json summary_json(const RunContext& run, const std::vector<CaseSummary>& cases, const std::string& status) {
  nlohmann::json methods = nlohmann::json::array();
  std::map<std::string, int> totals;
  for (const auto& c : cases) {
    const CaseStats stats = case_stats(c);
    nlohmann::json metrics = nlohmann::json::object();
    for (const auto& [name, unit, s] : stats.metrics) {
      auto j = to_json(s);
      j["unit"] = unit;
      metrics[name] = j;
    }
    nlohmann::json trials = nlohmann::json::array();
    for (const auto& t : c.trials) trials.push_back(trial_json(t));
    nlohmann::json warmups = nlohmann::json::array();
    for (const auto& t : c.warmups) warmups.push_back(trial_json(t));
    const Outcome outcome = case_outcome(c);
    totals[std::string(to_string(outcome))] += 1;
    methods.push_back({{"name", c.name},
                       {"method", c.method},
                       {"params", c.params},
                       {"outcome", to_string(outcome)},
                       {"trials_planned", c.trials_planned},
                       {"trials_run", c.trials.size()},
                       {"trial_outcomes", outcome_counts(c.trials)},
                       {"wall_time", to_json(stats.wall)},
                       {"metrics", metrics},
                       {"trials", trials},
                       {"warmups", warmups}});
  }
  return {{"schema_version", kSchemaVersion},
          {"execution_id", run.execution_id},
          {"execution_timestamp", run.execution_timestamp},
          {"execution_label", run.execution_label},
          {"status", status},
          {"output_dir", run.output_dir.string()},
          {"system",
           {{"cpu_model", run.system.cpu.model},
            {"logical_cpu_count", run.system.cpu.logical_cpus},
            {"effective_vcpus", run.system.effective_vcpus},
            {"memory_total_bytes", run.system.memory_total_bytes},
            {"cloud", run.system.cloud.vendor},
            {"instance_type", run.instance_type},
            {"platform_name", run.platform_name},
            {"system_name", run.system_name}}},
          {"method_outcomes", totals},
          {"methods", methods},
          {"comparisons", comparisons_json(run, cases)}};
}

std::string summary_csv(const std::vector<CaseSummary>& cases) {
  // Long format, one row per (method, metric), so spreadsheets and dashboards can pivot it.
  std::string out = "name,method,outcome,trials_run,trials_succeeded,metric,unit,count,median,mean,stddev,min,max,cv\n";
  for (const auto& c : cases) {
    const CaseStats stats = case_stats(c);
    const std::string prefix = fmt::format("{},{},{},{},{}", csv_field(c.name), csv_field(c.method),
                                           to_string(case_outcome(c)), c.trials.size(), stats.wall.count);
    auto row = [&](const std::string& metric, const std::string& unit, const Stats& s) {
      out +=
          fmt::format("{},{},{},{},{},{},{},{},{},{}\n", prefix, csv_field(metric), csv_field(unit), s.count,
                      number(s.median), number(s.mean), number(s.stddev), number(s.min), number(s.max), number(s.cv));
    };
    row("wall_time", "s", stats.wall);
    for (const auto& [name, unit, s] : stats.metrics) row(name, unit, s);
  }
  return out;
}

std::string summary_markdown(const RunContext& run, const std::vector<CaseSummary>& cases, const std::string& status) {
  std::string out = fmt::format("# perfzero run {}\n\n", run.execution_id);
  out += fmt::format("- status: {}\n- label: {}\n- machine: {} ({} logical CPUs, {:.2f} effective vCPUs)\n", status,
                     run.execution_label.empty() ? "(none)" : run.execution_label, run.system.cpu.model,
                     run.system.cpu.logical_cpus, run.system.effective_vcpus);
  if (!run.instance_type.empty()) out += fmt::format("- instance type: {}\n", run.instance_type);
  out += "\n| method | outcome | trials | wall median (s) | wall cv | metrics (median) |\n";
  out += "|---|---|---|---|---|---|\n";
  for (const auto& c : cases) {
    const CaseStats stats = case_stats(c);
    std::vector<std::string> metrics;
    for (const auto& [name, unit, s] : stats.metrics) {
      metrics.push_back(fmt::format("{} = {} {}", name, number(s.median), unit));
    }
    std::string metric_text;
    for (std::size_t i = 0; i < metrics.size(); ++i) metric_text += (i ? "; " : "") + metrics[i];
    out += fmt::format("| {} | {} | {}/{} | {} | {} | {} |\n", md_cell(c.name), to_string(case_outcome(c)),
                       stats.wall.count, c.trials.size(), stats.wall.count ? number(stats.wall.median) : "-",
                       stats.wall.count > 1 ? fmt::format("{:.1f}%", stats.wall.cv * 100) : "-", md_cell(metric_text));
  }
  const auto comparisons = compare(run, cases);
  if (!comparisons.empty()) {
    out +=
        "\n## Comparisons (ratio of medians, ours / theirs)\n\n| comparison | ours | theirs | ratio | goal "
        "|\n|---|---|---|---|---|\n";
    for (const auto& r : comparisons) {
      auto cell = [](const std::optional<double>& v) { return v ? number(*v) : std::string("-"); };
      std::string goal = "-";
      if (r.spec->goal)
        goal = fmt::format("{} ({})", number(*r.spec->goal),
                           r.ratio ? (*r.ratio >= *r.spec->goal ? "met" : "not met") : "no data");
      out += fmt::format("| {} | {} | {} | {} | {} |\n", md_cell(r.spec->name), cell(r.ours), cell(r.theirs),
                         r.ratio ? fmt::format("{:.2f}x", *r.ratio) : "-", goal);
    }
  }
  std::vector<std::string> problems;
  for (const auto& c : cases) {
    for (const auto& t : c.trials) {
      if (!counts_as_success(t.outcome)) {
        problems.push_back(
            fmt::format("- {} trial {}: {}: {}", md_cell(c.name), t.trial, to_string(t.outcome), md_cell(t.detail)));
      }
    }
  }
  if (!problems.empty()) {
    out += "\n## Problems\n\n";
    for (const auto& p : problems) out += p + "\n";
  }
  return out;
}

void write_run_summary(const RunContext& run, const std::vector<CaseSummary>& cases, const std::string& status) {
  files::write_atomically(run.output_dir / "summary.json", summary_json(run, cases, status).dump(2) + "\n");
  files::write_atomically(run.output_dir / "summary.csv", summary_csv(cases));
  files::write_atomically(run.output_dir / "summary.md", summary_markdown(run, cases, status));
}

}  // namespace perfzero::report
