#pragma once
// The figures of the report, each defined once: main metric, cost per run and per unit of work,
// performance per dollar and per vCPU/OCPU, speedup against the baseline, fastest and cheapest.
#include <string>
#include <utility>
#include <vector>

#include "fleet_report/report_model.hpp"
#include "results/model.hpp"

namespace perfzero::fleet_report {

// " x3 hosts" for a cluster of 3 hosts; "" for one host.
std::string hosts_suffix(int nodes);

// Configuration keys: the shape, with " [label]" where one shape was run under several labels, the
// provider where two providers share a shape name and " x3 hosts" for a cluster; then sorted by key
// without the hosts, then by node count. `order` (the old index of
// each configuration, 0..n-1 on entry) is permuted the same way.
void name_configurations(std::vector<Configuration>& configs, std::vector<std::size_t>& order);

// The key of the configuration `wanted` names (its key, or its shape when only one has it); empty,
// with a warning, when none or several match.
std::string find_baseline(const std::vector<Configuration>& configs, const std::string& wanted,
                          std::vector<std::string>& warnings);

// One method's trials on one configuration, and the run each came from (any number that tells runs apart).
struct KeptTrials {
  results::Case trials;
  std::vector<std::size_t> run_of;  // parallel to trials.trials
};
struct CellTrials {
  std::size_t config = 0;
  const results::Case* trials = nullptr;
  const std::vector<std::size_t>* run_of = nullptr;  // nullptr: every trial from one run
};

// One method's row: `runs` holds, per configuration index, the trials run there.
MethodRow build_method_row(const std::string& name, const std::vector<CellTrials>& runs,
                           const std::vector<Configuration>& configs, const std::string& baseline,
                           const RankSettings& settings);

// The first of `wanted` (--metric) that the trials report as a rate (unit "<work>/s"); without
// `wanted`, the main_metric a suite declared for the cells (results::Case::main_metric); else their
// first rate metric; nullopt when the method reports none.
std::optional<MainMetric> choose_main_metric(const std::vector<CellTrials>& runs,
                                             const std::vector<std::string>& wanted = {});

// How to quote a cost per unit of work so the cheapest reads between $0.01 and $10: the scale
// (a power of 1000) and its wording ("billion points", "TFLOP" for GFLOP).
std::pair<double, std::string> work_scale(const std::string& work_unit, double cheapest_usd_per_unit);

// How to quote a cost per run so the cheapest reads at least $0.10: the scale (a power of 1000) and
// its wording ("million runs"; "run" when no scaling is needed).
std::pair<double, std::string> run_scale(double cheapest_usd_per_run);

// Shapes whose runs disagree with the catalog (one line per figure), unpriced shapes, and prices
// older than `max_age_days`.
void add_price_warnings(FleetReport& report, int max_age_days);

}  // namespace perfzero::fleet_report
