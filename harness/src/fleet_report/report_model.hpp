#pragma once
// What `perfzero report` shows: every method on every configuration (instance type, plus the run's
// label when runs of one shape carry several), with its speed, spread and price. Computed once by
// build_report(); every output (Markdown, CSV, JSON, HTML) only formats it.
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/outcome.hpp"
#include "results/flags.hpp"
#include "results/statistics.hpp"

namespace perfzero::fleet_report {

struct Pricing {
  std::optional<double> usd_per_hour;       // nullopt: unpriced (`unpriced_reason` says why); every host together
  std::optional<double> usd_per_host_hour;  // one host's price: usd_per_hour / nodes
  std::string unpriced_reason;
  // "list price" or "4 OCPU x $0.025 + 64 GiB x $0.0015" for a flexible shape; for a cluster
  // "3 hosts x $1.23 per hour (list price)"
  std::string how;
  std::string source;
  std::string date;
  std::optional<int> age_days;  // from `date` to the report's day
  std::string catalog_entry;    // file:line:column of the catalog entry used
  // One host on spot / preemptible capacity: the catalog's dated spot price for the shape, else the
  // on-demand price less the provider's fixed discount; nullopt when neither is known.
  std::optional<double> spot_usd_per_host_hour;
  std::string spot_how;  // "spot price, 2026-01-10 (URL)" or "on-demand less 50 % (oci preemptible, ...)"
};

// The whole experiment on one configuration: every cloud instance its runs used, boot to the end of
// the upload (fleet_report/instance_timeline.hpp), each rounded as the provider bills
// (docs/report.md, "The cost of the experiment"). Cost per run is the workload's; this is the bill.
struct ExperimentCost {
  int runs = 0;  // runs with instance timelines
  int instances = 0;
  int preempted = 0;
  std::string capacity;                              // on_demand, spot, or "on_demand + spot"
  double instance_seconds = 0;                       // boot to the end, summed over instances
  double billed_seconds = 0;                         // each instance as billed: whole steps, at least the minimum
  std::optional<double> before_first_trial_seconds;  // boot to the first trial, summed over runs
  std::optional<double> trials_seconds;              // the first trial's start to the last one's end, summed
  std::optional<double> usd;                         // as run: each instance at its capacity's price
  std::optional<double> usd_on_demand;               // every instance at the on-demand price
  std::optional<double> usd_spot;                    // every instance at the spot price
  std::string billing;                               // "per second, 60 s minimum (aws, 2025-01-15, URL)"
  std::vector<std::string> notes;                    // why a figure is missing or partial
};

struct Configuration {
  // The column's name: the shape, " x3 hosts" for a cluster, " [label]" when a shape has several labels.
  std::string key;
  std::string provider;
  std::string shape;
  std::string label;
  std::string arch;
  // Hosts the methods ran on (docs/report.md, "Clusters"): 1 unless a method was launched on several.
  int nodes = 1;
  double vcpus = 0;  // from the catalog for a fixed shape, else from the run's system info; all hosts
  double ocpus = 0;
  std::string cpu_source;  // where vcpus/ocpus came from
  Pricing pricing;
  std::vector<std::string> runs;  // the run directories read into this configuration
  nlohmann::json system;          // system_info and system of its first run (the host perfzero ran on)
  // A cluster's hosts as its first trial with hosts saw them: hostname, system_info, same_machine_as.
  nlohmann::json hosts = nlohmann::json::array();
  // What the runs measured (every distinct value, sorted), against the catalog's shape.
  std::vector<double> measured_vcpus;
  std::vector<double> measured_memory_gib;
  std::vector<double> measured_gpus;
  std::vector<std::string> measured_arch;        // the runs' `architecture` (x86_64, aarch64)
  std::vector<std::string> measured_cpu_vendor;  // the runs' `cpu_vendor` (GenuineIntel, AuthenticAMD, ...)
  std::vector<std::string> shape_mismatches;     // "catalog says 8 vCPUs, the run had 2; ..."
  double run_vcpus = 0;  // the vCPUs its runs had (0: not recorded): runs with other counts are another configuration
  bool split_by_cpus = false;  // its shape and label also ran on another CPU count: the key says " [2 vCPUs]"
  std::optional<ExperimentCost> experiment;  // nullopt: no run of it carried instance timelines
};

// The experiment costs of every configuration that has one, added up.
struct ExperimentTotal {
  int configurations = 0;
  int instances = 0;
  double billed_seconds = 0;
  std::optional<double> usd;            // the configurations whose bill is known; nullopt: none is
  std::optional<double> usd_on_demand;  // nullopt unless every configuration's is known
  std::optional<double> usd_spot;
  std::vector<std::string> left_out;  // configurations whose bill is unknown, so not in `usd`
};

// The figure a method is judged by: its first rate metric (unit "<work>/s"), else wall time.
struct MainMetric {
  std::string name;
  std::string unit;       // e.g. points/s
  std::string work_unit;  // e.g. points
  double scale = 1;       // cost per unit of work is quoted per `scale` units
  std::string per;        // how that is written, e.g. "1e9 points", "TFLOP"
};

// One configuration against another on a figure where more is better (a speed ratio, or the
// other's cost over this one's): the ratio of the point estimates and its bootstrap interval.
struct Ratio {
  double value = 1;
  std::optional<double> low;  // nullopt: too few trials for an interval
  std::optional<double> high;
  bool tie = true;  // the interval holds 1, the change is under --min_change, or there is no interval
  // The between-run noise the interval was widened by (0.25: low / 1.25, high x 1.25) because a side
  // was measured in one run only (RunNoise); 0: not widened.
  double run_noise = 0;
};

// How far one run's median may land from another's on the same configuration: a configuration
// measured in one run is compared only beyond it (docs/report.md, "Fastest, cheapest and ties").
struct RunNoise {
  double fraction = 0.25;
  std::string source;             // "measured", "history", "--run_noise" or "default"
  std::size_t measured_from = 0;  // configurations with repeated runs it was measured on
  std::size_t single_run = 0;     // configurations measured in one run (the floor applies to them)
  std::size_t history_pairs = 0;  // source "history": the pairs of consecutive runs it was measured on
};

// The between-run noise a results history shows for one method and metric (report --history DB):
// over each series' last runs, how far a run's median lands from the one before, at the 95th
// percentile of those steps.
struct HistoryNoise {
  double fraction = 0;
  std::size_t pairs = 0;  // consecutive pairs of runs behind it
};
using HistoryNoiseTable = std::map<std::pair<std::string, std::string>, HistoryNoise>;  // (method, metric)

// "fastest" or "cheapest": the best point estimate among the cells whose trials all succeeded, and
// whether the trials tell it apart from every other such cell.
struct Ranking {
  std::optional<std::size_t> leader;   // the best point estimate
  std::optional<std::size_t> against;  // shown against: the runner-up, or the first it ties with
  std::optional<Ratio> ratio;          // the leader over `against`
  bool decided = false;                // the leader beats every other contender: named
  std::size_t contenders = 0;
};

struct Cell {
  int trials = 0;  // 0: the method did not run on this configuration
  int succeeded = 0;
  int left_out = 0;                      // succeeded trials whose measurement was disturbed, not in any figure
  int flagged_kept = 0;                  // disturbed trials kept in the figures (--use_flagged)
  results::FlagCounts disturbances;      // of the succeeded trials: host_busy 3, ...
  Outcome outcome = Outcome::succeeded;  // the worst outcome of its trials
  std::string detail;                    // why the first trial that did not succeed ended so
  std::vector<double> wall_times;        // succeeded trials, seconds
  results::Stats wall;
  std::vector<double> metric_values;  // the main metric, succeeded trials
  results::Stats metric;
  std::optional<double> cost_per_run;   // USD: price per hour x median wall time
  std::optional<double> cost_per_unit;  // USD per MainMetric::per
  std::optional<double> units_per_usd;  // performance per dollar: work units per USD
  std::optional<double> per_vcpu;       // main metric per vCPU
  std::optional<double> per_ocpu;
  std::optional<Ratio> speedup;     // against --baseline (>1: faster than it)
  int runs = 0;                     // runs its figures came from
  std::vector<double> run_medians;  // the ranked figure's median in each run (between-run spread)
  bool ok() const { return trials > 0 && succeeded == trials; }
};

// One node count of a shape's scaling (docs/report.md, "Clusters").
struct ScalingPoint {
  std::size_t config = 0;  // index into FleetReport::configurations
  int nodes = 1;
  std::optional<double> throughput;     // the main metric's median, else runs per second (1 / median wall time)
  std::optional<double> speedup;        // throughput / the smallest node count's
  std::optional<double> efficiency;     // throughput / ((nodes / base_nodes) x the smallest node count's)
  std::optional<double> cost_per_unit;  // as Cell::cost_per_unit (quoted per MainMetric::per)
  std::optional<double> cost_per_run;   // USD per run, unscaled
};

// A method on one shape (provider, shape, label) at more than one node count.
struct Scaling {
  std::string name;                  // the shape's configuration key without the hosts
  std::string unit;                  // of the throughput: the main metric's unit, or "runs/s"
  int base_nodes = 1;                // efficiency is against this node count: 1 when it ran on one host
  std::vector<ScalingPoint> points;  // by node count
};

struct MethodRow {
  std::string name;
  std::optional<MainMetric> metric;
  // Cost per run is quoted per `run_scale` runs so the cheapest reads at least $0.10: "billion runs".
  double run_scale = 1;
  std::string runs_per = "run";
  std::vector<Cell> cells;  // one per configuration, in FleetReport::configurations order
  Ranking speed;            // by the main metric's median (or 1 / median wall time)
  Ranking cost;             // by cost per unit of work (or per run) among priced cells
  // The configurations named: only when their ranking is decided.
  std::optional<std::size_t> fastest;
  std::optional<std::size_t> cheapest;
  std::vector<Scaling> scaling;  // one per shape the method ran on at several node counts
  RunNoise run_noise;            // the floor its rankings used
};

// How rankings and speedups are told from noise (docs/report.md, "Fastest, cheapest and ties").
struct RankSettings {
  double min_change = 0.05;  // --min_change / 100
  double confidence = 0.95;
  int resamples = 2000;
  std::uint64_t seed = 1;
  std::size_t min_trials = 3;       // per side, for an interval at all
  bool use_flagged = false;         // --use_flagged: disturbed trials stay in the figures
  std::optional<double> run_noise;  // --run_noise / 100; nullopt: measured from repeated runs, else the default
  double default_run_noise = 0.25;
  // report --history DB: the noise its series show, used when the inputs repeat no configuration
  const HistoryNoiseTable* history_noise = nullptr;
  std::vector<std::string> metrics;  // --metric: rank by the first of these rates a method reports
};

struct FleetReport {
  std::vector<Configuration> configurations;
  std::vector<MethodRow> methods;
  std::vector<std::string> warnings;  // unreadable inputs, old prices, unpriced shapes
  std::vector<std::string> inputs;    // the paths given
  std::string catalog_file;
  std::string generated_on;  // YYYY-MM-DD
  std::string baseline;      // configuration key, when --baseline matched one
  RankSettings settings;
  std::size_t runs_read = 0;
  std::size_t trials_read = 0;
  std::optional<ExperimentTotal> experiment_total;  // nullopt: no run carried instance timelines
};

}  // namespace perfzero::fleet_report
