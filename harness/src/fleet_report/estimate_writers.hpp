#pragma once
// `perfzero report --estimate`'s outputs: Markdown (stdout, estimate.md) and JSON (estimate.json),
// each saying that every figure is an estimate and from what.
#include <ostream>

#include <nlohmann/json.hpp>

#include "fleet_report/campaign_estimate.hpp"

namespace perfzero::fleet_report {

void write_estimate_markdown(const CampaignEstimate& estimate, std::ostream& out);
nlohmann::json estimate_json(const CampaignEstimate& estimate);

}  // namespace perfzero::fleet_report
