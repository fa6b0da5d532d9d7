#pragma once
// How a method scales with hosts: where it ran on one shape (provider, shape, label) at several node
// counts, its throughput, speedup, scaling efficiency and cost per unit of work at each count
// (docs/report.md, "Clusters").
#include <optional>
#include <string>
#include <vector>

#include "fleet_report/report_model.hpp"

namespace perfzero::fleet_report {

// The row's scaling studies, one per shape with cells at two node counts or more, in configuration
// order. Call once the row's cells are priced and scaled. Efficiency at N nodes is
// T(N) / ((N / Nmin) x T(Nmin)), Nmin the smallest node count with a throughput: T(N) / (N x T(1))
// when the method ran on one host.
std::vector<Scaling> scaling_of(const MethodRow& row, const std::vector<Configuration>& configs);

// The throughput a scaling study compares: the main metric's median, else runs per second.
std::optional<double> throughput_of(const MethodRow& row, const Cell& cell);

// "T(N) / (N x T(1))", or "T(N) / ((N/2) x T(2))" when the smallest node count is not 1.
std::string efficiency_formula(const Scaling& s);

}  // namespace perfzero::fleet_report
