#include "fleet_report/report_figures.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <map>
#include <set>
#include <tuple>

#include <fmt/format.h>

#include "fleet_report/rankings.hpp"
#include "fleet_report/run_noise.hpp"
#include "fleet_report/scaling.hpp"
#include "results/flags.hpp"
#include "results/statistics.hpp"

namespace perfzero::fleet_report {

namespace {

std::optional<double> metric_of(const results::Trial& t, const std::string& name) {
  for (const auto& m : t.metrics) {
    if (m.name == name && std::isfinite(m.value)) return m.value;
  }
  return std::nullopt;
}

// Each run's median of the ranked figure: how far runs of one configuration land apart.
void add_run_medians(Cell& cell, const std::map<std::size_t, std::vector<double>>& per_run) {
  cell.runs = static_cast<int>(per_run.size());
  for (const auto& [run, values] : per_run) {
    if (const auto median = results::compute_stats(values).median) cell.run_medians.push_back(*median);
  }
}

Cell summarize(const CellTrials& in, const std::optional<MainMetric>& metric, bool use_flagged) {
  const results::Case& c = *in.trials;
  std::map<std::size_t, std::vector<double>> per_run;
  Cell cell;
  cell.trials = static_cast<int>(c.trials.size());
  cell.outcome = results::case_outcome(c);
  for (std::size_t i = 0; i < c.trials.size(); ++i) {
    const results::Trial& t = c.trials[i];
    const std::size_t run = in.run_of != nullptr && i < in.run_of->size() ? (*in.run_of)[i] : 0;
    if (t.outcome != Outcome::succeeded) {
      if (cell.detail.empty()) cell.detail = t.detail.empty() ? std::string(to_string(t.outcome)) : t.detail;
      continue;
    }
    ++cell.succeeded;
    // A disturbed trial measured something else besides the method: out of every figure unless
    // the user keeps it, and counted either way.
    if (results::disturbed(t)) {
      results::count_disturbances(t, cell.disturbances);
      if (!use_flagged) {
        ++cell.left_out;
        continue;
      }
      ++cell.flagged_kept;
    }
    cell.wall_times.push_back(t.wall_time);
    if (!metric) per_run[run].push_back(t.wall_time);
    if (metric) {
      if (const auto v = metric_of(t, metric->name)) {
        cell.metric_values.push_back(*v);
        per_run[run].push_back(*v);
      }
    }
  }
  add_run_medians(cell, per_run);
  cell.wall = results::compute_stats(cell.wall_times);
  cell.metric = results::compute_stats(cell.metric_values);
  return cell;
}

MainMetric main_metric_of(const results::MetricValue& m) {
  MainMetric metric;
  metric.name = m.name;
  metric.unit = m.unit;
  metric.work_unit = m.unit.substr(0, m.unit.size() - 2);
  return metric;
}

// Throughput-based figures need a rate; without one the run itself is the unit of work.
void price_cell(Cell& cell, const Configuration& config, const std::optional<MainMetric>& metric) {
  const auto& price = config.pricing.usd_per_hour;
  if (price && cell.wall.median) cell.cost_per_run = *price * *cell.wall.median / 3600.0;
  if (metric && cell.metric.median && *cell.metric.median > 0) {
    const double rate = *cell.metric.median;
    if (config.vcpus > 0) cell.per_vcpu = rate / config.vcpus;
    if (config.ocpus > 0) cell.per_ocpu = rate / config.ocpus;
    if (price) {
      cell.cost_per_unit = *price / 3600.0 / rate;  // USD per work unit, scaled below
      cell.units_per_usd = rate * 3600.0 / *price;
    }
  } else if (!metric && cell.cost_per_run && *cell.cost_per_run > 0) {
    cell.units_per_usd = 1.0 / *cell.cost_per_run;  // runs per dollar
  }
}

}  // namespace

std::string hosts_suffix(int nodes) { return nodes > 1 ? fmt::format(" x{} hosts", nodes) : ""; }

void name_configurations(std::vector<Configuration>& configs, std::vector<std::size_t>& order) {
  std::map<std::string, std::set<std::string>> labels;
  std::map<std::string, std::set<std::string>> providers;
  for (const auto& c : configs) {
    labels[c.shape].insert(c.label);
    providers[c.shape].insert(c.provider);
  }
  // Sorted by the name without the hosts, then by node count: "shape", "shape x2 hosts", "shape x10 hosts".
  std::vector<std::string> base(configs.size());
  for (std::size_t i = 0; i < configs.size(); ++i) {
    auto& c = configs[i];
    c.key = c.shape;
    if (providers[c.shape].size() > 1) c.key = (c.provider.empty() ? "?" : c.provider) + ":" + c.key;
    std::string label =
        labels[c.shape].size() > 1 ? " [" + (c.label.empty() ? std::string("no label") : c.label) + "]" : "";
    if (c.split_by_cpus) {
      label += c.run_vcpus > 0 ? fmt::format(" [{:g} vCPU{}]", c.run_vcpus, c.run_vcpus == 1 ? "" : "s")
                               : std::string(" [vCPUs unrecorded]");
    }
    base[i] = c.key + label;
    c.key = base[i];
    if (c.nodes > 1) c.key = base[i].substr(0, base[i].size() - label.size()) + hosts_suffix(c.nodes) + label;
  }
  std::vector<std::size_t> sorted(configs.size());
  for (std::size_t i = 0; i < sorted.size(); ++i) sorted[i] = i;
  std::stable_sort(sorted.begin(), sorted.end(), [&](std::size_t a, std::size_t b) {
    return std::tie(base[a], configs[a].nodes) < std::tie(base[b], configs[b].nodes);
  });
  std::vector<Configuration> reordered;
  std::vector<std::size_t> new_order;
  for (const std::size_t i : sorted) {
    reordered.push_back(std::move(configs[i]));
    new_order.push_back(order[i]);
  }
  configs = std::move(reordered);
  order = std::move(new_order);
}

std::string find_baseline(const std::vector<Configuration>& configs, const std::string& wanted,
                          std::vector<std::string>& warnings) {
  if (wanted.empty()) return "";
  std::vector<std::string> matches;
  for (const auto& c : configs) {
    if (c.key == wanted) return c.key;
    if (c.shape == wanted) matches.push_back(c.key);
  }
  if (matches.size() == 1) return matches.front();
  std::vector<std::string> keys;
  keys.reserve(configs.size());
  for (const auto& c : configs) keys.push_back(c.key);
  warnings.push_back(matches.empty()
                         ? fmt::format("--baseline {}: no such configuration (there are: {}); no speedups shown",
                                       wanted, fmt::join(keys, ", "))
                         : fmt::format("--baseline {}: several configurations have that shape ({}); name one", wanted,
                                       fmt::join(matches, ", ")));
  return "";
}

std::optional<MainMetric> choose_main_metric(const std::vector<CellTrials>& runs,
                                             const std::vector<std::string>& wanted) {
  const auto is_rate = [](const results::MetricValue& m) { return m.unit.size() > 2 && m.unit.ends_with("/s"); };
  // --metric first, then what the suites declared (main_metric), in the order the cells came.
  std::vector<std::string> names = wanted;
  if (names.empty()) {
    for (const auto& in : runs) {
      if (!in.trials->main_metric.empty()) names.push_back(in.trials->main_metric);
    }
  }
  for (const auto& name : names) {
    for (const auto& in : runs) {
      for (const auto& t : in.trials->trials) {
        for (const auto& m : t.metrics) {
          if (m.name == name && is_rate(m)) return main_metric_of(m);
        }
      }
    }
  }
  for (const auto& in : runs) {
    for (const auto& t : in.trials->trials) {
      for (const auto& m : t.metrics) {
        if (is_rate(m)) return main_metric_of(m);
      }
    }
  }
  return std::nullopt;
}

std::pair<double, std::string> work_scale(const std::string& work_unit, double cheapest) {
  static const std::string kPrefixes = "kMGTPE";
  double scale = 1;
  int steps = 0;
  while (cheapest * scale < 0.01 && steps < 6) {
    scale *= 1000;
    ++steps;
  }
  if (steps == 0) return {1, work_unit};
  // A unit with an SI prefix and an upper-case base (GFLOP, GB, MB) moves its prefix instead.
  if (work_unit.size() > 1 && std::isupper(static_cast<unsigned char>(work_unit[1])) != 0) {
    const auto at = kPrefixes.find(work_unit[0]);
    if (at != std::string::npos && at + steps < kPrefixes.size()) {
      return {scale, kPrefixes[at + steps] + work_unit.substr(1)};
    }
  }
  static const std::array<const char*, 7> kWords = {"", "1,000", "million", "billion", "trillion", "1e15", "1e18"};
  return {scale, fmt::format("{} {}", kWords[static_cast<std::size_t>(steps)], work_unit)};
}

std::pair<double, std::string> run_scale(double cheapest_usd_per_run) {
  static constexpr std::array<const char*, 5> kWords = {"run", "thousand runs", "million runs", "billion runs",
                                                        "trillion runs"};
  double scale = 1;
  std::size_t k = 0;
  while (cheapest_usd_per_run * scale < 0.1 && k + 1 < kWords.size()) {
    scale *= 1000;
    ++k;
  }
  return {scale, kWords[k]};
}

MethodRow build_method_row(const std::string& name, const std::vector<CellTrials>& runs,
                           const std::vector<Configuration>& configs, const std::string& baseline,
                           const RankSettings& settings) {
  MethodRow row;
  row.name = name;
  row.metric = choose_main_metric(runs, settings.metrics);
  row.cells.resize(configs.size());
  for (const auto& in : runs) row.cells[in.config] = summarize(in, row.metric, settings.use_flagged);
  for (std::size_t i = 0; i < configs.size(); ++i) price_cell(row.cells[i], configs[i], row.metric);
  if (row.metric) {
    std::optional<double> cheapest;
    for (const auto& cell : row.cells) {
      if (cell.ok() && cell.cost_per_unit)
        cheapest = std::min(cheapest.value_or(*cell.cost_per_unit), *cell.cost_per_unit);
    }
    std::tie(row.metric->scale, row.metric->per) = work_scale(row.metric->work_unit, cheapest.value_or(1));
    for (auto& cell : row.cells) {
      if (cell.cost_per_unit) *cell.cost_per_unit *= row.metric->scale;
    }
  }
  std::optional<double> cheapest_run;
  for (const auto& cell : row.cells) {
    if (cell.cost_per_run && *cell.cost_per_run > 0) {
      cheapest_run = std::min(cheapest_run.value_or(*cell.cost_per_run), *cell.cost_per_run);
    }
  }
  std::tie(row.run_scale, row.runs_per) = run_scale(cheapest_run.value_or(1));
  row.run_noise = run_noise_of(row, settings);
  rank_method(row, configs, baseline, settings);
  row.scaling = scaling_of(row, configs);
  return row;
}

void add_price_warnings(FleetReport& report, int max_age_days) {
  // One line per kind, listing the shapes: the same mismatch on several shapes, the prices of one
  // catalog date (which share its age).
  std::vector<std::pair<std::string, std::vector<std::string>>> mismatches;  // message -> configurations
  std::map<std::pair<int, std::string>, std::vector<std::string>> old;       // (age, date) -> configurations
  for (const auto& c : report.configurations) {
    for (const auto& m : c.shape_mismatches) {
      auto it = std::find_if(mismatches.begin(), mismatches.end(), [&](const auto& kind) { return kind.first == m; });
      if (it == mismatches.end()) it = mismatches.insert(mismatches.end(), {m, {}});
      it->second.push_back(c.key);
    }
    if (!c.pricing.usd_per_hour) {
      report.warnings.push_back(fmt::format("{}: unpriced ({})", c.key, c.pricing.unpriced_reason));
    } else if (c.pricing.age_days && *c.pricing.age_days > max_age_days) {
      old[{*c.pricing.age_days, c.pricing.date}].push_back(c.key);
    }
  }
  for (const auto& [message, keys] : mismatches) {
    report.warnings.push_back(fmt::format("{}: {}", fmt::join(keys, ", "), message));
  }
  for (const auto& [when, keys] : old) {
    report.warnings.push_back(fmt::format(
        "{}: the price{} used {} {} days old ({}); refresh the catalog or pass "
        "your own with --catalog",
        fmt::join(keys, ", "), keys.size() == 1 ? "" : "s", keys.size() == 1 ? "is" : "are", when.first, when.second));
  }
}

}  // namespace perfzero::fleet_report
