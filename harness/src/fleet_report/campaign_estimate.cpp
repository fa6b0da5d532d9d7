#include "fleet_report/campaign_estimate.hpp"

#include <fmt/format.h>

namespace perfzero::fleet_report {

namespace {

void add(std::optional<double>& sum, const std::optional<double>& amount, bool& known) {
  if (amount) {
    sum = sum.value_or(0) + *amount;
  } else {
    known = false;
  }
}

// The fleet names a flexible shape with its size: VM.Standard.E4.Flex-4ocpu-16gb (and -4ocpu alone
// when the memory was left at the provider's default).
void price_shape(ShapeEstimate& e, const pricing::Catalog* catalog) {
  if (catalog == nullptr) {
    e.notes.push_back("no price catalog");
    return;
  }
  std::string name = e.shape;
  std::optional<double> ocpus;
  std::optional<double> memory_gib;
  if (const auto size = pricing::parse_flex_size(e.shape)) {
    name = size->shape;
    ocpus = size->ocpus;
    memory_gib = size->memory_gib;
  }
  const pricing::Shape* shape = catalog->find("", name);
  if (shape == nullptr) {
    e.notes.push_back(fmt::format("'{}' is not in the catalog {}", name, catalog->file));
    return;
  }
  e.provider = shape->provider;
  if (shape->flexible) {
    if (!ocpus) {
      e.notes.push_back("a flexible shape is priced from its size: name it as the fleet does (" + name +
                        "-4ocpu-16gb)");
      return;
    }
    const pricing::Quote q = pricing::flexible_price(*shape->flexible, *ocpus, memory_gib.value_or(0));
    e.usd_per_hour = q.usd_per_hour;
    e.price_how = fmt::format("{}, {}", q.how, shape->date);
    if (!memory_gib) e.notes.push_back("no memory in the name: priced for the OCPUs alone, a low bound");
  } else {
    e.usd_per_hour = *shape->usd_per_hour;
    e.price_how = fmt::format("list price, {}", shape->date);
  }
  if (const auto spot = pricing::spot_price(*catalog, shape, e.provider, *e.usd_per_hour)) {
    e.spot_usd_per_hour = spot->usd_per_hour;
    e.spot_how = spot->how;
  }
}

}  // namespace

CampaignEstimate estimate_campaign(const std::vector<PlannedWork>& work, const std::vector<std::string>& shapes,
                                   const TrialDurations& durations, const pricing::Catalog* catalog,
                                   double overhead_seconds) {
  CampaignEstimate out;
  out.cases = static_cast<int>(work.size());
  for (const auto& w : work) out.runs += w.runs;
  bool od_known = true;
  bool spot_known = true;
  for (const auto& name : shapes) {
    ShapeEstimate e;
    e.shape = name;
    e.overhead_seconds = overhead_seconds;
    price_shape(e, catalog);
    const auto measured = durations.find(name);
    double trials = 0;
    for (const auto& w : work) {
      const std::map<std::string, double>* known = measured != durations.end() ? &measured->second : nullptr;
      const auto it = known != nullptr ? known->find(w.case_name) : std::map<std::string, double>::const_iterator{};
      if (known != nullptr && it != known->end()) {
        trials += w.runs * it->second;
        ++e.cases_from_history;
      } else if (w.timeout_seconds > 0) {
        trials += w.runs * w.timeout_seconds;
        ++e.cases_from_timeouts;
      } else {
        e.cases_unknown.push_back(w.case_name);
      }
    }
    if (e.cases_unknown.empty()) e.trials_seconds = trials;
    if (e.cases_from_timeouts > 0) {
      e.notes.push_back(
          fmt::format("{} case(s) not in the history: their timeouts stand in, an upper bound for those cases",
                      e.cases_from_timeouts));
    }
    if (!e.cases_unknown.empty()) {
      e.notes.push_back(
          fmt::format("no earlier run and no timeout for {}: no estimate", fmt::join(e.cases_unknown, ", ")));
    }
    const pricing::BillingRule* rule = catalog != nullptr ? catalog->billing_for(e.provider) : nullptr;
    e.billing = rule != nullptr ? pricing::describe(*rule) : "per second, no minimum (assumed)";
    if (e.trials_seconds) {
      const double instance = *e.trials_seconds + overhead_seconds;
      e.billed_seconds = rule != nullptr ? pricing::billed_seconds(*rule, instance) : instance;
      if (e.usd_per_hour) e.usd_on_demand = *e.usd_per_hour * *e.billed_seconds / 3600;
      if (e.spot_usd_per_hour) e.usd_spot = *e.spot_usd_per_hour * *e.billed_seconds / 3600;
    }
    add(out.usd_on_demand, e.usd_on_demand, od_known);
    add(out.usd_spot, e.usd_spot, spot_known);
    out.shapes.push_back(std::move(e));
  }
  if (!od_known) out.usd_on_demand.reset();
  if (!spot_known) out.usd_spot.reset();
  return out;
}

}  // namespace perfzero::fleet_report
