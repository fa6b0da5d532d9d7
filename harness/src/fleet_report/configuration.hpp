#pragma once
// Which configuration a run belongs to (provider, shape, label; the node count comes from its trials,
// fleet_report/clusters.hpp) and what that configuration costs.
#include <string>

#include "fleet_report/report_model.hpp"
#include "pricing/price_catalog.hpp"
#include "results/model.hpp"

namespace perfzero::fleet_report {

// The provider (oci, aws, gcp, azure, or empty), shape and label of a run: --platform_name and
// --instance_type (or --system_name) as given, else what the machine's DMI said.
// Cheap: only names; machine_of() gives the system info to keep for a new configuration.
Configuration identify(const results::RunInfo& info);
nlohmann::json machine_of(const results::RunInfo& info);

// Fills vcpus/ocpus and pricing from the catalog entry for the shape (nullptr: none), using the
// run's system info for a flexible shape's OCPUs and memory and for an unpriced shape's CPUs. A
// cluster (config.nodes > 1) is that many hosts: its price, vCPUs and OCPUs are nodes times one's.
void price(Configuration& config, const pricing::Catalog* catalog, const std::string& today);

}  // namespace perfzero::fleet_report
