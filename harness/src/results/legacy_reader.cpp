// Readers for what earlier versions wrote (summary.json of schema 1.0.0, whose per-trial entries
// carry no metrics, so each trial's perfzero_summary.json is read too) and for a lone report.
#include <fmt/format.h>

#include "common/files.hpp"
#include "results/model_json.hpp"
#include "results/reader.hpp"

namespace perfzero::results::detail {

namespace {

using nlohmann::json;

json parse_file(const std::filesystem::path& path) {
  // One buffer per reading thread: a report reads thousands of files, and a fresh allocation per
  // file showed up as a tenth of its time (malloc consolidating the previous file's freed nodes).
  thread_local std::string text;
  if (!files::read_text_into(path, text)) throw ReadError(fmt::format("{}: missing or unreadable", path.string()));
  auto doc = json::parse(text, nullptr, false);
  if (!doc.is_object()) throw ReadError(fmt::format("{}: not a JSON object", path.string()));
  return doc;
}

// Moves the member out (the big system objects are not copied per file); `fallback` when absent.
json take(json& object, const char* key, json fallback = json::object()) {
  const auto it = object.find(key);
  return it == object.end() ? std::move(fallback) : std::move(*it);
}

// Consumes the report's large objects: call it last, after everything else is read from `r`.
RunInfo run_info_from_report(json& r) {
  RunInfo i;
  i.schema_version = r.value("schema_version", "1.0.0");
  i.execution_id = r.value("execution_id", "");
  i.execution_timestamp = r.value("execution_timestamp", 0.0);
  i.setup_info = take(r, "setup_info");
  json info = take(r, "benchmark_info");
  if (!info.is_object()) info = json::object();
  i.execution_label = info.value("execution_label", "");
  i.env_vars = take(info, "env_vars");
  i.flags = take(info, "flags");
  i.harness_info = take(info, "harness_info");
  i.system_info = take(r, "system_info");
  if (i.system_info.is_object()) {
    i.platform_name = i.system_info.value("platform_name", "");
    i.system_name = i.system_info.value("system_name", "");
  }
  i.ml_framework_build_label = r.value("ml_framework_info", json::object()).value("build_label", "");
  json ours = take(r, "perfzero_cpp");
  if (!ours.is_object()) ours = json::object();
  i.system = take(ours, "system");
  if (i.system.is_object()) i.instance_type = i.system.value("cloud", json::object()).value("instance_type", "");
  const auto& run = ours.value("run", json::object());
  i.output_dir = run.value("output_dir", "");
  i.suite_files = run.value("suite_files", std::vector<std::string>{});
  i.harness_version = run.value("harness_version", "");
  return i;
}

// Metrics, process info and the rest of a trial, as its report has them.
void fill_trial_from_report(const json& r, Trial& t) {
  const auto& result = r.at("benchmark_result");
  const auto& ours = r.at("perfzero_cpp");
  const auto& units = ours.value("metric_units", json::object());
  const auto& directions = ours.value("metric_directions", json::object());
  t.metrics.clear();
  for (const auto& m : result.value("metrics", json::array())) {
    MetricValue v;
    v.name = m.at("name").get<std::string>();
    v.value = m.at("value").get<double>();
    v.unit = units.value(v.name, "");
    if (m.contains("min_value")) v.min_value = m["min_value"].get<double>();
    if (m.contains("max_value")) v.max_value = m["max_value"].get<double>();
    if (const auto d = directions.find(v.name); d != directions.end() && d->is_string()) {
      v.direction = direction_from_string(d->get<std::string>()).value_or(Direction::unspecified);
    }
    t.metrics.push_back(std::move(v));
  }
  t.extras = result.value("extras", json::object());
  t.ml_framework_info = r.value("ml_framework_info", json());
  t.has_exception = r.value("benchmark_info", json::object()).value("has_exception", false);
  const auto& process = r.value("process_info", json::object());
  t.process.max_rss = process.value("max_rss", std::uint64_t{0});
  t.process.max_vms = process.value("max_vms", std::uint64_t{0});
  t.process.max_cpu_percent = process.value("max_cpu_percent", 0.0);
  t.process.detail = ours.value("process", json::object());
  t.samplers = ours.value("samplers", json::object());
  t.flags = ours.value("flags", std::vector<std::string>{});
  t.repetitions = ours.value("repetitions", json::array());
  t.ranks = ours.value("ranks", json());  // a multi-rank method's ranks and hosts (schema 1.5.0)
  if (ours.contains("exit_code") && ours["exit_code"].is_number_integer()) t.exit_code = ours["exit_code"].get<int>();
  if (ours.contains("signal") && ours["signal"].is_string()) t.signal = ours["signal"].get<std::string>();
  const auto& timing = ours.value("timing", json::object());
  if (timing.contains("child_self_wall_time") && timing["child_self_wall_time"].is_number()) {
    t.self_wall_time = timing["child_self_wall_time"].get<double>();
  }
  t.harness_seconds = timing.value("harness_trial_time", 0.0);
  t.started_offset = timing.value("started_offset", 0.0);
}

Case case_from_summary_entry(const json& m) {
  Case c;
  c.name = m.at("name").get<std::string>();
  c.method = m.value("method", c.name);
  c.params = m.value("params", json::object());
  c.trials_planned = m.value("trials_planned", 0);
  c.main_metric = m.value("main_metric", "");
  return c;
}

Trial trial_from_summary_entry(const json& t, bool warmup) {
  Trial trial;
  trial.number = t.at("trial").get<int>();
  trial.warmup = warmup;
  const auto outcome = outcome_from_string(t.at("outcome").get<std::string>());
  trial.outcome = outcome.value_or(Outcome::invalid);
  trial.detail = t.value("detail", "");
  trial.wall_time = t.value("wall_time", 0.0);
  if (t.contains("report") && t["report"].is_string()) trial.report = t["report"].get<std::string>();
  trial.resumed = t.value("resumed", false);
  return trial;
}

}  // namespace

LoadedRun read_legacy_run(const std::filesystem::path& dir) {
  LoadedRun loaded;
  loaded.format = "summary-1.0";
  const auto summary_path = dir / "summary.json";
  const json summary = parse_file(summary_path);
  check_schema_version(summary.value("schema_version", std::string("unknown")), summary_path);
  Run& run = loaded.run;
  try {
    run.status = summary.value("status", "running");
    run.info.schema_version = summary.value("schema_version", "1.0.0");
    run.info.execution_id = summary.value("execution_id", "");
    run.info.execution_timestamp = summary.value("execution_timestamp", 0.0);
    run.info.execution_label = summary.value("execution_label", "");
    bool info_from_report = false;
    for (const auto& m : summary.at("methods")) {
      Case c = case_from_summary_entry(m);
      for (const auto& [key, warmup] : {std::pair{"trials", false}, std::pair{"warmups", true}}) {
        for (const auto& entry : m.value(key, json::array())) {
          Trial t = trial_from_summary_entry(entry, warmup);
          if (warmup) t.report.clear();  // 1.0.0 named a report for warm-ups but never wrote one
          if (!t.report.empty()) {
            try {
              json report = parse_file(dir / t.report);
              fill_trial_from_report(report, t);
              set_method_type(c, report.at("perfzero_cpp").value("method_type", "builtin"));
              c.main_metric = report.at("perfzero_cpp").value("main_metric", c.main_metric);
              if (!info_from_report) run.info = run_info_from_report(report);
              info_from_report = true;
            } catch (const std::exception& e) {
              loaded.warnings.push_back(fmt::format("{}: trial {}: {}", c.name, t.number, e.what()));
            }
          }
          (warmup ? c.warmups : c.trials).push_back(std::move(t));
        }
      }
      run.cases.push_back(std::move(c));
    }
    for (const auto& c : summary.value("comparisons", json::array()))
      run.comparisons.push_back(comparison_spec_from_json(c));
  } catch (const json::exception& e) {
    throw ReadError(fmt::format("{}: {}", summary_path.string(), e.what()));
  }
  return loaded;
}

LoadedRun read_single_report(const std::filesystem::path& file) {
  json report = parse_file(file);
  check_schema_version(report.value("schema_version", std::string("unknown")), file);
  LoadedRun loaded;
  loaded.format = "report";
  try {
    loaded.run.status = "completed";
    const auto& ours = report.at("perfzero_cpp");
    Case c;
    c.name = report.at("benchmark_result").at("name").get<std::string>();
    c.method = ours.value("method", c.name);
    c.params = ours.value("params", json::object());
    c.python = ours.value("python", json());
    c.main_metric = ours.value("main_metric", "");
    set_method_type(c, ours.value("method_type", "builtin"));
    c.trials_planned = ours.value("trials_planned", 1);
    c.launch = ours.value("launch", json());
    Trial t;
    t.number = report.at("benchmark_result").value("trial_id", 1);
    t.outcome = outcome_from_string(ours.at("outcome").get<std::string>()).value_or(Outcome::invalid);
    t.detail = ours.value("outcome_detail", "");
    t.wall_time = report.at("benchmark_result").at("wall_time").get<double>();
    t.report = file.filename().string();
    fill_trial_from_report(report, t);
    c.trials.push_back(std::move(t));
    loaded.run.cases.push_back(std::move(c));
    loaded.run.info = run_info_from_report(report);
  } catch (const json::exception& e) {
    throw ReadError(fmt::format("{}: not a perfzero_summary.json report: {}", file.string(), e.what()));
  }
  return loaded;
}

}  // namespace perfzero::results::detail
