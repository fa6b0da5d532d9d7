#pragma once
// What a planned campaign will cost before `terraform apply` (`perfzero report --estimate`): the
// suite's trials on each shape, timed from earlier runs of the same cases on that shape (the results
// history), else bounded by the suite's timeouts, plus an allowance for boot, install and upload,
// rounded as the provider bills. Every figure says where it came from (docs/report.md, "Estimating
// a campaign").
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "pricing/price_catalog.hpp"

namespace perfzero::fleet_report {

// One case of the suite: how many times it runs (trials and warm-ups) and its timeout (0: none).
struct PlannedWork {
  std::string case_name;
  int runs = 0;
  double timeout_seconds = 0;
};

// Seconds one trial of each case took on a shape: shape (the history's system) -> case -> seconds.
using TrialDurations = std::map<std::string, std::map<std::string, double>>;

struct ShapeEstimate {
  std::string shape;  // as given: c7i.large, VM.Standard.E4.Flex-4ocpu-16gb
  std::string provider;
  std::optional<double> usd_per_hour;
  std::string price_how;
  std::optional<double> spot_usd_per_hour;
  std::string spot_how;
  int cases_from_history = 0;
  int cases_from_timeouts = 0;
  std::vector<std::string> cases_unknown;  // neither in the history nor with a timeout
  std::optional<double> trials_seconds;    // nullopt when some case is unknown
  double overhead_seconds = 0;
  std::optional<double> billed_seconds;
  std::optional<double> usd_on_demand;
  std::optional<double> usd_spot;
  std::string billing;
  std::vector<std::string> notes;
};

struct CampaignEstimate {
  std::string suite;
  std::string history;  // the database read, or "" when none was given
  int cases = 0;
  int runs = 0;  // trials and warm-ups of every case
  std::vector<ShapeEstimate> shapes;
  std::optional<double> usd_on_demand;  // every shape's; nullopt when one is unknown
  std::optional<double> usd_spot;
};

CampaignEstimate estimate_campaign(const std::vector<PlannedWork>& work, const std::vector<std::string>& shapes,
                                   const TrialDurations& durations, const pricing::Catalog* catalog,
                                   double overhead_seconds);

}  // namespace perfzero::fleet_report
