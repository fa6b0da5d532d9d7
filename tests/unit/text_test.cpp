#include "common/text.hpp"

#include <gtest/gtest.h>

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::text::text_test {
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

TEST(Closest, ANameThatExtendsACandidateIsNearIt) {
  const std::vector<std::string> shapes{"VM.Standard.E4.Flex", "VM.Standard.E5.Flex", "VM.Standard.A1.Flex"};
  // "-2" is two edits from E4 but three from E5: only the shape it extends is the nearest.
  EXPECT_EQ(nearest("VM.Standard.E4.Flex-2", shapes), std::vector<std::string>{"VM.Standard.E4.Flex"});
  // A long suffix is past a third of the name in edits, and still near as a prefix.
  EXPECT_EQ(closest("c7i.large-spot-us-east-1a", {"c7i.large", "c7i.xlarge"}).front(), "c7i.large");
  EXPECT_EQ(nearest("n2-standard-9", {"n2-standard-8", "n2-standard-4", "c3-standard-8"}),
            (std::vector<std::string>{"n2-standard-8", "n2-standard-4"}));
  EXPECT_TRUE(nearest("completely-else", shapes).empty());
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
}  // namespace perfzero::text::text_test
