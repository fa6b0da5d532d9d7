#include "fleet_report/experiment_cost.hpp"

#include <algorithm>
#include <set>

#include <fmt/format.h>

namespace perfzero::fleet_report {

InstanceRun instance_run_of(const results::Run& run, std::vector<InstanceLife> instances) {
  InstanceRun out;
  out.instances = std::move(instances);
  for (const auto& c : run.cases) {
    for (const auto* trials : {&c.trials, &c.warmups}) {
      for (const auto& t : *trials) {
        if (t.resumed) {
          ++out.resumed_trials;
          continue;
        }
        const double start = run.info.execution_timestamp + t.started_offset;
        const double end = start + std::max(t.harness_seconds, t.wall_time);
        out.first_trial_start = std::min(out.first_trial_start.value_or(start), start);
        out.last_trial_end = std::max(out.last_trial_end.value_or(end), end);
      }
    }
  }
  return out;
}

namespace {

void add_money(std::optional<double>& sum, std::optional<double> amount) {
  if (amount) sum = sum.value_or(0) + *amount;
}

// One instance's share: its time as billed, at each price that is known.
void add_instance(ExperimentCost& e, const InstanceLife& life, const Pricing& p, const pricing::BillingRule* rule,
                  bool& od_known, bool& spot_known, bool& paid_known) {
  ++e.instances;
  if (life.end == "preempted") ++e.preempted;
  if (!life.ended_at) {
    e.notes.push_back(
        fmt::format("{}: no end recorded (no upload finished and no sign of life), so not billed here", life.file));
    od_known = spot_known = paid_known = false;
    return;
  }
  const double seconds = *life.ended_at - life.booted_at;
  const double billed = rule != nullptr ? pricing::billed_seconds(*rule, seconds) : seconds;
  e.instance_seconds += seconds;
  e.billed_seconds += billed;
  const double hours = billed / 3600.0;
  const auto at = [&](std::optional<double> price) -> std::optional<double> {
    if (!price) return std::nullopt;
    return *price * hours;
  };
  add_money(e.usd_on_demand, at(p.usd_per_host_hour));
  add_money(e.usd_spot, at(p.spot_usd_per_host_hour));
  od_known = od_known && p.usd_per_host_hour.has_value();
  spot_known = spot_known && p.spot_usd_per_host_hour.has_value();
  const auto paid = at(life.capacity == "spot" ? p.spot_usd_per_host_hour : p.usd_per_host_hour);
  add_money(e.usd, paid);
  paid_known = paid_known && paid.has_value();
}

ExperimentCost cost_of(const Configuration& config, const std::vector<const InstanceRun*>& runs,
                       const pricing::Catalog* catalog) {
  ExperimentCost e;
  const pricing::BillingRule* rule = catalog != nullptr ? catalog->billing_for(config.provider) : nullptr;
  if (rule != nullptr) {
    e.billing = fmt::format("{} ({}, {} ({}))", pricing::describe(*rule), config.provider, rule->date, rule->source);
  } else {
    e.billing = "per second, no minimum (assumed)";
    e.notes.push_back(fmt::format("the catalog has no billing rule for provider '{}': billed per second assumed",
                                  config.provider.empty() ? "unknown" : config.provider));
  }
  bool od_known = true;
  bool spot_known = true;
  bool paid_known = true;
  std::set<std::string> capacities;
  for (const auto* run : runs) {
    ++e.runs;
    // The instance that ran the trials spanned: the last one booted before the first of them.
    std::optional<double> boot;
    for (const auto& life : run->instances) {
      capacities.insert(life.capacity);
      if (!run->first_trial_start || life.booted_at <= *run->first_trial_start) {
        boot = std::max(boot.value_or(life.booted_at), life.booted_at);
      }
      add_instance(e, life, config.pricing, rule, od_known, spot_known, paid_known);
    }
    if (run->first_trial_start && run->last_trial_end && boot) {
      e.before_first_trial_seconds = e.before_first_trial_seconds.value_or(0) + (*run->first_trial_start - *boot);
      e.trials_seconds = e.trials_seconds.value_or(0) + (*run->last_trial_end - *run->first_trial_start);
    }
    if (run->resumed_trials > 0) {
      e.notes.push_back(
          fmt::format("{} trial(s) kept from an earlier instance (--resume) are billed with it but "
                      "not in the trials' span",
                      run->resumed_trials));
    }
  }
  e.capacity = capacities.size() == 1 ? *capacities.begin() : "on_demand + spot";
  // A bill with an instance missing is not the bill: no figure rather than a low one.
  if (!od_known) e.usd_on_demand.reset();
  if (!spot_known) e.usd_spot.reset();
  if (!paid_known) e.usd.reset();
  if (!config.pricing.usd_per_host_hour) {
    e.notes.push_back("unpriced: " + config.pricing.unpriced_reason);
  } else if (!config.pricing.spot_usd_per_host_hour) {
    e.notes.push_back(capacities.count("spot") > 0
                          ? "ran on spot capacity, but the catalog has no spot price for the shape and no fixed "
                            "discount for the provider: the bill is unknown"
                          : "no spot price in the catalog for the shape");
  }
  return e;
}

}  // namespace

void add_experiment_costs(FleetReport& report, const std::vector<InstanceRun>& runs, const pricing::Catalog* catalog) {
  if (runs.empty()) return;
  ExperimentTotal total;
  bool od_known = true;
  bool spot_known = true;
  for (std::size_t i = 0; i < report.configurations.size(); ++i) {
    std::vector<const InstanceRun*> mine;
    for (const auto& r : runs) {
      if (r.config == i && !r.instances.empty()) mine.push_back(&r);
    }
    if (mine.empty()) continue;
    Configuration& config = report.configurations[i];
    config.experiment = cost_of(config, mine, catalog);
    const ExperimentCost& e = *config.experiment;
    ++total.configurations;
    total.instances += e.instances;
    total.billed_seconds += e.billed_seconds;
    add_money(total.usd, e.usd);
    add_money(total.usd_on_demand, e.usd_on_demand);
    add_money(total.usd_spot, e.usd_spot);
    od_known = od_known && e.usd_on_demand.has_value();
    spot_known = spot_known && e.usd_spot.has_value();
    if (!e.usd) total.left_out.push_back(config.key);
  }
  // What-if totals hold every configuration or none; the bill as run names what it leaves out.
  if (!od_known) total.usd_on_demand.reset();
  if (!spot_known) total.usd_spot.reset();
  report.experiment_total = std::move(total);
}

}  // namespace perfzero::fleet_report
