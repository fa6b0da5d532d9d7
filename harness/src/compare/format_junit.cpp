// compare's and ab's JUnit XML (docs/ci.md): what a CI system shows as a test per (method, metric).
#include <fmt/format.h>

#include "common/junit_xml.hpp"
#include "compare/formats.hpp"
#include "compare/gate.hpp"

namespace perfzero::compare {

std::string to_junit(const RunComparison& report, const std::string& suite_name) {
  std::vector<junit::TestCase> cases;
  cases.reserve(report.rows.size());
  for (const auto& m : report.rows) {
    junit::TestCase tc;
    tc.classname = m.case_name;
    tc.name = m.metric;
    const std::string figures =
        fmt::format("{}: {} {} {}, median {} -> {}, {}{}", m.case_name, m.metric, verdict_text(m), percent(m.change),
                    value_text(m.baseline.median, m.unit), value_text(m.candidate.median, m.unit), significance(m),
                    m.reason.empty() ? "" : " (" + m.reason + ")");
    // Each row as the gate takes it (compare/gate.hpp), never "skipped": a CI system counts a skipped
    // test as no failure, and an undecided row or a candidate that measured nothing is not a pass.
    const RowGate g = row_gate(m);
    tc.output = fmt::format("{}, interval {}; gate: {}", figures, interval(m), to_string(g));
    if (fails_gate(m, report.settings.pass_on)) {
      // A slowdown's figures say what it is; the other failures say which kind first.
      tc.failure = g == RowGate::slower ? fmt::format("{}, interval {}", figures, interval(m))
                                        : fmt::format("{}: {}, interval {}", to_string(g), figures, interval(m));
    }
    cases.push_back(std::move(tc));
  }
  return junit::write_suite(suite_name, cases, junit::now());
}

}  // namespace perfzero::compare
