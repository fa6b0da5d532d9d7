#include "common/text.hpp"

#include <gtest/gtest.h>

namespace perfzero::text {
namespace {

TEST(EditDistance, CountsInsertionsDeletionsAndSubstitutions) {
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3U);
  EXPECT_EQ(edit_distance("", "abc"), 3U);
  EXPECT_EQ(edit_distance("same", "same"), 0U);
  EXPECT_EQ(edit_distance("Case", "case"), 0U);
}

TEST(Closest, SuggestsTyposNearestFirstAndNothingFarAway) {
  const std::vector<std::string> names{"benchmark_noop", "benchmark_sleep", "benchmark_spin"};
  const auto near = closest("benchmark_nop", names);
  ASSERT_FALSE(near.empty());
  EXPECT_EQ(near.front(), "benchmark_noop");
  EXPECT_TRUE(closest("completely_different_thing", names).empty());
  EXPECT_EQ(did_you_mean("trails", {"trials", "timeout"}), "; did you mean 'trials'?");
  EXPECT_EQ(did_you_mean("zzzzzz", {"trials"}), "");
}

TEST(ParseDuration, AcceptsUnitsAndRejectsGarbage) {
  EXPECT_EQ(parse_duration("90")->count(), 90'000);
  EXPECT_EQ(parse_duration("90s")->count(), 90'000);
  EXPECT_EQ(parse_duration("250ms")->count(), 250);
  EXPECT_EQ(parse_duration("1.5m")->count(), 90'000);
  EXPECT_EQ(parse_duration("2h")->count(), 7'200'000);
  EXPECT_EQ(parse_duration("0")->count(), 0);
  EXPECT_FALSE(parse_duration("").has_value());
  EXPECT_FALSE(parse_duration("-5s").has_value());
  EXPECT_FALSE(parse_duration("5 parsecs").has_value());
  EXPECT_FALSE(parse_duration("s").has_value());
}

TEST(Text, DurationsAreRangeChecked) {
  std::string problem;
  EXPECT_EQ(parse_duration("720h", problem)->count(), 2'592'000'000);
  EXPECT_TRUE(problem.empty());
  for (const char* huge : {"721h", "5000000h", "99999999999999999h"}) {
    EXPECT_FALSE(parse_duration(huge, problem).has_value()) << huge;
  }
  EXPECT_FALSE(parse_duration("99999999999999999h", problem).has_value());
  EXPECT_EQ(problem, "over the maximum of 30 days (720h)");
  EXPECT_FALSE(parse_duration("0.4ms", problem).has_value());
  EXPECT_EQ(problem, "below the 1ms resolution (0 means none)");
  EXPECT_FALSE(parse_duration("0.0000000000000000000000001s", problem).has_value());
  EXPECT_EQ(parse_duration("0.0s")->count(), 0);
}

TEST(PathComponent, KeepsSafeCharactersOnly) {
  EXPECT_EQ(path_component("sanity.Sanity.benchmark_sleep[ms=10]"), "sanity.Sanity.benchmark_sleep_ms_10_");
  EXPECT_EQ(path_component("a/b"), "a_b");
  EXPECT_EQ(path_component(".."), "_..");
}

TEST(Split, KeepsEmptyFields) {
  EXPECT_EQ(split("a,,b", ','), (std::vector<std::string>{"a", "", "b"}));
  EXPECT_EQ(trim("  x \n"), "x");
}

}  // namespace
}  // namespace perfzero::text
