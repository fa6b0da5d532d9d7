// The three outputs of `perfzero compare` (docs/compare.md): what each row shows, and what may not
// leak through (a '|' breaking a Markdown row, an escape sequence reaching a terminal).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "compare/formats.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::compare::compare_format_test {
namespace {

RunComparison sample() {
  RunComparison r;
  r.baseline = {"runs/a", "exec-a", "main"};
  r.candidate = {"runs/b", "exec-b", "pr"};
  MetricComparison slow;
  slow.case_name = "fam.A.m[x=1|2]";
  slow.metric = "latency";
  slow.unit = "ms";
  slow.direction = Direction::lower_is_better;
  slow.baseline.values = {100, 101};
  slow.baseline.median = 100.4;
  slow.baseline.cv = 0.007;
  slow.candidate.values = {110, 111};
  slow.candidate.median = 110.6;
  slow.candidate.cv = 0.006;
  slow.change = 0.099;
  slow.ci_low = 0.08;
  slow.ci_high = 0.12;
  slow.p_value = 0.0002;
  slow.verdict = Verdict::slower;
  MetricComparison missing;
  missing.case_name = "evil\x1b[2Jname";
  missing.metric = "wall_time";
  missing.unit = "s";
  missing.baseline.values = {1.0};
  missing.baseline.median = 1.0;
  missing.verdict = Verdict::missing;
  missing.reason = "no succeeded trial in the candidate";
  r.rows = {slow, missing};
  return r;
}

TEST(CompareFormat, MarkdownIsOneTableRowPerMetricWithPipesEscaped) {
  const std::string md = to_markdown(sample());
  EXPECT_NE(md.find("### perfzero compare: 1 slower, 0 faster, 0 same, 1 missing on one side"), std::string::npos)
      << md;
  EXPECT_NE(md.find("| method | metric | baseline | candidate | change | 95% CI | p | verdict |"), std::string::npos);
  EXPECT_NE(md.find("| fam.A.m[x=1\\|2] | latency | 100 ms | 111 ms | +9.9% | [+8.0%, +12.0%] | 0.0002 | "
                    "**slower** |"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("| wall_time | 1 s | - | - | - | - | missing |"), std::string::npos) << md;
}

TEST(CompareFormat, JsonCarriesEveryFigureAndTheGate) {
  const auto doc = nlohmann::json::parse(to_json_text(sample()));
  EXPECT_EQ(doc["compare_version"], 4);
  EXPECT_EQ(doc["regression"], true);
  EXPECT_EQ(doc["counts"]["slower"], 1);
  EXPECT_EQ(doc["counts"]["missing"], 1);
  EXPECT_EQ(doc["baseline"]["execution_id"], "exec-a");
  const auto& row = doc["results"][0];
  EXPECT_EQ(row["method"], "fam.A.m[x=1|2]");
  EXPECT_EQ(row["direction"], "lower");
  EXPECT_EQ(row["verdict"], "slower");
  EXPECT_DOUBLE_EQ(row["ci_low"].get<double>(), 0.08);
  EXPECT_EQ(row["baseline"]["values"], (nlohmann::json{100.0, 101.0}));
  EXPECT_TRUE(doc["results"][1]["p_value"].is_null());
  EXPECT_TRUE(doc["results"][1]["direction"].is_null());
  EXPECT_EQ(doc["results"][1]["verdict"], "missing");
}

TEST(CompareFormat, TerminalColoursOnlyWhenAskedAndNeverPassesEscapes) {
  const std::string plain = to_terminal(sample(), false);
  EXPECT_EQ(plain.find('\x1b'), std::string::npos) << plain;
  EXPECT_NE(plain.find("evil?[2Jname"), std::string::npos) << plain;
  EXPECT_NE(plain.find("+9.9% [+8.0%, +12.0%]"), std::string::npos) << plain;
  const std::string coloured = to_terminal(sample(), true);
  EXPECT_NE(coloured.find("\x1b[1;31mslower\x1b[0m"), std::string::npos) << coloured;
  EXPECT_EQ(coloured.find("\x1b[2J"), std::string::npos);
}

}  // namespace
}  // namespace perfzero::compare::compare_format_test
