#pragma once
// Joins runs with the price catalog into the FleetReport every output formats. Runs are added one at a
// time and only their numbers are kept, so 100,000 result files fit in little memory.
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "fleet_report/experiment_cost.hpp"
#include "fleet_report/instance_timeline.hpp"
#include "fleet_report/report_figures.hpp"
#include "fleet_report/report_model.hpp"
#include "pricing/price_catalog.hpp"
#include "results/model.hpp"

namespace perfzero::fleet_report {

struct BuildOptions {
  const pricing::Catalog* catalog = nullptr;  // nullptr: every configuration unpriced
  std::string baseline;                       // a configuration key or shape; empty: none
  std::string today;                          // YYYY-MM-DD, for the age of prices
  int max_price_age_days = 365;
  RankSettings ranking;  // --min_change, --use_flagged
};

class ReportBuilder {
 public:
  explicit ReportBuilder(BuildOptions options) : options_(std::move(options)) {}

  // `instances`: the cloud instances the run used (its instances/ folder), for the experiment's cost;
  // they count towards the configuration with the most hosts among the run's.
  void add_run(const std::string& path, const results::Run& run, std::vector<InstanceLife> instances = {});
  // Computes every figure; call once, after the last run.
  FleetReport finish(std::vector<std::string> problems);

 private:
  // provider, shape, label, nodes, the vCPUs the run had: runs of one label on different CPU counts
  // are different machines, reported apart (shape_check.hpp, split_by_cpus).
  using ConfigId = std::tuple<std::string, std::string, std::string, int, double>;

  // The configuration of the run's cases on `nodes` hosts (made with `c`'s hosts when new).
  std::size_t config_index(const results::Run& run, int nodes, const results::Case* c);
  // The names of the rate metrics (unit "<work>/s") any trial reported.
  std::set<std::string> rates_reported() const;

  BuildOptions options_;
  std::vector<Configuration> configs_;
  std::map<ConfigId, std::size_t> config_ids_;
  std::vector<std::string> method_order_;
  // method -> configuration -> its trials (outcome, wall time and metrics only), with the run each came from
  std::map<std::string, std::map<std::size_t, KeptTrials>> trials_;
  std::vector<InstanceRun> instance_runs_;  // configuration indexes before finish() sorts them
  std::size_t runs_ = 0;
  std::size_t trial_count_ = 0;
};

}  // namespace perfzero::fleet_report
