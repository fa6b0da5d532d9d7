#include "child_results/google_benchmark_result.hpp"

#include <gtest/gtest.h>

#include <algorithm>

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::child_results::google_benchmark_result_test {
namespace {

const std::filesystem::path kFixtures = PERFZERO_FIXTURES_DIR;

const Metric* find(const ChildResult& r, const std::string& name) {
  auto it = std::find_if(r.metrics.begin(), r.metrics.end(), [&](const Metric& m) { return m.name == name; });
  return it == r.metrics.end() ? nullptr : &*it;
}

TEST(GoogleBenchmarkResult, ReadsARealReportWithRepetitionsAndAggregates) {
  // Written by perfzero-micro --benchmark_repetitions=2 --benchmark_out_format=json.
  const auto parsed = read_google_benchmark(kFixtures / "google_benchmark" / "perfzero_micro.json");
  ASSERT_TRUE(std::holds_alternative<ChildResult>(parsed)) << std::get<std::string>(parsed);
  const auto& r = std::get<ChildResult>(parsed);
  const Metric* rate = find(r, "BM_memcpy/4096_mean.bytes_per_second");
  ASSERT_NE(rate, nullptr);
  EXPECT_EQ(rate->unit, "B/s");
  EXPECT_GT(rate->value, 0.0);
  const Metric* time = find(r, "BM_philox4x32_10_median.real_time");
  ASSERT_NE(time, nullptr);
  EXPECT_EQ(time->unit, "ns");
  EXPECT_NE(find(r, "BM_philox4x32_10/repetition_1.items_per_second"), nullptr);  // repetitions kept apart
  EXPECT_EQ(find(r, "BM_philox4x32_10.iterations"), nullptr);                     // a count, not a measurement
  EXPECT_TRUE(r.extras.contains("google_benchmark_context"));
  EXPECT_FALSE(r.error.has_value());
}

TEST(GoogleBenchmarkResult, AFailedEntryIsNamedAndTheOthersKeepTheirMetrics) {
  const auto parsed = parse_google_benchmark(R"({"benchmarks": [
      {"name": "BM_ok", "run_type": "iteration", "iterations": 10, "real_time": 2.5, "cpu_time": 2.4,
       "time_unit": "us", "hits": 17},
      {"name": "BM_bad", "error_occurred": true, "error_message": "out of memory"}]})");
  ASSERT_TRUE(std::holds_alternative<ChildResult>(parsed));
  const auto& r = std::get<ChildResult>(parsed);
  EXPECT_EQ(find(r, "BM_ok.real_time")->unit, "us");
  EXPECT_EQ(find(r, "BM_ok.hits")->value, 17);  // a user counter
  EXPECT_EQ(find(r, "BM_ok.hits")->unit, "1");
  EXPECT_FALSE(r.error.has_value());
  EXPECT_EQ(r.extras["google_benchmark_errors"]["BM_bad"], "out of memory");
  EXPECT_EQ(r.flags, std::vector<std::string>{"benchmark_entry_error"});
}

TEST(GoogleBenchmarkResult, OnlyFailedEntriesFailTheTrial) {
  const auto parsed = parse_google_benchmark(R"({"benchmarks": [
      {"name": "BM_bad", "error_occurred": true, "error_message": "out of memory"}]})");
  ASSERT_TRUE(std::holds_alternative<ChildResult>(parsed));
  const auto& r = std::get<ChildResult>(parsed);
  ASSERT_TRUE(r.error.has_value());
  EXPECT_NE(r.error->find("BM_bad: out of memory"), std::string::npos);
}

TEST(GoogleBenchmarkResult, NonFiniteValuesAreNamedNotDropped) {
  // libbenchmark writes these bare; a NaN used to make the whole file "not a JSON object".
  const auto parsed = parse_google_benchmark(R"({"benchmarks": [
      {"name": "BM_a", "real_time": 1.0, "time_unit": "ns", "r": NaN, "up": Infinity, "down": -Infinity,
       "label": "NaN Infinity"}]})");
  ASSERT_TRUE(std::holds_alternative<ChildResult>(parsed)) << std::get<std::string>(parsed);
  const auto& r = std::get<ChildResult>(parsed);
  EXPECT_EQ(r.metrics.size(), 1u);
  EXPECT_EQ(r.extras["non_finite_metrics"],
            (nlohmann::json{{"BM_a.r", "NaN"}, {"BM_a.up", "Infinity"}, {"BM_a.down", "-Infinity"}}));
  EXPECT_EQ(r.flags, std::vector<std::string>{"non_finite_metric"});
}

TEST(GoogleBenchmarkResult, UnitsOfRatesAndCoefficientsOfVariation) {
  const auto parsed = read_google_benchmark(kFixtures / "google_benchmark" / "perfzero_micro.json");
  ASSERT_TRUE(std::holds_alternative<ChildResult>(parsed));
  const auto& r = std::get<ChildResult>(parsed);
  EXPECT_EQ(find(r, "BM_memcpy/4096_cv.real_time")->unit, "fraction");
  EXPECT_EQ(find(r, "BM_memcpy/4096_cv.bytes_per_second")->unit, "fraction");
  const auto rates = parse_google_benchmark(R"({"benchmarks": [
      {"name": "BM_a", "real_time": 1.0, "time_unit": "ms", "frames_per_second": 60, "ReadsPerSecond": 5}]})");
  const auto& rr = std::get<ChildResult>(rates);
  EXPECT_EQ(find(rr, "BM_a.frames_per_second")->unit, "1/s");
  EXPECT_EQ(find(rr, "BM_a.ReadsPerSecond")->unit, "1/s");
}

TEST(GoogleBenchmarkResult, TimesAreBetterLowerAndBuiltInRatesHigher) {
  const auto parsed = read_google_benchmark(kFixtures / "google_benchmark" / "perfzero_micro.json");
  ASSERT_TRUE(std::holds_alternative<ChildResult>(parsed));
  const auto& r = std::get<ChildResult>(parsed);
  EXPECT_EQ(find(r, "BM_memcpy/4096_mean.real_time")->direction, Direction::lower_is_better);
  EXPECT_EQ(find(r, "BM_memcpy/4096_mean.cpu_time")->direction, Direction::lower_is_better);
  EXPECT_EQ(find(r, "BM_memcpy/4096_mean.bytes_per_second")->direction, Direction::higher_is_better);
  // A spread says nothing about speed.
  EXPECT_EQ(find(r, "BM_memcpy/4096_stddev.real_time")->direction, Direction::unspecified);
  EXPECT_EQ(find(r, "BM_memcpy/4096_cv.bytes_per_second")->direction, Direction::unspecified);
  const auto counters = parse_google_benchmark(R"({"benchmarks": [
      {"name": "BM_a", "real_time": 1.0, "time_unit": "ms", "items_per_second": 5, "misses": 3}]})");
  const auto& c = std::get<ChildResult>(counters);
  EXPECT_EQ(find(c, "BM_a.items_per_second")->direction, Direction::higher_is_better);
  EXPECT_EQ(find(c, "BM_a.misses")->direction, Direction::unspecified);
}

TEST(GoogleBenchmarkResult, BadInput) {
  EXPECT_TRUE(std::holds_alternative<std::string>(parse_google_benchmark("not json")));
  EXPECT_TRUE(std::holds_alternative<std::string>(parse_google_benchmark(R"({"context": {}})")));
  EXPECT_TRUE(std::holds_alternative<std::string>(read_google_benchmark("/no/such/file.json")));
  // Wrong types where numbers are expected are ignored or refused, never thrown.
  const auto odd = parse_google_benchmark(
      R"({"benchmarks": [{"name": "a", "run_type": "iteration", "repetitions": "2", "repetition_index": [],
          "error_occurred": "yes", "time_unit": 5, "real_time": 1}]})");
  EXPECT_TRUE(std::holds_alternative<ChildResult>(odd));
  const auto unnamed = parse_google_benchmark(R"({"benchmarks": [{"name": "a", "real_time": 1}, {}]})");
  EXPECT_EQ(std::get<std::string>(unnamed), "the Google Benchmark output's benchmarks[1] has no string 'name'");
}

}  // namespace
}  // namespace perfzero::child_results::google_benchmark_result_test
