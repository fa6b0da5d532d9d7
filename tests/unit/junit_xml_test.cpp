// common/junit_xml and compare's JUnit output: every file is valid against tests/data/junit/junit.xsd
// (xmllint, the real validator), whatever bytes the names hold; counts and failures as written.
#include "common/junit_xml.hpp"

#include <gtest/gtest.h>

#include <cstdlib>

#include "compare/formats.hpp"
#include "temp_dir.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::junit::junit_xml_test {
namespace {

const std::string kSchema = std::string(PERFZERO_SOURCE_DIR) + "/tests/data/junit/junit.xsd";

// xmllint's verdict on `xml`: empty when valid, else what it said.
std::string validate(const testing::TempDir& dir, const std::string& xml) {
  const auto file = dir.write("out.xml", xml);
  const auto log = dir.path() / "xmllint.log";
  const std::string command =
      "xmllint --noout --schema '" + kSchema + "' '" + file.string() + "' > '" + log.string() + "' 2>&1";
  if (std::system(command.c_str()) == 0) return "";
  std::ifstream in(log);
  return std::string(std::istreambuf_iterator<char>(in), {}) + "\n" + xml;
}

bool have_xmllint() { return std::system("command -v xmllint > /dev/null 2>&1") == 0; }

TEST(JunitXml, HostileNamesStayValidXmlAndReadBackAsText) {
  if (!have_xmllint()) GTEST_SKIP() << "xmllint (Debian's libxml2-utils) is not installed";
  testing::TempDir dir;
  std::vector<TestCase> cases(4);
  cases[0] = {"fam.<A>&\"B\"", "metric']]>", 0.5, std::string("slower +12 % <script>"), std::nullopt, "row"};
  cases[1] = {"bytes\xff\xfe", "ctl\x01\x1b[31m", 0, std::nullopt, std::string("not judged"), ""};
  cases[2] = {"nonchar \xEF\xBF\xBE", "ok", 1.25, std::nullopt, std::nullopt, ""};
  cases[3] = {"", "", 0, std::nullopt, std::nullopt, std::string(100000, 'x')};
  const std::string xml = write_suite("suite & co", cases, 1764000000);
  EXPECT_EQ(validate(dir, xml), "");
  EXPECT_NE(xml.find("tests=\"4\" failures=\"1\" errors=\"0\" skipped=\"1\""), std::string::npos) << xml;
  EXPECT_NE(xml.find("fam.&lt;A&gt;&amp;&quot;B&quot;"), std::string::npos);
  EXPECT_EQ(xml.find("\x1b"), std::string::npos);
  EXPECT_NE(xml.find("timestamp=\"2025-11-24T16:00:00\""), std::string::npos) << xml;
  // No test cases at all is still a valid (empty) suite.
  EXPECT_EQ(validate(dir, write_suite("empty", {}, 0)), "");
}

// Each row as the gate takes it (compare/gate.hpp): a gated slowdown, a candidate that measured
// nothing and an undecided row fail; nothing is "skipped", which CI systems count as no failure.
TEST(JunitXml, ACompareReportGivesOneCasePerRowAsTheGateTakesItAndSkipsNone) {
  if (!have_xmllint()) GTEST_SKIP() << "xmllint (Debian's libxml2-utils) is not installed";
  testing::TempDir dir;
  compare::RunComparison report;
  const auto row = [](const char* metric, compare::Verdict v, bool gated, int candidate_trials = 5) {
    compare::MetricComparison m;
    m.case_name = "fam.A.one";
    m.metric = metric;
    m.unit = "ms";
    m.verdict = v;
    m.gated = gated;
    m.change = 0.12;
    m.baseline.median = 10;
    m.baseline.succeeded = 5;
    m.candidate.median = 11.2;
    m.candidate.succeeded = candidate_trials;
    return m;
  };
  compare::MetricComparison new_case = row("new", compare::Verdict::missing, true);
  new_case.baseline.succeeded = 0;
  report.rows = {row("wall_time", compare::Verdict::slower, true), row("cycles", compare::Verdict::slower, false),
                 row("rate", compare::Verdict::same, true),        row("gone", compare::Verdict::missing, true, 0),
                 row("noisy", compare::Verdict::too_noisy, true),  new_case};
  const std::string xml = compare::to_junit(report, "perfzero compare");
  EXPECT_EQ(validate(dir, xml), "");
  EXPECT_NE(xml.find("tests=\"6\" failures=\"3\" errors=\"0\" skipped=\"0\""), std::string::npos) << xml;
  EXPECT_NE(xml.find("<failure message=\"fam.A.one: wall_time slower +12.0%"), std::string::npos) << xml;
  EXPECT_NE(xml.find("<failure message=\"no measurement: fam.A.one: gone missing"), std::string::npos) << xml;
  EXPECT_NE(xml.find("<failure message=\"undecided: fam.A.one: noisy too noisy"), std::string::npos) << xml;
  // --pass_on=undecided,missing: only the slowdown is left failing.
  report.settings.pass_on = {true, true};
  const std::string accepting = compare::to_junit(report, "perfzero compare");
  EXPECT_EQ(validate(dir, accepting), "");
  EXPECT_NE(accepting.find("tests=\"6\" failures=\"1\" errors=\"0\" skipped=\"0\""), std::string::npos) << accepting;
}

}  // namespace
}  // namespace perfzero::junit::junit_xml_test
