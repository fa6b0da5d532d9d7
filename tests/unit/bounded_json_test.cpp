#include "child_results/bounded_json.hpp"

#include <gtest/gtest.h>

#include <string>

#include "child_results/child_result.hpp"
#include "child_results/non_finite_json.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::child_results::bounded_json_test {
namespace {

std::string nested(int levels) {
  std::string s;
  for (int i = 0; i < levels; ++i) s += "[";
  for (int i = 0; i < levels; ++i) s += "]";
  return s;
}

TEST(BoundedJson, AcceptsUpToTheDepthLimitAndNoDeeper) {
  std::string problem;
  EXPECT_TRUE(parse_bounded_json(nested(kMaxJsonDepth), problem).has_value()) << problem;
  EXPECT_FALSE(parse_bounded_json(nested(kMaxJsonDepth + 1), problem).has_value());
  EXPECT_EQ(problem, "nested deeper than 64 levels of objects and lists");
  // 100,000 levels overflowed the harness's stack before the limit.
  EXPECT_FALSE(parse_bounded_json(nested(100000), problem).has_value());
  EXPECT_FALSE(parse_bounded_json("{\"a\": ", problem).has_value());
  EXPECT_EQ(problem, "not valid JSON (at byte 7)");
  EXPECT_FALSE(parse_bounded_json(R"({"a": 1e999})", problem).has_value());
  EXPECT_EQ(problem, "not valid JSON (a number out of range)");
}

TEST(BoundedJson, ADeepResultFileIsInvalidWithTheReason) {
  std::string deep = R"({"metrics": [], "extras": )";
  for (int i = 0; i < 1000; ++i) deep += R"({"a": )";
  deep += "1";
  for (int i = 0; i < 1000; ++i) deep += "}";
  deep += "}";
  const auto parsed = parse_child_result(deep);
  ASSERT_TRUE(std::holds_alternative<std::string>(parsed));
  EXPECT_EQ(std::get<std::string>(parsed), "the result file is nested deeper than 64 levels of objects and lists");
}

TEST(NonFiniteJson, QuotesBareTokensOnlyOutsideStrings) {
  const std::string text = R"({"a": NaN, "b": -Infinity, "c": "NaN \" Infinity", "d": [Infinity, -NaN], "e": -1})";
  std::string problem;
  const auto doc = parse_bounded_json(quote_non_finite(text), problem);
  ASSERT_TRUE(doc.has_value()) << problem;
  EXPECT_EQ(non_finite_token((*doc)["a"]), "NaN");
  EXPECT_EQ(non_finite_token((*doc)["b"]), "-Infinity");
  EXPECT_EQ((*doc)["c"], "NaN \" Infinity");
  EXPECT_EQ(non_finite_token((*doc)["c"]), std::nullopt);
  EXPECT_EQ(non_finite_token((*doc)["d"][1]), "-NaN");
  EXPECT_EQ((*doc)["e"], -1);
  EXPECT_EQ(quote_non_finite("NaNa"), "NaNa");  // not a token: left for the parser to refuse
}

}  // namespace
}  // namespace perfzero::child_results::bounded_json_test
