#pragma once
// A method launched on several hosts (launch: {engine: slurm, nodes: 3}) measured a cluster, not one
// machine: its trials belong to the configuration "shape x3 hosts", priced as three of the shape.
// What a case's trials say about the hosts they ran on (docs/report.md, "Clusters").
#include <string>

#include <nlohmann/json.hpp>

#include "results/model.hpp"

namespace perfzero::fleet_report {

// How many hosts the case ran on: the most distinct hosts any of its trials names
// (perfzero_cpp.hosts), else its launch's `nodes`, else 1.
int nodes_of(const results::Case& c);

// The hosts of the case's first trial that names any, as a configuration keeps them: hostname,
// system_info and same_machine_as (the CPU load and GPU samples belong to one trial, not the machine).
nlohmann::json hosts_of(const results::Case& c);

// The method as the report names it: a nodes sweep's `launch.nodes=N` taken out of the case's name
// ("allreduce[bytes=8,launch.nodes=2]" -> "allreduce[bytes=8]"), since the node count is the
// configuration's. Any other name is kept as it is.
std::string method_name_of(const std::string& case_name);

}  // namespace perfzero::fleet_report
