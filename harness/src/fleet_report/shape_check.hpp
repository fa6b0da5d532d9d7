#pragma once
// The label against the machine: a run labelled n2-standard-8 that had 2 CPUs is not a measurement
// of an n2-standard-8. What each run measured (CPUs, memory, GPUs) is kept per configuration and
// set against the catalog's shape; an unknown shape name gets the nearest catalog names.
#include <string>

#include "fleet_report/report_model.hpp"
#include "pricing/price_catalog.hpp"
#include "results/model.hpp"

namespace perfzero::fleet_report {

// Adds what this run measured to the configuration's distinct measured values.
void note_measured(Configuration& config, const results::RunInfo& info);

// The vCPUs a run had: its container's quota or affinity (effective_vcpus), else the machine's count,
// to 0.01; 0 when not recorded.
double vcpus_of_run(const results::RunInfo& info);

// For a fixed shape: one line per figure where a run disagrees with the catalog, into
// config.shape_mismatches, saying which figure the report used.
void check_shape(Configuration& config, const pricing::Shape& shape);

// "'VM.Standard.E4.Flex-2' is not in the catalog; did you mean VM.Standard.E4.Flex?"
std::string not_in_catalog(const std::string& shape, const pricing::Catalog& catalog);

// Memory the run could use, in GiB, from a run's `system` object: the cgroup's limit when below the
// machine's memory (a limit above it means none); 0 when unknown.
double memory_gib_of(const nlohmann::json& system);

// Marks the configurations whose shape, label and hosts ran on several CPU counts (split_by_cpus):
// pooling a 1-CPU and a 2-CPU run would make one median of two machines.
void mark_cpu_splits(std::vector<Configuration>& configs);

// One warning per split shape: "c7i.large: runs on 1 and 2 vCPUs are reported apart, as ...".
void add_split_warnings(FleetReport& report);

}  // namespace perfzero::fleet_report
