#pragma once
// The parts of the HTML page (report_html.cpp puts them together): HTML tables for what is text
// (a table lays text out itself: headers wrap at a name's parts and never overlap), inline SVG for
// what is drawn. Every text is escaped; every table with class "sortable" sorts on a click.
#include <string>

#include "fleet_report/report_model.hpp"

namespace perfzero::fleet_report::html {

// Methods x configurations, each cell coloured by its speed relative to the method's leader.
std::string heatmap(const FleetReport& report);
// The configurations: shape, provider, CPUs (and what the runs had), price and its source.
std::string configuration_table(const FleetReport& report);
// The cost of the experiment per configuration and for the fleet; "" when no run carried timelines.
std::string experiment_section(const FleetReport& report);
// One method's configurations, fastest first, with every figure and its interval.
std::string ranking_table(const MethodRow& row, const FleetReport& report);
// One shape's node counts: throughput, speedup, efficiency and cost (docs/report.md, "Clusters").
std::string scaling_table(const MethodRow& row, const Scaling& scaling, const FleetReport& report);

}  // namespace perfzero::fleet_report::html

namespace perfzero::fleet_report::svg {

// Bars of the main metric (or wall time) per configuration, every trial a dot, with an axis.
std::string bars(const MethodRow& row, const FleetReport& report);
// Cost against time per configuration, numbered markers, a legend and the Pareto front as a
// step line; "" when no priced configuration ran the method successfully.
std::string cost_time_scatter(const MethodRow& row, const FleetReport& report);
// Throughput against node count on one shape, with the ideal (linear) line; "" without a throughput.
std::string scaling_chart(const MethodRow& row, const Scaling& scaling);

}  // namespace perfzero::fleet_report::svg
