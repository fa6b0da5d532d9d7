#include "fleet_report/report_builder.hpp"

#include <fmt/format.h>

#include "fleet_report/configuration.hpp"
#include "fleet_report/report_figures.hpp"
#include "fleet_report/shape_check.hpp"

namespace perfzero::fleet_report {

std::size_t ReportBuilder::config_index(const std::string& path, const results::Run& run) {
  Configuration identified = identify(run.info);
  const ConfigId id{identified.provider, identified.shape, identified.label};
  auto [it, inserted] = config_ids_.emplace(id, configs_.size());
  if (inserted) {
    identified.system = machine_of(run.info);
    configs_.push_back(std::move(identified));
  }
  configs_[it->second].runs.push_back(path);
  note_measured(configs_[it->second], run.info);
  return it->second;
}

void ReportBuilder::add_run(const std::string& path, const results::Run& run) {
  const std::size_t config = config_index(path, run);
  ++runs_;
  for (const auto& c : run.cases) {
    if (c.trials.empty()) continue;
    auto [per_config, inserted] = trials_.try_emplace(c.name);
    if (inserted) method_order_.push_back(c.name);
    auto& kept = per_config->second[config].trials;
    for (const auto& t : c.trials) {
      results::Trial slim;
      slim.number = t.number;
      slim.outcome = t.outcome;
      slim.detail = t.detail;
      slim.wall_time = t.wall_time;
      slim.metrics = t.metrics;
      slim.flags = t.flags;  // a disturbed trial is left out of the figures
      kept.push_back(std::move(slim));
      ++trial_count_;
    }
  }
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
  name_configurations(configs_, order);
  std::vector<std::size_t> position(order.size());
  for (std::size_t i = 0; i < order.size(); ++i) position[order[i]] = i;
  for (auto& c : configs_) price(c, options_.catalog, options_.today);
  report.configurations = std::move(configs_);
  report.baseline = find_baseline(report.configurations, options_.baseline, report.warnings);
  report.settings = options_.ranking;
  for (const auto& name : method_order_) {
    std::vector<std::pair<std::size_t, const results::Case*>> runs;
    for (const auto& [config, kept] : trials_[name]) runs.emplace_back(position[config], &kept);
    report.methods.push_back(build_method_row(name, runs, report.configurations, report.baseline, report.settings));
  }
  add_price_warnings(report, options_.max_price_age_days);
  return report;
}

}  // namespace perfzero::fleet_report
