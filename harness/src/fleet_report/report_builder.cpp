#include "fleet_report/report_builder.hpp"

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "fleet_report/clusters.hpp"
#include "fleet_report/configuration.hpp"
#include "fleet_report/report_figures.hpp"
#include "fleet_report/shape_check.hpp"

namespace perfzero::fleet_report {

std::size_t ReportBuilder::config_index(const results::Run& run, int nodes, const results::Case* c) {
  Configuration identified = identify(run.info);
  identified.run_vcpus = vcpus_of_run(run.info);
  const ConfigId id{identified.provider, identified.shape, identified.label, nodes, identified.run_vcpus};
  auto [it, inserted] = config_ids_.emplace(id, configs_.size());
  if (inserted) {
    identified.nodes = nodes;
    identified.system = machine_of(run.info);
    configs_.push_back(std::move(identified));
  }
  Configuration& config = configs_[it->second];
  if (config.hosts.empty() && nodes > 1 && c != nullptr) config.hosts = hosts_of(*c);
  return it->second;
}

void ReportBuilder::add_run(const std::string& path, const results::Run& run, std::vector<InstanceLife> instances) {
  ++runs_;
  // A run whose methods ran at several node counts feeds one configuration per count.
  std::set<std::size_t> fed;
  for (const auto& c : run.cases) {
    if (c.trials.empty()) continue;
    const std::size_t config = config_index(run, nodes_of(c), &c);
    fed.insert(config);
    const std::string name = method_name_of(c.name);
    auto [per_config, inserted] = trials_.try_emplace(name);
    if (inserted) method_order_.push_back(name);
    auto& cell = per_config->second[config];
    if (cell.trials.main_metric.empty()) cell.trials.main_metric = c.main_metric;
    auto& kept = cell.trials.trials;
    for (const auto& t : c.trials) {
      results::Trial slim;
      slim.number = t.number;
      slim.outcome = t.outcome;
      slim.detail = t.detail;
      slim.wall_time = t.wall_time;
      slim.metrics = t.metrics;
      slim.flags = t.flags;  // a disturbed trial is left out of the figures
      kept.push_back(std::move(slim));
      cell.run_of.push_back(runs_);
      ++trial_count_;
    }
  }
  if (fed.empty()) fed.insert(config_index(run, 1, nullptr));  // a run with no trial still names its machine
  for (const std::size_t config : fed) {
    configs_[config].runs.push_back(path);
    note_measured(configs_[config], run.info);
  }
  if (!instances.empty()) {
    InstanceRun spans = instance_run_of(run, std::move(instances));
    spans.config = *std::max_element(
        fed.begin(), fed.end(), [&](std::size_t a, std::size_t b) { return configs_[a].nodes < configs_[b].nodes; });
    instance_runs_.push_back(std::move(spans));
  }
}

namespace {

// A --metric no trial reports as a rate is a typo more often than not: say so rather than rank silently.
void warn_unreported_metrics(FleetReport& report, const std::set<std::string>& rates) {
  for (const auto& wanted : report.settings.metrics) {
    if (rates.count(wanted) == 0) {
      report.warnings.push_back(fmt::format(
          "--metric {}: no method reports it as a rate (unit <work>/s); each is ranked by its main metric", wanted));
    }
  }
}

// A suite's main_metric that the method does not report as a rate cannot rank it: say by what it was
// ranked instead (--metric, which wins, is warned about above).
void warn_undeclared_main_metric(FleetReport& report, const MethodRow& row, const std::vector<CellTrials>& runs) {
  if (!report.settings.metrics.empty()) return;
  std::set<std::string> declared;
  for (const auto& in : runs) {
    if (!in.trials->main_metric.empty()) declared.insert(in.trials->main_metric);
  }
  for (const auto& name : declared) {
    if (row.metric && row.metric->name == name) continue;
    report.warnings.push_back(
        fmt::format("{}: main_metric {} (from its suite) is not reported as a rate (unit "
                    "<work>/s); ranked by {}",
                    row.name, name, row.metric ? row.metric->name : "wall time"));
  }
}

}  // namespace

std::set<std::string> ReportBuilder::rates_reported() const {
  std::set<std::string> rates;
  for (const auto& [method, per_config] : trials_) {
    for (const auto& [config, kept] : per_config) {
      for (const auto& t : kept.trials.trials) {
        for (const auto& m : t.metrics) {
          if (m.unit.size() > 2 && m.unit.ends_with("/s")) rates.insert(m.name);
        }
      }
    }
  }
  return rates;
}

FleetReport ReportBuilder::finish(std::vector<std::string> problems) {
  FleetReport report;
  report.warnings = std::move(problems);
  report.generated_on = options_.today;
  report.catalog_file = options_.catalog != nullptr ? options_.catalog->file : "";
  report.runs_read = runs_;
  report.trials_read = trial_count_;
  // Configurations are sorted by name for every output; trials_ still holds the old indexes.
  std::vector<std::size_t> order(configs_.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  mark_cpu_splits(configs_);
  name_configurations(configs_, order);
  std::vector<std::size_t> position(order.size());
  for (std::size_t i = 0; i < order.size(); ++i) position[order[i]] = i;
  for (auto& c : configs_) price(c, options_.catalog, options_.today);
  report.configurations = std::move(configs_);
  report.baseline = find_baseline(report.configurations, options_.baseline, report.warnings);
  report.settings = options_.ranking;
  for (const auto& name : method_order_) {
    std::vector<CellTrials> runs;
    for (const auto& [config, kept] : trials_[name]) runs.push_back({position[config], &kept.trials, &kept.run_of});
    report.methods.push_back(build_method_row(name, runs, report.configurations, report.baseline, report.settings));
    warn_undeclared_main_metric(report, report.methods.back(), runs);
  }
  if (!report.settings.metrics.empty()) warn_unreported_metrics(report, rates_reported());
  for (auto& r : instance_runs_) r.config = position[r.config];
  add_experiment_costs(report, instance_runs_, options_.catalog);
  add_split_warnings(report);
  add_price_warnings(report, options_.max_price_age_days);
  return report;
}

}  // namespace perfzero::fleet_report
