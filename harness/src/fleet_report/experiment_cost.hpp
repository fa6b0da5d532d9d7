#pragma once
// What a benchmark campaign cost as billed: each cloud instance from boot to the end of its upload,
// rounded as its provider bills (granularity, minimum charge), at the price of the capacity it ran
// on, against on-demand and spot; per configuration and for the whole fleet (docs/report.md,
// "The cost of the experiment").
#include <optional>
#include <vector>

#include "fleet_report/instance_timeline.hpp"
#include "fleet_report/report_model.hpp"
#include "pricing/price_catalog.hpp"
#include "results/model.hpp"

namespace perfzero::fleet_report {

// A run that carried instance timelines, with the span of its trials.
struct InstanceRun {
  std::size_t config = 0;                   // index into FleetReport::configurations
  std::optional<double> first_trial_start;  // epoch seconds; nullopt: no trial ran here
  std::optional<double> last_trial_end;
  int resumed_trials = 0;  // kept from an earlier instance (--resume): timed by that process, not in the span
  std::vector<InstanceLife> instances;
};

// The span of the trials the run's last process ran (warm-ups included: they occupy the instance
// too). Trials kept by --resume are counted, not spanned: their offsets are from an earlier start.
InstanceRun instance_run_of(const results::Run& run, std::vector<InstanceLife> instances);

// Fills each configuration's `experiment` and the report's `experiment_total` (left empty when no
// run carried a timeline). Configurations must already be priced.
void add_experiment_costs(FleetReport& report, const std::vector<InstanceRun>& runs, const pricing::Catalog* catalog);

}  // namespace perfzero::fleet_report
