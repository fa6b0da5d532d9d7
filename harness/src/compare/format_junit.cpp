// compare's and ab's JUnit XML (docs/ci.md): what a CI system shows as a test per (method, metric).
#include <fmt/format.h>

#include "common/junit_xml.hpp"
#include "compare/formats.hpp"

namespace perfzero::compare {

std::string to_junit(const RunComparison& report, const std::string& suite_name) {
  std::vector<junit::TestCase> cases;
  cases.reserve(report.rows.size());
  for (const auto& m : report.rows) {
    junit::TestCase tc;
    tc.classname = m.case_name;
    tc.name = m.metric;
    const std::string figures =
        fmt::format("{}: {} {} {}, median {} -> {} {}, {}{}", m.case_name, m.metric, verdict_text(m), percent(m.change),
                    number(m.baseline.median), number(m.candidate.median), m.unit, significance(m),
                    m.reason.empty() ? "" : " (" + m.reason + ")");
    tc.output = figures + ", interval " + interval(m);
    if (m.verdict == Verdict::slower && m.gated) {
      tc.failure = figures + ", interval " + interval(m);
    } else if (m.verdict == Verdict::missing || m.verdict == Verdict::unknown || m.verdict == Verdict::too_noisy ||
               m.verdict == Verdict::unreliable) {
      tc.skipped = figures;
    }
    cases.push_back(std::move(tc));
  }
  return junit::write_suite(suite_name, cases, junit::now());
}

}  // namespace perfzero::compare
