#include "fleet_report/scaling.hpp"

#include <algorithm>
#include <map>
#include <tuple>

#include <fmt/format.h>

#include "fleet_report/report_figures.hpp"

namespace perfzero::fleet_report {

std::optional<double> throughput_of(const MethodRow& row, const Cell& cell) {
  if (row.metric) {
    if (cell.metric.median && *cell.metric.median > 0) return cell.metric.median;
    return std::nullopt;
  }
  if (cell.wall.median && *cell.wall.median > 0) return 1.0 / *cell.wall.median;
  return std::nullopt;
}

std::string efficiency_formula(const Scaling& s) {
  if (s.base_nodes == 1) return "T(N) / (N x T(1))";
  return fmt::format("T(N) / ((N/{0}) x T({0}))", s.base_nodes);
}

std::vector<Scaling> scaling_of(const MethodRow& row, const std::vector<Configuration>& configs) {
  using Shape = std::tuple<std::string, std::string, std::string>;  // provider, shape, label
  std::vector<Shape> order;
  std::map<Shape, std::vector<std::size_t>> by_shape;
  for (std::size_t i = 0; i < configs.size(); ++i) {
    if (row.cells[i].trials == 0) continue;
    const Shape id{configs[i].provider, configs[i].shape, configs[i].label};
    auto [it, inserted] = by_shape.try_emplace(id);
    if (inserted) order.push_back(id);
    it->second.push_back(i);
  }
  std::vector<Scaling> out;
  for (const auto& id : order) {
    auto& members = by_shape[id];
    if (members.size() < 2) continue;  // one node count: nothing to scale against
    std::stable_sort(members.begin(), members.end(),
                     [&](std::size_t a, std::size_t b) { return configs[a].nodes < configs[b].nodes; });
    Scaling s;
    const auto& first = configs[members.front()];
    s.name = first.key;
    if (const std::string suffix = hosts_suffix(first.nodes); !suffix.empty()) {
      if (const auto at = s.name.find(suffix); at != std::string::npos) s.name.erase(at, suffix.size());
    }
    s.unit = row.metric ? row.metric->unit : "runs/s";
    std::optional<double> base;
    for (const std::size_t i : members) {
      const Cell& cell = row.cells[i];
      ScalingPoint p;
      p.config = i;
      p.nodes = configs[i].nodes;
      p.throughput = throughput_of(row, cell);
      p.cost_per_unit = cell.cost_per_unit;
      p.cost_per_run = cell.cost_per_run;
      if (!base && p.throughput) {
        base = p.throughput;
        s.base_nodes = p.nodes;
      }
      s.points.push_back(p);
    }
    for (auto& p : s.points) {
      if (!base || !p.throughput) continue;
      p.speedup = *p.throughput / *base;
      p.efficiency = *p.throughput / (static_cast<double>(p.nodes) / s.base_nodes * *base);
    }
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace perfzero::fleet_report
