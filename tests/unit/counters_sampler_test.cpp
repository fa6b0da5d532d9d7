// The counters sampler's arithmetic on recorded readings (samplers/counters_sampler.hpp): metrics
// with units and directions, IPC and miss ratios, the rusage fallback, and the reasons.
#include "samplers/counters_sampler.hpp"

#include <gtest/gtest.h>

#include <cerrno>

#include "compare/gated_metrics.hpp"
#include "results/counter_metrics.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::samplers::counters_sampler_test {
namespace {

const results::MetricValue* find(const SamplerOutput& out, const std::string& name) {
  for (const auto& m : out.metrics) {
    if (m.name == name) return &m;
  }
  return nullptr;
}

CounterReadings all_counted() {
  CounterReadings r;
  const double values[kCounterCount] = {2.5e9, 120, 3, 4000, 8e9, 12e9, 2e9, 5e7, 4e8, 1e8};
  for (std::size_t i = 0; i < kCounterCount; ++i) r.counters[i] = {true, values[i], 0, 1};
  return r;
}

TEST(CountersSampler, IpcAndMissRatiosFromRecordedCounts) {
  const SamplerOutput out = counters_output(all_counted());
  ASSERT_NE(find(out, "ipc"), nullptr);
  EXPECT_DOUBLE_EQ(find(out, "ipc")->value, 1.5);  // 12e9 instructions / 8e9 cycles
  EXPECT_EQ(find(out, "ipc")->direction, Direction::higher_is_better);
  EXPECT_DOUBLE_EQ(find(out, "branch_miss_percent")->value, 2.5);  // 5e7 / 2e9
  EXPECT_DOUBLE_EQ(find(out, "cache_miss_percent")->value, 25);    // 1e8 / 4e8
  EXPECT_DOUBLE_EQ(find(out, "task_clock")->value, 2.5);           // ns to s
  EXPECT_EQ(find(out, "task_clock")->unit, "s");
  EXPECT_EQ(find(out, "context_switches")->direction, Direction::lower_is_better);
  EXPECT_TRUE(out.summary["unavailable"].empty());
}

TEST(CountersSampler, WithoutAPmuTheHardwareCountersAreNamedAndNoRatioIsMade) {
  CounterReadings r = all_counted();
  for (auto c : {Counter::cycles, Counter::instructions, Counter::branches, Counter::branch_misses,
                 Counter::cache_references, Counter::cache_misses}) {
    r[c] = {true, std::nullopt, ENOENT, 0};
  }
  const SamplerOutput out = counters_output(r);
  EXPECT_EQ(find(out, "ipc"), nullptr);
  EXPECT_EQ(find(out, "cycles"), nullptr);
  EXPECT_NE(out.summary["unavailable"]["cycles"].get<std::string>().find("no PMU"), std::string::npos);
  EXPECT_NE(find(out, "page_faults"), nullptr);
  // Enabled but never scheduled on the PMU: unavailable, not a count of 0.
  r[Counter::cycles] = {true, std::nullopt, EBUSY, 0};
  EXPECT_NE(counters_output(r).summary["unavailable"]["cycles"].get<std::string>().find("never on the PMU"),
            std::string::npos);
}

TEST(CountersSampler, WherePerfIsForbiddenSwitchesAndFaultsComeFromRusage) {
  CounterReadings r;
  for (auto& c : r.counters) c = {true, std::nullopt, EACCES, 0};
  r.voluntary_switches = 30;
  r.involuntary_switches = 4;
  r.minor_faults = 900;
  r.major_faults = 2;
  const SamplerOutput out = counters_output(r);
  ASSERT_NE(find(out, "context_switches"), nullptr);
  EXPECT_DOUBLE_EQ(find(out, "context_switches")->value, 34);
  EXPECT_DOUBLE_EQ(find(out, "page_faults")->value, 902);
  EXPECT_EQ(out.summary["counted"]["page_faults"]["source"], "rusage");
  EXPECT_EQ(find(out, "task_clock"), nullptr);
  EXPECT_NE(out.summary["unavailable"]["task_clock"].get<std::string>().find("perf_event_paranoid"), std::string::npos);
}

TEST(CountersSampler, CountersNotAskedForAreNeitherMetricsNorUnavailable) {
  CounterReadings r;
  r[Counter::page_faults] = {true, 10.0, 0, 1};
  const SamplerOutput out = counters_output(r);
  ASSERT_EQ(out.metrics.size(), 1U);
  EXPECT_EQ(out.metrics[0].name, "page_faults");
  EXPECT_TRUE(out.summary["unavailable"].empty());
}

TEST(CountersSampler, ALostLauncherIsSaidAndCountsNothing) {
  const SamplerOutput out = counters_output(std::nullopt);
  EXPECT_EQ(out.summary["available"], false);
  EXPECT_TRUE(out.metrics.empty());
}

// compare shows the counters but gates on them only when --metrics names them.
TEST(CountersSampler, EveryCounterMetricIsShownButNotGatedByDefault) {
  const SamplerOutput out = counters_output(all_counted());
  EXPECT_EQ(out.metrics.size(), 13U);
  for (const auto& m : out.metrics) {
    EXPECT_TRUE(results::is_counter_metric(m.name)) << m.name;
    EXPECT_FALSE(compare::is_gated("", m.name, m.direction)) << m.name;
    // Even one declared with a direction: how the CPU ran the method is not how fast it did its work.
    EXPECT_FALSE(compare::is_gated("", m.name, Direction::lower_is_better)) << m.name;
  }
  EXPECT_TRUE(compare::is_gated("context_switches", "context_switches", Direction::unspecified));
}

TEST(CounterSet, NamesGroupsAndMistakes) {
  std::string why;
  EXPECT_EQ(counter_set("default", why), kAllCounters);
  EXPECT_EQ(counter_set("none", why), 0U);
  EXPECT_EQ(counter_set("software", why), 0b1111U);
  EXPECT_EQ(counter_set("hardware", why), kAllCounters & ~0b1111U);
  EXPECT_EQ(counter_set("page_faults,cycles", why), (1U << 3) | (1U << 4));
  EXPECT_FALSE(counter_set("cycles,", why).has_value());
  EXPECT_NE(why.find("unknown counter ''"), std::string::npos) << why;
  EXPECT_FALSE(counter_set("IPC", why).has_value());
}

}  // namespace
}  // namespace perfzero::samplers::counters_sampler_test
