#pragma once
// What `perfzero report` shows: every method on every configuration (instance type, plus the run's
// label when runs of one shape carry several), with its speed, spread and price. Computed once by
// build_report(); every output (Markdown, CSV, JSON, HTML) only formats it.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/outcome.hpp"
#include "results/statistics.hpp"

namespace perfzero::report {

struct Pricing {
  std::optional<double> usd_per_hour;  // nullopt: unpriced (`unpriced_reason` says why)
  std::string unpriced_reason;
  std::string how;  // "list price" or "4 OCPU x $0.025 + 64 GiB x $0.0015" for a flexible shape
  std::string source;
  std::string date;
  std::optional<int> age_days;  // from `date` to the report's day
  std::string catalog_entry;    // file:line:column of the catalog entry used
};

struct Configuration {
  std::string key;  // the column's name: the shape, plus " [label]" when a shape has several labels
  std::string provider;
  std::string shape;
  std::string label;
  std::string arch;
  double vcpus = 0;  // from the catalog for a fixed shape, else from the run's system info
  double ocpus = 0;
  std::string cpu_source;  // where vcpus/ocpus came from
  Pricing pricing;
  std::vector<std::string> runs;  // the run directories read into this configuration
  nlohmann::json system;          // system_info and system of its first run
};

// The figure a method is judged by: its first rate metric (unit "<work>/s"), else wall time.
struct MainMetric {
  std::string name;
  std::string unit;       // e.g. points/s
  std::string work_unit;  // e.g. points
  double scale = 1;       // cost per unit of work is quoted per `scale` units
  std::string per;        // how that is written, e.g. "1e9 points", "TFLOP"
};

struct Cell {
  int trials = 0;  // 0: the method did not run on this configuration
  int succeeded = 0;
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
  std::optional<double> speedup;  // against --baseline (>1: faster than it)
  bool ok() const { return trials > 0 && succeeded == trials; }
};

struct MethodRow {
  std::string name;
  std::optional<MainMetric> metric;
  std::vector<Cell> cells;  // one per configuration, in Report::configurations order
  std::optional<std::size_t> fastest;
  std::optional<std::size_t> cheapest;
};

struct Report {
  std::vector<Configuration> configurations;
  std::vector<MethodRow> methods;
  std::vector<std::string> warnings;  // unreadable inputs, old prices, unpriced shapes
  std::vector<std::string> inputs;    // the paths given
  std::string catalog_file;
  std::string generated_on;  // YYYY-MM-DD
  std::string baseline;      // configuration key, when --baseline matched one
  std::size_t runs_read = 0;
  std::size_t trials_read = 0;
};

}  // namespace perfzero::report
