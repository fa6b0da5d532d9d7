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
