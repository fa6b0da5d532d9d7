// perfzero::measure(), its series' statistics and the shared timing parameters.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <thread>

#include "api/result_protocol.hpp"
#include "perfzero/benchmark.hpp"
#include "perfzero/cpus.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::measure_test {
namespace {

using namespace std::chrono_literals;

MeasureOptions options(std::int64_t warmups, std::int64_t min_repetitions) {
  MeasureOptions o;
  o.name = "work";
  o.warmups = warmups;
  o.min_repetitions = min_repetitions;
  return o;
}

// Busy-waits, so the time barely varies (a sleep's wake-up does).
void spin_for(std::chrono::microseconds duration) {
  const auto start = std::chrono::steady_clock::now();
  while (std::chrono::steady_clock::now() - start < duration) {
  }
}

TEST(Measure, WarmupsRunButAreNotSamples) {
  Context ctx(ParamMap{});
  int calls = 0;
  const RepetitionSeries s = measure(ctx, options(2, 3), [&] { ++calls; });
  EXPECT_EQ(calls, 5);
  EXPECT_EQ(s.size(), 3U);
  EXPECT_EQ(s.warmups, 2);
  EXPECT_EQ(s.stopped_by, StopReason::min_repetitions_and_time);
}

TEST(Measure, SetupRunsUntimedBeforeEveryRepetition) {
  Context ctx(ParamMap{});
  int setups = 0;
  const RepetitionSeries s = measure(
      ctx, options(1, 3),
      [&] {
        ++setups;
        std::this_thread::sleep_for(20ms);
      },
      [] {});
  EXPECT_EQ(setups, 4);
  ASSERT_EQ(s.size(), 3U);
  EXPECT_LT(s.max(), 0.015);  // the empty body, not the 20 ms setup
}

TEST(Measure, MinimumRepetitionsAndTimeAreBothHonoured) {
  Context ctx(ParamMap{});
  MeasureOptions o = options(0, 2);
  o.min_time = 0.03;
  const RepetitionSeries s = measure(ctx, o, [] { std::this_thread::sleep_for(2ms); });
  EXPECT_GE(std::accumulate(s.values.begin(), s.values.end(), 0.0), 0.03);
  EXPECT_GE(s.size(), 2U);
  EXPECT_LE(s.size(), 16U);  // stops once 30 ms of 2 ms sleeps are in
  EXPECT_EQ(s.stopped_by, StopReason::min_repetitions_and_time);
}

TEST(Measure, AConstantTimeCallableMeetsTheNoiseTargetEarly) {
  Context ctx(ParamMap{});
  MeasureOptions o = options(1, 3);
  // On an idle machine a handful of repetitions meet 10 %; on a loaded one (ctest -j, shared cores)
  // preempted repetitions make the times heavy-tailed, so the caps are generous: it must be the
  // noise target that stops the loop, whatever the load.
  o.noise_target = 0.10;
  o.max_repetitions = 1'000'000;
  o.max_time = 60;
  const RepetitionSeries s = measure(ctx, o, [] { spin_for(200us); });
  EXPECT_EQ(s.stopped_by, StopReason::noise_target);
  EXPECT_LE(s.relative_noise(), 0.10);
}

TEST(Measure, TheTimeCapStopsASlowCallableBelowTheMinimum) {
  Context ctx(ParamMap{});
  MeasureOptions o = options(1, 100);
  o.max_time = 0.1;
  const RepetitionSeries s = measure(ctx, o, [] { std::this_thread::sleep_for(30ms); });
  EXPECT_EQ(s.stopped_by, StopReason::time_cap);
  EXPECT_GE(s.size(), 1U);
  EXPECT_LE(s.size(), 4U);
}

TEST(Measure, TheRepetitionCapStopsANoiseTargetNeverMet) {
  Context ctx(ParamMap{});
  MeasureOptions o = options(0, 2);
  o.noise_target = 1e-12;
  o.max_repetitions = 7;
  const RepetitionSeries s = measure(ctx, o, [] { std::this_thread::sleep_for(1ms); });
  EXPECT_EQ(s.stopped_by, StopReason::max_repetitions);
  EXPECT_EQ(s.size(), 7U);
}

TEST(Measure, AnExceptionFromTheCallablePropagatesAndNothingIsRecorded) {
  Context ctx(ParamMap{});
  int calls = 0;
  EXPECT_THROW(measure(ctx, options(1, 5),
                       [&] {
                         if (++calls == 3) throw std::runtime_error("kernel failed");
                       }),
               std::runtime_error);
  EXPECT_TRUE(ctx.repetitions().empty());
}

TEST(Measure, InconsistentOptionsAndReusedNamesAreRejected) {
  Context ctx(ParamMap{});
  MeasureOptions o = options(0, 5);
  o.max_repetitions = 2;
  EXPECT_THROW(measure(ctx, o, [] {}), std::invalid_argument);
  measure(ctx, options(0, 1), [] {});
  EXPECT_THROW(measure(ctx, options(0, 1), [] {}), std::invalid_argument);  // "work" again
  EXPECT_NO_THROW(measure(ctx, options(0, 1).named("other"), [] {}));
}

TEST(Measure, EverySeriesGoesIntoTheResultFile) {
  Context ctx(ParamMap{});
  measure(ctx, options(2, 3).named("first"), [] {});
  measure(ctx, options(0, 1).named("second"), [] {});
  const auto result = detail::context_to_result(ctx);
  ASSERT_EQ(result["repetitions"].size(), 2U);
  const auto& first = result["repetitions"][0];
  EXPECT_EQ(first["name"], "first");
  EXPECT_EQ(first["unit"], "s");
  EXPECT_EQ(first["values"].size(), 3U);
  EXPECT_EQ(first["warmups"], 2);
  EXPECT_EQ(first["stopped_by"], "min_repetitions_and_time");
  EXPECT_TRUE(first["relative_noise"].is_number());
  EXPECT_TRUE(result["repetitions"][1]["relative_noise"].is_null());  // one value: undefined
}

TEST(RepetitionSeries, Statistics) {
  const RepetitionSeries s{.name = "x", .values = {5, 1, 4, 2, 3}};
  EXPECT_DOUBLE_EQ(s.median(), 3);
  EXPECT_DOUBLE_EQ(s.mean(), 3);
  EXPECT_DOUBLE_EQ(s.min(), 1);
  EXPECT_DOUBLE_EQ(s.max(), 5);
  EXPECT_NEAR(s.stddev(), std::sqrt(2.5), 1e-12);
  // t(0.975, 4 df) = 2.776: half-width 2.776 * 1.5811 / sqrt(5) = 1.963, over the mean 3.
  EXPECT_NEAR(s.relative_noise(), 0.6544, 1e-3);
  const RepetitionSeries even{.name = "y", .values = {4, 1, 3, 2}};
  EXPECT_DOUBLE_EQ(even.median(), 2.5);
  EXPECT_TRUE(std::isinf(RepetitionSeries{.name = "z", .values = {1}}.relative_noise()));
  EXPECT_THROW(RepetitionSeries{}.median(), std::logic_error);
}

TEST(StandardParams, MeasureOptionsComeFromParamsOrDefaults) {
  const params::MeasureDefaults d{.repetitions_name = "steps", .repetitions = 30, .warmups = 2};
  const auto specs = params::measure_specs(d);
  ASSERT_FALSE(specs.empty());
  EXPECT_EQ(specs.front().name, "steps");
  const MeasureOptions absent = params::measure_options(Context(ParamMap{}), d);
  EXPECT_EQ(absent.min_repetitions, 30);
  EXPECT_EQ(absent.warmups, 2);
  EXPECT_FALSE(absent.noise_target.has_value());
  const MeasureOptions given = params::measure_options(
      Context(ParamMap{{"steps", std::int64_t{12}}, {"noise_target", 0.02}, {"min_time", std::int64_t{1}}}), d);
  EXPECT_EQ(given.min_repetitions, 12);
  EXPECT_DOUBLE_EQ(given.noise_target.value_or(0), 0.02);
  EXPECT_DOUBLE_EQ(given.min_time, 1.0);
  try {
    params::measure_options(Context(ParamMap{{"steps", std::int64_t{0}}}), d);
    FAIL() << "steps 0 was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("'steps'"), std::string::npos) << e.what();
  }
  EXPECT_THROW(params::measure_options(Context(ParamMap{{"max_time", 0.0}}), d), std::invalid_argument);
}

TEST(StandardParams, ThreadsZeroMeansEveryAllowedCpu) {
  EXPECT_EQ(params::threads().name, "threads");
  EXPECT_EQ(params::threads_from(Context(ParamMap{{"threads", std::int64_t{0}}})), allowed_threads());
  EXPECT_EQ(params::threads_from(Context(ParamMap{{"threads", std::int64_t{3}}})), 3);
  EXPECT_THROW(params::threads_from(Context(ParamMap{{"threads", std::int64_t{-1}}})), std::invalid_argument);
}

}  // namespace
}  // namespace perfzero::measure_test
