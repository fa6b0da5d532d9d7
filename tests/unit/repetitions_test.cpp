// The `repetitions` list of a child's result file: what is kept, and each broken input's message.
#include <gtest/gtest.h>

#include <string>
#include <variant>

#include "child_results/child_result.hpp"
#include "child_results/repetitions.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::child_results::repetitions_test {
namespace {

std::string error_of(const std::string& list) {
  const auto parsed = parse_repetitions(nlohmann::json::parse(list));
  const auto* error = std::get_if<std::string>(&parsed);
  return error != nullptr ? *error : "(parsed)";
}

TEST(Repetitions, AGoodListIsKeptAndWrittenBackAsGiven) {
  const auto list = nlohmann::json::parse(R"([
    {"name": "matmul", "unit": "s", "values": [0.5, 0.25, 1], "warmups": 2, "stopped_by": "noise_target",
     "relative_noise": 0.01},
    {"name": "copy", "values": [3]}
  ])");
  const auto parsed = parse_repetitions(list);
  ASSERT_TRUE(std::holds_alternative<std::vector<RepetitionRecord>>(parsed)) << std::get<std::string>(parsed);
  const auto& records = std::get<std::vector<RepetitionRecord>>(parsed);
  ASSERT_EQ(records.size(), 2U);
  EXPECT_EQ(records[0].values, (std::vector<double>{0.5, 0.25, 1}));
  EXPECT_EQ(records[0].warmups, 2);
  EXPECT_EQ(records[0].stopped_by, "noise_target");
  EXPECT_EQ(records[1].unit, "s");  // the default
  EXPECT_FALSE(records[1].stopped_by.has_value());
  const auto back = repetitions_json(records);
  EXPECT_EQ(back[0], list[0]);
  EXPECT_TRUE(back[1]["stopped_by"].is_null());
  EXPECT_TRUE(back[1]["relative_noise"].is_null());
}

TEST(Repetitions, EachBrokenInputNamesItsIndexAndField) {
  EXPECT_EQ(error_of(R"({"name": "x"})"), "'repetitions' must be a list");
  EXPECT_EQ(error_of(R"([3])"), "repetitions[0] must be an object");
  EXPECT_EQ(error_of(R"([{"values": [1]}])"), "repetitions[0] needs a non-empty string 'name'");
  EXPECT_EQ(error_of(R"([{"name": "a", "values": [1]}, {"name": "b"}])"), "repetitions[1] ('b') needs 'values'");
  EXPECT_EQ(error_of(R"([{"name": "a", "values": []}])"),
            "repetitions[0] ('a'): 'values' must be a non-empty list of numbers");
  EXPECT_EQ(error_of(R"([{"name": "a", "values": [1, "2"]}])"),
            "repetitions[0] ('a'): values[1] must be a finite number, not \"2\"");
  EXPECT_EQ(error_of(R"([{"name": "a", "values": [1], "warmups": -1}])"),
            "repetitions[0] ('a'): 'warmups' must be an integer, 0 or more");
  EXPECT_EQ(error_of(R"([{"name": "a", "values": [1], "unit": 3}])"), "repetitions[0] ('a'): 'unit' must be a string");
  EXPECT_NE(error_of(R"([{"name": "a", "values": [1], "stopped_by": "tired"}])").find("'stopped_by' must be"),
            std::string::npos);
  EXPECT_NE(error_of(R"([{"name": "a", "values": [1], "relative_noise": -0.5}])").find("'relative_noise'"),
            std::string::npos);
  EXPECT_EQ(error_of(R"([{"name": "a", "values": [1]}, {"name": "a", "values": [2]}])"),
            "repetitions[1]: the name 'a' is used twice");
}

TEST(Repetitions, TooManyValuesAreRefused) {
  nlohmann::json list = nlohmann::json::array();
  list.push_back({{"name", "a"}, {"values", std::vector<double>(kMaxRepetitionValues / 2, 1.0)}});
  list.push_back({{"name", "b"}, {"values", std::vector<double>(kMaxRepetitionValues / 2 + 1, 1.0)}});
  const auto parsed = parse_repetitions(list);
  ASSERT_TRUE(std::holds_alternative<std::string>(parsed));
  EXPECT_EQ(std::get<std::string>(parsed), "repetitions[1] ('b'): more than 1000000 repetition values in the result");
}

TEST(Repetitions, TheChildResultCarriesThemOrSaysWhatIsWrong) {
  const auto good = parse_child_result(R"({"metrics": [], "repetitions": [{"name": "a", "values": [0.1, 0.2]}]})");
  ASSERT_TRUE(std::holds_alternative<ChildResult>(good)) << std::get<std::string>(good);
  ASSERT_EQ(std::get<ChildResult>(good).repetitions.size(), 1U);
  EXPECT_EQ(std::get<ChildResult>(good).repetitions[0].values.size(), 2U);
  const auto none = parse_child_result(R"({"metrics": []})");
  EXPECT_TRUE(std::get<ChildResult>(none).repetitions.empty());
  const auto bad = parse_child_result(R"({"metrics": [], "repetitions": [{"name": "a", "values": [null]}]})");
  ASSERT_TRUE(std::holds_alternative<std::string>(bad));
  EXPECT_EQ(std::get<std::string>(bad), "repetitions[0] ('a'): values[0] must be a finite number, not null");
}

}  // namespace
}  // namespace perfzero::child_results::repetitions_test
