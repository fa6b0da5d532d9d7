// The cost of the experiment (docs/report.md): each instance from boot to the end of its upload,
// rounded as its provider bills, at its capacity's price; the fleet's total; every figure against a
// hand computation. And the instance timelines the fleet runner writes, read as untrusted files.
#include "fleet_report/experiment_cost.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <filesystem>

#include "fleet_report/report_builder.hpp"
#include "temp_dir.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::fleet_report::experiment_cost_test {
namespace {

using perfzero::testing::TempDir;

constexpr double kStart = 1'800'000'000;  // the runs' execution_timestamp

pricing::Catalog catalog(const TempDir& dir) {
  return pricing::load_catalog(dir.write("prices.yaml", R"(catalog_version: 1
billing:
  - {provider: aws, granularity_seconds: 1, minimum_seconds: 60, source: "https://example.org/b", date: 2026-01-01}
  - {provider: oci, granularity_seconds: 3600, spot_discount: 0.5, source: "https://example.org/b", date: 2026-01-01}
shapes:
  - {provider: aws, shape: small, arch: x86_64, vcpus: 2, usd_per_hour: 0.36, source: "https://example.org/p", date: 2026-06-01,
     spot: {usd_per_hour: 0.12, source: "https://example.org/s", date: 2026-06-02}}
  - {provider: aws, shape: nospot, arch: x86_64, vcpus: 2, usd_per_hour: 0.72, source: "https://example.org/p", date: 2026-06-01}
  - {provider: oci, shape: hourly, arch: x86_64, vcpus: 2, usd_per_hour: 1.0, source: "https://example.org/p", date: 2026-06-01}
  - {provider: gcp, shape: norule, arch: x86_64, vcpus: 2, usd_per_hour: 3.6, source: "https://example.org/p", date: 2026-06-01}
)"));
}

// A run on `shape` whose one trial started `offset` s after the run and took `seconds`.
results::Run run_on(const std::string& provider, const std::string& shape, double offset, double seconds) {
  results::Run run;
  run.info.platform_name = provider;
  run.info.instance_type = shape;
  run.info.execution_timestamp = kStart;
  run.info.system = {{"architecture", "x86_64"}, {"effective_vcpus", 2}};
  results::Case c;
  c.name = std::string("m");  // a literal here trips g++ 12's -Wrestrict false positive
  results::Trial t;
  t.outcome = Outcome::succeeded;
  t.wall_time = seconds;
  t.harness_seconds = seconds;
  t.started_offset = offset;
  c.trials.push_back(t);
  run.cases.push_back(c);
  return run;
}

InstanceLife life(double booted, std::optional<double> ended, const std::string& capacity = "on_demand",
                  const std::string& end = "done") {
  InstanceLife l;
  l.file = "instances/x.json";
  l.booted_at = booted;
  l.ended_at = ended;
  l.capacity = capacity;
  l.end = end;
  return l;
}

FleetReport build(const pricing::Catalog& c, std::vector<std::pair<results::Run, std::vector<InstanceLife>>> runs) {
  ReportBuilder builder({&c, "", "2026-11-22", 365, {}});
  for (std::size_t i = 0; i < runs.size(); ++i) {
    builder.add_run("run" + std::to_string(i), runs[i].first, std::move(runs[i].second));
  }
  return builder.finish({});
}

const ExperimentCost& experiment_of(const FleetReport& r, const std::string& shape) {
  for (const auto& c : r.configurations) {
    if (c.shape == shape) return c.experiment.value();
  }
  throw std::runtime_error("no configuration " + shape);
}

TEST(ExperimentCost, OnDemandIsBilledPerSecondWithItsMinimumFromBootToUpload) {
  TempDir dir;
  const auto c = catalog(dir);
  // Booted 90.2 s before the run, the trial 10 s after its start for 20 s, uploaded 300 s after boot.
  const auto r = build(c, {{run_on("aws", "small", 10, 20), {life(kStart - 90.2, kStart - 90.2 + 300.4)}}});
  const auto& e = experiment_of(r, "small");
  EXPECT_EQ(e.instances, 1);
  EXPECT_EQ(e.capacity, "on_demand");
  EXPECT_NEAR(e.instance_seconds, 300.4, 1e-6);
  EXPECT_DOUBLE_EQ(e.billed_seconds, 301);  // whole seconds, rounded up
  EXPECT_NEAR(*e.usd, 301 * 0.36 / 3600, 1e-12);
  EXPECT_NEAR(*e.usd_on_demand, *e.usd, 1e-12);
  EXPECT_NEAR(*e.usd_spot, 301 * 0.12 / 3600, 1e-12);  // the shape's dated spot price
  EXPECT_NEAR(*e.before_first_trial_seconds, 100.2, 1e-6);
  EXPECT_NEAR(*e.trials_seconds, 20, 1e-9);
  EXPECT_EQ(e.billing, "per second, 60 s minimum (aws, 2026-01-01 (https://example.org/b))");
  ASSERT_TRUE(r.experiment_total);
  EXPECT_NEAR(*r.experiment_total->usd, *e.usd, 1e-12);
}

TEST(ExperimentCost, AShortInstanceIsBilledTheMinimumAndHourlyBillingRoundsUp) {
  TempDir dir;
  const auto c = catalog(dir);
  const auto r = build(c, {{run_on("aws", "small", 1, 1), {life(kStart - 5, kStart + 25)}},
                           {run_on("oci", "hourly", 1, 1), {life(kStart - 5, kStart + 3601 - 5)}}});
  EXPECT_DOUBLE_EQ(experiment_of(r, "small").billed_seconds, 60);
  const auto& hourly = experiment_of(r, "hourly");
  EXPECT_DOUBLE_EQ(hourly.billed_seconds, 7200);  // 3601 s in whole hours
  EXPECT_NEAR(*hourly.usd, 2.0, 1e-12);
  EXPECT_NEAR(*hourly.usd_spot, 1.0, 1e-12);  // OCI's fixed 50 % off on-demand
  EXPECT_NEAR(*r.experiment_total->usd, 60 * 0.36 / 3600 + 2.0, 1e-12);
  EXPECT_NEAR(*r.experiment_total->usd_on_demand, *r.experiment_total->usd, 1e-12);
  EXPECT_NEAR(*r.experiment_total->usd_spot, 60 * 0.12 / 3600 + 1.0, 1e-12);
}

TEST(ExperimentCost, APreemptedSpotInstanceAndItsReplacementAreBothBilledAtTheSpotPrice) {
  TempDir dir;
  const auto c = catalog(dir);
  // The first instance ran 1000 s and was taken back; the replacement booted later and finished.
  const auto r = build(
      c,
      {{run_on("aws", "small", 0, 1500),
        {life(kStart - 60, kStart + 940, "spot", "preempted"), life(kStart + 1000, kStart + 1800, "spot", "done")}}});
  const auto& e = experiment_of(r, "small");
  EXPECT_EQ(e.instances, 2);
  EXPECT_EQ(e.preempted, 1);
  EXPECT_EQ(e.capacity, "spot");
  EXPECT_DOUBLE_EQ(e.billed_seconds, 1000 + 800);
  EXPECT_NEAR(*e.usd, 1800 * 0.12 / 3600, 1e-12);
  EXPECT_NEAR(*e.usd_on_demand, 1800 * 0.36 / 3600, 1e-12);
  EXPECT_NEAR(*e.before_first_trial_seconds, 60, 1e-9);  // from the boot of the instance that ran it
}

TEST(ExperimentCost, TrialsKeptByResumeAreBilledButNotSpannedAndTheSpanIsTheReplacements) {
  TempDir dir;
  const auto c = catalog(dir);
  // The replacement booted at +1000 and ran trial 2 from +1100 for 300 s; trial 1 was kept from the
  // first instance (--resume), its offset from that process's start, meaningless here.
  results::Run run = run_on("aws", "small", 1100, 300);
  results::Trial kept = run.cases[0].trials[0];
  kept.resumed = true;
  kept.started_offset = -4000;
  run.cases[0].trials.insert(run.cases[0].trials.begin(), kept);
  const auto r = build(
      c,
      {{run,
        {life(kStart - 60, kStart + 940, "spot", "preempted"), life(kStart + 1000, kStart + 1500, "spot", "done")}}});
  const auto& e = experiment_of(r, "small");
  EXPECT_NEAR(*e.before_first_trial_seconds, 100, 1e-9);
  EXPECT_NEAR(*e.trials_seconds, 300, 1e-9);
  EXPECT_DOUBLE_EQ(e.billed_seconds, 1000 + 500);
  ASSERT_FALSE(e.notes.empty());
  EXPECT_NE(e.notes.back().find("1 trial(s) kept from an earlier instance"), std::string::npos) << e.notes.back();
}

TEST(ExperimentCost, UnknownFiguresAreEmptyAndSaidNeverGuessed) {
  TempDir dir;
  const auto c = catalog(dir);
  const auto r = build(c, {{run_on("aws", "nospot", 0, 1), {life(kStart - 10, kStart + 100, "spot")}},
                           {run_on("gcp", "norule", 0, 1), {life(kStart - 10, kStart + 20.5)}},
                           {run_on("aws", "small", 0, 1), {life(kStart - 10, std::nullopt, "on_demand", "running")}},
                           {run_on("aws", "unknown.shape", 0, 1), {life(kStart - 10, kStart + 100)}}});
  const auto& nospot = experiment_of(r, "nospot");
  EXPECT_FALSE(nospot.usd);  // spot capacity, and no spot price: the bill is unknown, not the on-demand one
  EXPECT_NEAR(*nospot.usd_on_demand, 110 * 0.72 / 3600, 1e-12);
  EXPECT_NE(nospot.notes.at(0).find("no spot price"), std::string::npos) << nospot.notes.at(0);
  const auto& norule = experiment_of(r, "norule");
  EXPECT_DOUBLE_EQ(norule.billed_seconds, 30.5);  // no billing rule: the seconds as they were, said
  EXPECT_EQ(norule.billing, "per second, no minimum (assumed)");
  EXPECT_NEAR(*norule.usd, 30.5 * 3.6 / 3600, 1e-12);
  const auto& running = experiment_of(r, "small");
  EXPECT_FALSE(running.usd);
  EXPECT_NE(running.notes.at(0).find("no end recorded"), std::string::npos) << running.notes.at(0);
  EXPECT_FALSE(experiment_of(r, "unknown.shape").usd);
  const auto& total = *r.experiment_total;
  EXPECT_EQ(total.configurations, 4);
  EXPECT_EQ(total.left_out.size(), 3U);  // nospot, small (no end) and the unpriced shape
  EXPECT_NEAR(*total.usd, 30.5 * 3.6 / 3600, 1e-12);
  EXPECT_FALSE(total.usd_on_demand);  // a what-if total holds every configuration or none
}

TEST(ExperimentCost, RunsWithoutTimelinesHaveNoExperiment) {
  TempDir dir;
  const auto c = catalog(dir);
  const auto r = build(c, {{run_on("aws", "small", 0, 1), {}}});
  EXPECT_FALSE(r.configurations.at(0).experiment);
  EXPECT_FALSE(r.experiment_total);
}

TEST(InstanceTimeline, TheRunnersFileIsReadAndBrokenOnesAreRefusedWithTheReason) {
  const auto ok = parse_instance_life(
      R"({"instance_timeline_version": 1, "instance": "ip-10-0-0-1", "capacity": "spot", "booted_at": 100,
          "container_started_at": 130, "upload_ended_at": 400, "end": "done"})",
      "f.json");
  EXPECT_EQ(ok.capacity, "spot");
  EXPECT_DOUBLE_EQ(ok.booted_at, 100);
  EXPECT_DOUBLE_EQ(*ok.ended_at, 400);
  const auto seen = parse_instance_life(R"({"instance_timeline_version": 1, "booted_at": 100, "last_seen_at": 250,
                                            "end": "preempted"})",
                                        "f.json");
  EXPECT_DOUBLE_EQ(*seen.ended_at, 250);
  EXPECT_EQ(seen.capacity, "on_demand");
  const auto error = [](const std::string& text) {
    try {
      parse_instance_life(text, "f.json");
    } catch (const std::runtime_error& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  EXPECT_NE(error("[1]").find("not a JSON object"), std::string::npos);
  EXPECT_NE(error(R"({"instance_timeline_version": 2, "booted_at": 1})").find("instance_timeline_version"),
            std::string::npos);
  EXPECT_NE(error(R"({"instance_timeline_version": 1})").find("'booted_at' is missing"), std::string::npos);
  EXPECT_NE(error(R"({"instance_timeline_version": 1, "booted_at": "soon"})").find("seconds since the epoch"),
            std::string::npos);
  EXPECT_NE(error(R"({"instance_timeline_version": 1, "booted_at": 100, "upload_ended_at": 50})").find("before"),
            std::string::npos);
  EXPECT_NE(error(R"({"instance_timeline_version": 1, "booted_at": 100, "capacity": "cheap"})").find("on_demand, spot"),
            std::string::npos);
}

TEST(InstanceTimeline, FifosSymlinksAndHugeFilesAreNamedNotReadAndNothingHangs) {
  TempDir dir;
  const auto run = dir.path() / "run";
  std::filesystem::create_directories(run / "instances");
  dir.write("run/instances/a.json", R"({"instance_timeline_version": 1, "booted_at": 100, "upload_ended_at": 200})");
  ASSERT_EQ(::mkfifo((run / "instances" / "fifo.json").c_str(), 0600), 0);
  std::filesystem::create_symlink("/dev/zero", run / "instances" / "zero.json");
  dir.write("run/instances/huge.json", std::string(1 << 20, ' '));
  // Valid but for its bytes: refused by the JSON parser for them, not for a missing field.
  dir.write("run/instances/bytes.json",
            std::string(R"({"instance_timeline_version": 1, "booted_at": 100, "instance": ")") + "\xff\xfe\"}");
  dir.write("run/instances/notes.txt", "not a timeline, not read");
  std::vector<std::string> problems;
  const auto lives = read_instance_lives(run, problems);
  ASSERT_EQ(lives.size(), 1U);
  EXPECT_DOUBLE_EQ(lives[0].booted_at, 100);
  EXPECT_EQ(problems.size(), 4U) << ::testing::PrintToString(problems);
  for (const auto& p : problems) EXPECT_NE(p.find("instances/"), std::string::npos) << p;
  const bool bytes_named = std::any_of(problems.begin(), problems.end(), [](const std::string& p) {
    return p.find("bytes.json: not an instance timeline: not a JSON object") != std::string::npos;
  });
  EXPECT_TRUE(bytes_named) << ::testing::PrintToString(problems);
  // No instances folder at all: nothing, and nothing to say.
  problems.clear();
  EXPECT_TRUE(read_instance_lives(dir.path() / "elsewhere", problems).empty());
  EXPECT_TRUE(problems.empty());
}

}  // namespace
}  // namespace perfzero::fleet_report::experiment_cost_test
