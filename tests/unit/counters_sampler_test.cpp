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

// The summary goes into every trial's journal line and report: built field by field, it must be the
// same text as ever (a run's files are byte-identical). Each case's dump, as the harness wrote it
// before that change.
TEST(CountersSampler, TheSummarysTextIsUnchanged) {
  CounterReadings vm = all_counted();
  for (auto c : {Counter::cycles, Counter::instructions, Counter::branches, Counter::branch_misses,
                 Counter::cache_references, Counter::cache_misses}) {
    vm[c] = {true, std::nullopt, ENOENT, 0};
  }
  vm.voluntary_switches = 1;
  vm.minor_faults = 60;
  CounterReadings forbidden;
  forbidden[Counter::context_switches] = {true, std::nullopt, ENOSYS, 0};
  forbidden[Counter::page_faults] = {true, std::nullopt, ENOSYS, 0};
  forbidden.involuntary_switches = 2;
  forbidden.major_faults = 1;
  forbidden.user_only = true;
  const std::string dumps = counters_output(all_counted()).summary.dump() + "\n" + counters_output(vm).summary.dump() +
                            "\n" + counters_output(forbidden).summary.dump() + "\n" +
                            counters_output(std::nullopt).summary.dump();
  const std::string expected =
      R"j({"available":true,"counted":{"branch_miss_percent":{"source":"branch_misses / branches","value":2.5})j"
      R"j(,"branch_misses":{"running_share":1.0,"source":"perf_event","value":50000000.0},"branches":{"running)j"
      R"j(_share":1.0,"source":"perf_event","value":2000000000.0},"cache_miss_percent":{"source":"cache_misses)j"
      R"j( / cache_references","value":25.0},"cache_misses":{"running_share":1.0,"source":"perf_event","value")j"
      R"j(:100000000.0},"cache_references":{"running_share":1.0,"source":"perf_event","value":400000000.0},"co)j"
      R"j(ntext_switches":{"running_share":1.0,"source":"perf_event","value":120.0},"cpu_migrations":{"running)j"
      R"j(_share":1.0,"source":"perf_event","value":3.0},"cycles":{"running_share":1.0,"source":"perf_event",")j"
      R"j(value":8000000000.0},"instructions":{"running_share":1.0,"source":"perf_event","value":12000000000.0)j"
      R"j(},"ipc":{"source":"instructions / cycles","value":1.5},"page_faults":{"running_share":1.0,"source":")j"
      R"j(perf_event","value":4000.0},"task_clock":{"running_share":1.0,"source":"perf_event","value":2.5}},"r)j"
      R"j(usage":{"involuntary_switches":0,"major_faults":0,"minor_faults":0,"voluntary_switches":0},"unavaila)j"
      R"j(ble":{},"user_space_only":false})j"
      "\n"
      R"j({"available":true,"counted":{"context_switches":{"running_share":1.0,"source":"perf_event","value":1)j"
      R"j(20.0},"cpu_migrations":{"running_share":1.0,"source":"perf_event","value":3.0},"page_faults":{"runni)j"
      R"j(ng_share":1.0,"source":"perf_event","value":4000.0},"task_clock":{"running_share":1.0,"source":"perf)j"
      R"j(_event","value":2.5}},"rusage":{"involuntary_switches":0,"major_faults":0,"minor_faults":60,"volunta)j"
      R"j(ry_switches":1},"unavailable":{"branch_misses":"this machine has no PMU for it (a VM without a virtu)j"
      R"j(al PMU: perf_event_open says ENOENT)","branches":"this machine has no PMU for it (a VM without a vir)j"
      R"j(tual PMU: perf_event_open says ENOENT)","cache_misses":"this machine has no PMU for it (a VM without)j"
      R"j( a virtual PMU: perf_event_open says ENOENT)","cache_references":"this machine has no PMU for it (a )j"
      R"j(VM without a virtual PMU: perf_event_open says ENOENT)","cycles":"this machine has no PMU for it (a )j"
      R"j(VM without a virtual PMU: perf_event_open says ENOENT)","instructions":"this machine has no PMU for )j"
      R"j(it (a VM without a virtual PMU: perf_event_open says ENOENT)"},"user_space_only":false})j"
      "\n"
      R"j({"available":true,"counted":{"context_switches":{"running_share":1.0,"source":"rusage","value":2.0},)j"
      R"j("page_faults":{"running_share":1.0,"source":"rusage","value":1.0}},"rusage":{"involuntary_switches":)j"
      R"j(2,"major_faults":1,"minor_faults":0,"voluntary_switches":0},"unavailable":{"context_switches":"this )j"
      R"j(kernel has no perf_event_open","page_faults":"this kernel has no perf_event_open"},"user_space_only")j"
      R"j(:true})j"
      "\n"
      R"({"available":false,"why":"perfzero-launch was lost with the method: nothing was read"})";
  EXPECT_EQ(dumps, expected);
}

}  // namespace
}  // namespace perfzero::samplers::counters_sampler_test
