#include <cmath>

#include "fleet_report/report_writers.hpp"
#include "fleet_report/scaling.hpp"

namespace perfzero::fleet_report {

namespace {

using nlohmann::json;

json optional_number(const std::optional<double>& v) { return v && std::isfinite(*v) ? json(*v) : json(nullptr); }

json stats_json(const results::Stats& s) {
  return {{"count", s.count},
          {"median", optional_number(s.median)},
          {"mean", optional_number(s.mean)},
          {"min", optional_number(s.min)},
          {"max", optional_number(s.max)},
          {"p25", optional_number(s.p25)},
          {"p75", optional_number(s.p75)},
          {"cv", optional_number(s.cv)}};
}

json experiment_json(const std::optional<ExperimentCost>& e) {
  if (!e) return nullptr;
  return {{"runs", e->runs},
          {"instances", e->instances},
          {"preempted", e->preempted},
          {"capacity", e->capacity},
          {"instance_seconds", e->instance_seconds},
          {"billed_seconds", e->billed_seconds},
          {"before_first_trial_seconds", optional_number(e->before_first_trial_seconds)},
          {"trials_seconds", optional_number(e->trials_seconds)},
          {"usd", optional_number(e->usd)},
          {"usd_on_demand", optional_number(e->usd_on_demand)},
          {"usd_spot", optional_number(e->usd_spot)},
          {"billing", e->billing},
          {"notes", e->notes}};
}

json experiment_total_json(const std::optional<ExperimentTotal>& t) {
  if (!t) return nullptr;
  return {{"configurations", t->configurations},
          {"instances", t->instances},
          {"billed_seconds", t->billed_seconds},
          {"usd", optional_number(t->usd)},
          {"usd_on_demand", optional_number(t->usd_on_demand)},
          {"usd_spot", optional_number(t->usd_spot)},
          {"left_out", t->left_out}};
}

json configuration_json(const Configuration& c) {
  const auto& p = c.pricing;
  return {{"key", c.key},
          {"provider", c.provider},
          {"shape", c.shape},
          {"label", c.label},
          {"arch", c.arch},
          {"nodes", c.nodes},
          {"vcpus", c.vcpus},
          {"ocpus", c.ocpus},
          {"cpu_source", c.cpu_source},
          {"price",
           {{"usd_per_hour", optional_number(p.usd_per_hour)},
            {"usd_per_host_hour", optional_number(p.usd_per_host_hour)},
            {"unpriced_reason", p.unpriced_reason},
            {"how", p.how},
            {"source", p.source},
            {"date", p.date},
            {"age_days", p.age_days ? json(*p.age_days) : json(nullptr)},
            {"catalog_entry", p.catalog_entry},
            {"spot_usd_per_host_hour", optional_number(p.spot_usd_per_host_hour)},
            {"spot_how", p.spot_how}}},
          {"runs", c.runs},
          {"measured", {{"vcpus", c.measured_vcpus}, {"memory_gib", c.measured_memory_gib}, {"gpus", c.measured_gpus}}},
          {"shape_mismatches", c.shape_mismatches},
          {"system", c.system},
          {"hosts", c.hosts},
          {"experiment", experiment_json(c.experiment)}};
}

json ratio_json(const std::optional<Ratio>& r) {
  if (!r) return nullptr;
  return {{"value", optional_number(r->value)},
          {"low", optional_number(r->low)},
          {"high", optional_number(r->high)},
          {"tie", r->tie},
          {"run_noise", r->run_noise}};
}

json ranking_json(const Ranking& r, const std::vector<Configuration>& configs, const std::string& summary) {
  auto key_of = [&](const std::optional<std::size_t>& i) { return i ? json(configs[*i].key) : json(nullptr); };
  return {{"leader", key_of(r.leader)},   {"decided", r.decided},       {"against", key_of(r.against)},
          {"ratio", ratio_json(r.ratio)}, {"contenders", r.contenders}, {"summary", summary}};
}

json disturbances_json(const Cell& cell) {
  json out = json::object();
  for (const auto& [flag, count] : cell.disturbances) out[flag] = count;
  return out;
}

json cell_json(const Cell& cell, const Configuration& config, const std::string& baseline) {
  return {{"configuration", config.key},
          {"status", cell.trials == 0 ? "not run"
                     : cell.ok()      ? "ok"
                                      : "not succeeded"},
          {"outcome", cell.trials == 0 ? json(nullptr) : json(std::string(to_string(cell.outcome)))},
          {"detail", cell.detail},
          {"trials", cell.trials},
          {"succeeded", cell.succeeded},
          {"wall_time_s", stats_json(cell.wall)},
          {"wall_times_s", cell.wall_times},
          {"main_metric", stats_json(cell.metric)},
          {"main_metric_values", cell.metric_values},
          {"cost_per_run_usd", optional_number(cell.cost_per_run)},
          {"cost_per_unit_usd", optional_number(cell.cost_per_unit)},
          {"units_per_usd", optional_number(cell.units_per_usd)},
          {"per_vcpu", optional_number(cell.per_vcpu)},
          {"per_ocpu", optional_number(cell.per_ocpu)},
          {"speedup", cell.speedup ? json(cell.speedup->value) : json(nullptr)},
          {"speedup_interval", cell.speedup && cell.speedup->low && cell.speedup->high
                                   ? json{{"low", *cell.speedup->low}, {"high", *cell.speedup->high}}
                                   : json(nullptr)},
          {"speedup_tie", cell.speedup && config.key != baseline ? json(cell.speedup->tie) : json(nullptr)},
          {"trials_left_out", cell.left_out},
          {"trials_flagged_kept", cell.flagged_kept},
          {"disturbances", disturbances_json(cell)}};
}

json scaling_json(const Scaling& s, const std::vector<Configuration>& configs) {
  json points = json::array();
  for (const auto& p : s.points) {
    points.push_back({{"configuration", configs[p.config].key},
                      {"nodes", p.nodes},
                      {"throughput", optional_number(p.throughput)},
                      {"speedup", optional_number(p.speedup)},
                      {"efficiency", optional_number(p.efficiency)},
                      {"cost_per_unit_usd", optional_number(p.cost_per_unit)},
                      {"cost_per_run_usd", optional_number(p.cost_per_run)}});
  }
  return {{"shape", s.name},
          {"throughput_unit", s.unit},
          {"relative_to_nodes", s.base_nodes},
          {"efficiency_formula", efficiency_formula(s)},
          {"points", points}};
}

json method_json(const MethodRow& row, const FleetReport& report) {
  const auto& configs = report.configurations;
  json cells = json::array();
  for (std::size_t i = 0; i < configs.size(); ++i)
    cells.push_back(cell_json(row.cells[i], configs[i], report.baseline));
  json metric = nullptr;
  if (row.metric) {
    metric = {{"name", row.metric->name},
              {"unit", row.metric->unit},
              {"work_unit", row.metric->work_unit},
              {"cost_per", row.metric->per},
              {"scale", row.metric->scale}};
  }
  json scaling = json::array();
  for (const auto& s : row.scaling) scaling.push_back(scaling_json(s, configs));
  auto key_of = [&](const std::optional<std::size_t>& i) { return i ? json(configs[*i].key) : json(nullptr); };
  return {{"name", row.name},
          {"main_metric", metric},
          {"cost_per_run_quoted_per", row.runs_per},
          {"run_scale", row.run_scale},
          {"run_noise",
           {{"fraction", row.run_noise.fraction},
            {"source", row.run_noise.source},
            {"measured_from", row.run_noise.measured_from},
            {"history_pairs", row.run_noise.history_pairs},
            {"single_run", row.run_noise.single_run}}},
          {"fastest", key_of(row.fastest)},
          {"cheapest", key_of(row.cheapest)},
          {"fastest_ranking", ranking_json(row.speed, configs, fastest_summary(row, report))},
          {"cheapest_ranking", ranking_json(row.cost, configs, cheapest_summary(row, report))},
          {"cells", cells},
          {"scaling", scaling}};
}

}  // namespace

nlohmann::json to_json(const FleetReport& report) {
  json configs = json::array();
  for (const auto& c : report.configurations) configs.push_back(configuration_json(c));
  json methods = json::array();
  for (const auto& m : report.methods) methods.push_back(method_json(m, report));
  const auto& s = report.settings;
  return {{"report_schema_version", kReportSchemaVersion},
          {"generated_on", report.generated_on},
          {"inputs", report.inputs},
          {"catalog", report.catalog_file},
          {"baseline", report.baseline},
          {"runs_read", report.runs_read},
          {"trials_read", report.trials_read},
          {"settings",
           {{"min_change", s.min_change},
            {"confidence", s.confidence},
            {"resamples", s.resamples},
            {"seed", s.seed},
            {"min_trials", s.min_trials},
            {"use_flagged", s.use_flagged}}},
          {"warnings", report.warnings},
          {"configurations", configs},
          {"experiment_total", experiment_total_json(report.experiment_total)},
          {"methods", methods}};
}

}  // namespace perfzero::fleet_report
