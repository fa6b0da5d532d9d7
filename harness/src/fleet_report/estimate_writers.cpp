#include "fleet_report/estimate_writers.hpp"

#include <fmt/format.h>

#include "common/escape.hpp"
#include "fleet_report/figure_text.hpp"

namespace perfzero::fleet_report {

void write_estimate_markdown(const CampaignEstimate& estimate, std::ostream& out) {
  const auto md = [](const std::string& s) { return text::md_cell(s); };
  const auto seconds = [](const std::optional<double>& s) { return s ? duration_text(*s) : std::string(); };
  out << fmt::format("# perfzero report --estimate: {}\n\n", md(estimate.suite));
  out << fmt::format(
      "{} case(s), {} trial and warm-up run(s) on each shape. Every figure is an estimate: trials' time from {}, "
      "plus the overhead an instance spends outside them, rounded as the provider bills.\n\n",
      estimate.cases, estimate.runs,
      estimate.history.empty()
          ? "the suite's timeouts (no --history: an upper bound)"
          : "the newest earlier run of each case on the shape in " + md(estimate.history) + " (else its timeout)");
  out << "| shape | provider | $ per hour | cases timed by history | by timeout | trials | overhead | billed | "
         "billing | on demand | spot | notes |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n";
  for (const auto& e : estimate.shapes) {
    out << fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n", md(e.shape), md(e.provider),
                       e.usd_per_hour ? md(money(e.usd_per_hour) + " (" + e.price_how + ")") : "", e.cases_from_history,
                       e.cases_from_timeouts, seconds(e.trials_seconds), duration_text(e.overhead_seconds),
                       seconds(e.billed_seconds), md(e.billing), money(e.usd_on_demand),
                       e.usd_spot ? md(money(e.usd_spot) + " (" + e.spot_how + ")") : "",
                       md(fmt::format("{}", fmt::join(e.notes, "; "))));
  }
  out << fmt::format("\n**The campaign:** on demand {}{}.\n",
                     estimate.usd_on_demand ? money(estimate.usd_on_demand) : "unknown (a shape above has no figure)",
                     estimate.usd_spot ? ", on spot " + money(estimate.usd_spot) : "");
}

nlohmann::json estimate_json(const CampaignEstimate& estimate) {
  const auto opt = [](const std::optional<double>& v) { return v ? nlohmann::json(*v) : nlohmann::json(nullptr); };
  nlohmann::json shapes = nlohmann::json::array();
  for (const auto& e : estimate.shapes) {
    shapes.push_back({{"shape", e.shape},
                      {"provider", e.provider},
                      {"usd_per_hour", opt(e.usd_per_hour)},
                      {"price_how", e.price_how},
                      {"spot_usd_per_hour", opt(e.spot_usd_per_hour)},
                      {"spot_how", e.spot_how},
                      {"cases_from_history", e.cases_from_history},
                      {"cases_from_timeouts", e.cases_from_timeouts},
                      {"cases_unknown", e.cases_unknown},
                      {"trials_seconds", opt(e.trials_seconds)},
                      {"overhead_seconds", e.overhead_seconds},
                      {"billed_seconds", opt(e.billed_seconds)},
                      {"billing", e.billing},
                      {"usd_on_demand", opt(e.usd_on_demand)},
                      {"usd_spot", opt(e.usd_spot)},
                      {"notes", e.notes}});
  }
  return {{"estimate", true},
          {"suite", estimate.suite},
          {"history", estimate.history},
          {"cases", estimate.cases},
          {"runs", estimate.runs},
          {"shapes", shapes},
          {"usd_on_demand", opt(estimate.usd_on_demand)},
          {"usd_spot", opt(estimate.usd_spot)}};
}

}  // namespace perfzero::fleet_report
