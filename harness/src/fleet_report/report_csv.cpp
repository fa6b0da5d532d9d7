// CSV: one row per method x configuration with every figure at full precision, for spreadsheets
// and scripts. Columns are only ever added at the end.
#include <cmath>

#include <fmt/format.h>

#include "common/escape.hpp"
#include "common/text.hpp"
#include "fleet_report/report_writers.hpp"

namespace perfzero::fleet_report {

namespace {

std::string csv(const std::string& s) { return text::csv_cell(s); }

// CSV keeps every digit: spreadsheets and scripts compute with it.
std::string exact(const std::optional<double>& value) {
  return value && std::isfinite(*value) ? fmt::format("{}", *value) : std::string();
}

// "yes" for the configuration named, "tie" for the leader and the one it ties with.
std::string named(const Ranking& r, std::size_t i) {
  if (r.decided) return r.leader == i ? "yes" : "";
  return r.leader == i || r.against == i ? "tie" : "";
}

// ratio, low, high and the configuration it is against: on the leader's row only.
std::string ranking_columns(const Ranking& r, std::size_t i, const std::vector<Configuration>& configs) {
  if (r.leader != i || !r.ratio || !r.against) return ",,,";
  return fmt::format("{},{},{},{}", exact(r.ratio->value), exact(r.ratio->low), exact(r.ratio->high),
                     csv(configs[*r.against].key));
}

std::string disturbances(const Cell& cell) {
  std::vector<std::string> parts;
  for (const auto& [flag, count] : cell.disturbances) parts.push_back(fmt::format("{}:{}", flag, count));
  return text::join(parts, " ");
}

// throughput, speedup, efficiency and the node count it is relative to, where the method has a
// scaling study on this configuration's shape; empty otherwise.
std::string scaling_columns(const MethodRow& row, std::size_t i) {
  for (const auto& s : row.scaling) {
    for (const auto& p : s.points) {
      if (p.config == i) {
        return fmt::format("{},{},{},{}", exact(p.throughput), exact(p.speedup), exact(p.efficiency), s.base_nodes);
      }
    }
  }
  return ",,,";
}

}  // namespace

void write_csv(const FleetReport& report, std::ostream& out) {
  out << "method,configuration,provider,shape,label,vcpus,ocpus,usd_per_hour,price_date,status,outcome,trials,"
         "succeeded,wall_time_median_s,wall_time_min_s,wall_time_max_s,main_metric,main_metric_unit,"
         "main_metric_median,main_metric_min,main_metric_max,cost_per_run_usd,cost_per,cost_per_unit_usd,"
         "units_per_usd,per_vcpu,per_ocpu,speedup,fastest,cheapest,speedup_low,speedup_high,speedup_tie,"
         "fastest_ratio,fastest_ratio_low,fastest_ratio_high,fastest_against,cheapest_ratio,cheapest_ratio_low,"
         "cheapest_ratio_high,cheapest_against,trials_left_out,trials_flagged_kept,disturbances,nodes,"
         "scaling_throughput,scaling_speedup,scaling_efficiency,scaling_relative_to_nodes\n";
  for (const auto& row : report.methods) {
    for (std::size_t i = 0; i < report.configurations.size(); ++i) {
      const auto& c = report.configurations[i];
      const auto& cell = row.cells[i];
      const std::string metric_name = row.metric ? row.metric->name : "";
      const auto& up = cell.speedup;
      out << fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},",
                         csv(row.name), csv(c.key), csv(c.provider), csv(c.shape), csv(c.label), exact(c.vcpus),
                         exact(c.ocpus), exact(c.pricing.usd_per_hour), c.pricing.date,
                         cell.trials == 0 ? "not run"
                         : cell.ok()      ? "ok"
                                          : "not succeeded",
                         cell.trials == 0 ? "" : std::string(to_string(cell.outcome)), cell.trials, cell.succeeded,
                         exact(cell.wall.median), exact(cell.wall.min), exact(cell.wall.max), csv(metric_name),
                         csv(row.metric ? row.metric->unit : ""), exact(cell.metric.median), exact(cell.metric.min),
                         exact(cell.metric.max), exact(cell.cost_per_run), csv(row.metric ? row.metric->per : "run"),
                         exact(cell.cost_per_unit), exact(cell.units_per_usd), exact(cell.per_vcpu),
                         exact(cell.per_ocpu), exact(up ? std::optional(up->value) : std::nullopt), named(row.speed, i),
                         named(row.cost, i));
      out << fmt::format(
          "{},{},{},{},{},{},{},{},{},{}\n", exact(up ? up->low : std::nullopt), exact(up ? up->high : std::nullopt),
          !up || c.key == report.baseline ? ""
          : up->tie                       ? "yes"
                                          : "no",
          ranking_columns(row.speed, i, report.configurations), ranking_columns(row.cost, i, report.configurations),
          cell.left_out, cell.flagged_kept, csv(disturbances(cell)), c.nodes, scaling_columns(row, i));
    }
  }
}

}  // namespace perfzero::fleet_report
