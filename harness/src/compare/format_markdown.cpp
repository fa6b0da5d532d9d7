// The Markdown table a pull-request comment shows.
#include <fmt/format.h>

#include "common/escape.hpp"
#include "compare/formats.hpp"

namespace perfzero::compare {

namespace {

std::string cell(const std::string& text) { return text::md_cell(text); }

std::string mark(const MetricComparison& m) {
  switch (m.verdict) {
    case Verdict::slower:
      return m.gated ? "**slower**" : "slower (not gated)";
    case Verdict::faster:
      return "**faster**";
    default:
      return verdict_text(m);
  }
}

// Advice lines as a Markdown list, each line a cell (no HTML or table syntax from names).
std::string cell_lines(const std::string& text) {
  std::string out;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = text.find('\n', start);
    out += fmt::format("- {}\n", cell(text.substr(start, end - start)));
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return out;
}

}  // namespace

std::string to_markdown(const RunComparison& report) {
  std::string out = fmt::format("### perfzero compare: {}\n\n", headline(report));
  if (!report.design.empty()) out += fmt::format("{}\n\n", cell(report.design));
  const std::string method = report.z_threshold
                                 ? fmt::format(
                                       "z-score of the candidate's median against the history's run medians, "
                                       "step change beyond |z| > {}",
                                       *report.z_threshold)
                                 : fmt::format("Mann-Whitney U p-value, significance level {}", report.settings.alpha);
  out += fmt::format(
      "Baseline `{}` ({}), candidate `{}` ({}). Median change with its 95% bootstrap interval; {}; minimum "
      "change {:.1f}%.\n\n",
      cell(report.baseline.source), cell(report.baseline.execution_id), cell(report.candidate.source),
      cell(report.candidate.execution_id), method, report.settings.min_change * 100);
  out += "| method | metric | baseline | candidate | change | 95% CI | p | verdict |\n";
  out += "|---|---|---:|---:|---:|---|---:|---|\n";
  for (const auto& r : report.rows) {
    out += fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} |\n", cell(r.case_name), cell(r.metric),
                       cell(value_text(r.baseline.median, r.unit)), cell(value_text(r.candidate.median, r.unit)),
                       percent(r.change), interval(r), significance(r), mark(r));
  }
  if (const std::string more = advice(report); !more.empty()) out += fmt::format("\n{}", cell_lines(more));
  return out;
}

}  // namespace perfzero::compare
