// `perfzero report --estimate`'s arithmetic (docs/report.md, "Estimating a campaign"): trials timed
// by the history, else bounded by timeouts, plus the overhead, rounded as billed; each figure
// against a hand computation.
#include "fleet_report/campaign_estimate.hpp"
#include "fleet_report/estimate_writers.hpp"

#include <gtest/gtest.h>

#include <sstream>

#include "temp_dir.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::fleet_report::campaign_estimate_test {
namespace {

using perfzero::testing::TempDir;

pricing::Catalog catalog(const TempDir& dir) {
  return pricing::load_catalog(dir.write("prices.yaml", R"(catalog_version: 1
billing:
  - {provider: aws, granularity_seconds: 1, minimum_seconds: 60, source: "https://example.org/b", date: 2026-01-01}
  - {provider: oci, granularity_seconds: 60, spot_discount: 0.5, source: "https://example.org/b", date: 2026-01-01}
shapes:
  - {provider: aws, shape: small, arch: x86_64, vcpus: 2, usd_per_hour: 0.36, source: "https://example.org/p", date: 2026-06-01}
  - {provider: oci, shape: E.Flex, arch: x86_64, flexible: {usd_per_ocpu_hour: 0.03, usd_per_gib_hour: 0.002}, source: "https://example.org/o", date: 2026-06-01}
)"));
}

const std::vector<PlannedWork> kWork = {{"fast", 5, 600}, {"slow", 3, 3600}};

TEST(CampaignEstimate, TrialsFromTheHistoryPlusOverheadAreBilledAsTheProviderBills) {
  TempDir dir;
  const auto c = catalog(dir);
  const TrialDurations history = {{"small", {{"fast", 2.0}, {"slow", 100.0}}}};
  const auto e = estimate_campaign(kWork, {"small"}, history, &c, 300);
  ASSERT_EQ(e.shapes.size(), 1U);
  const auto& s = e.shapes[0];
  EXPECT_EQ(s.cases_from_history, 2);
  EXPECT_EQ(s.cases_from_timeouts, 0);
  EXPECT_DOUBLE_EQ(*s.trials_seconds, 5 * 2.0 + 3 * 100.0);
  EXPECT_DOUBLE_EQ(*s.billed_seconds, 310 + 300);
  EXPECT_NEAR(*s.usd_on_demand, 610 * 0.36 / 3600, 1e-12);
  EXPECT_FALSE(s.usd_spot);  // AWS: no spot price in this catalog
  EXPECT_EQ(e.runs, 8);
  EXPECT_NEAR(*e.usd_on_demand, *s.usd_on_demand, 1e-12);
  EXPECT_FALSE(e.usd_spot);
}

TEST(CampaignEstimate, CasesNotInTheHistoryAreBoundedByTheirTimeoutsAndSaySo) {
  TempDir dir;
  const auto c = catalog(dir);
  const TrialDurations history = {{"E.Flex-4ocpu-16gb", {{"fast", 2.0}}}};
  const auto e = estimate_campaign(kWork, {"E.Flex-4ocpu-16gb"}, history, &c, 0);
  const auto& s = e.shapes.at(0);
  EXPECT_EQ(s.cases_from_history, 1);
  EXPECT_EQ(s.cases_from_timeouts, 1);
  EXPECT_DOUBLE_EQ(*s.trials_seconds, 10 + 3 * 3600);
  EXPECT_DOUBLE_EQ(*s.billed_seconds, 181 * 60);  // 10,810 s in whole minutes
  const double per_hour = 4 * 0.03 + 16 * 0.002;
  EXPECT_NEAR(*s.usd_per_hour, per_hour, 1e-12);
  EXPECT_NEAR(*s.usd_on_demand, per_hour * 10860 / 3600, 1e-12);
  EXPECT_NEAR(*s.usd_spot, per_hour * 0.5 * 10860 / 3600, 1e-12);
  EXPECT_NE(s.notes.at(0).find("upper bound"), std::string::npos) << s.notes.at(0);
}

TEST(CampaignEstimate, WhatCannotBeEstimatedIsEmptyAndNamed) {
  TempDir dir;
  const auto c = catalog(dir);
  const std::vector<PlannedWork> work = {{"untimed", 2, 0}};
  const auto e = estimate_campaign(work, {"small", "E.Flex", "m9.huge"}, {}, &c, 60);
  EXPECT_FALSE(e.shapes[0].trials_seconds);  // no history, no timeout
  EXPECT_NE(e.shapes[0].notes.back().find("untimed"), std::string::npos);
  EXPECT_FALSE(e.shapes[1].usd_per_hour);  // a flexible shape without its size
  EXPECT_NE(e.shapes[1].notes.at(0).find("E.Flex-4ocpu-16gb"), std::string::npos) << e.shapes[1].notes.at(0);
  EXPECT_NE(e.shapes[2].notes.at(0).find("not in the catalog"), std::string::npos);
  EXPECT_FALSE(e.usd_on_demand);
  std::ostringstream md;
  write_estimate_markdown(e, md);
  EXPECT_NE(md.str().find("on demand unknown"), std::string::npos) << md.str();
  EXPECT_EQ(estimate_json(e).at("usd_on_demand"), nullptr);
}

}  // namespace
}  // namespace perfzero::fleet_report::campaign_estimate_test
