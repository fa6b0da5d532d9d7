// The table printed to a terminal, with the verdicts coloured when stdout is one.
#include <algorithm>
#include <array>

#include <fmt/format.h>

#include "common/escape.hpp"
#include "compare/formats.hpp"

namespace perfzero::compare {

namespace {

constexpr std::size_t kColumns = 7;
using Row = std::array<std::string, kColumns>;

const char* colour_of(Verdict v) {
  switch (v) {
    case Verdict::slower:
      return "\033[1;31m";
    case Verdict::faster:
      return "\033[1;32m";
    case Verdict::too_noisy:
    case Verdict::changed:
    case Verdict::unreliable:
    case Verdict::confounded:
    case Verdict::unknown:
      return "\033[33m";
    case Verdict::missing:
      return "\033[35m";
    case Verdict::below_threshold:
      return "\033[36m";
    case Verdict::same:
    case Verdict::equivalent:
      break;
  }
  return "";
}

// Names come from files anyone may have written: no escape sequence reaches the terminal.
using text::printable;

Row row_of(const MetricComparison& r) {
  const std::string unit = printable(r.unit);
  return {printable(r.case_name),
          printable(r.metric),
          value_text(r.baseline.median, unit),
          value_text(r.candidate.median, unit),
          fmt::format("{} {}", percent(r.change), interval(r)),
          significance(r),
          verdict_text(r)};
}

}  // namespace

std::string to_terminal(const RunComparison& report, bool colour) {
  std::vector<Row> rows{{"method", "metric", "baseline", "candidate",
                         report.design.empty() ? "change [95% CI]" : "change [CI]", "p", "verdict"}};
  for (const auto& r : report.rows) rows.push_back(row_of(r));
  std::array<std::size_t, kColumns> width{};
  for (const auto& row : rows) {
    for (std::size_t i = 0; i < kColumns; ++i) width[i] = std::max(width[i], row[i].size());
  }
  std::string out;
  for (std::size_t k = 0; k < rows.size(); ++k) {
    const char* on = colour && k > 0 ? colour_of(report.rows[k - 1].verdict) : "";
    for (std::size_t i = 0; i + 1 < kColumns; ++i) out += fmt::format("{:<{}}  ", rows[k][i], width[i]);
    out += *on != '\0' ? fmt::format("{}{}\033[0m\n", on, rows[k].back()) : fmt::format("{}\n", rows[k].back());
  }
  if (!report.design.empty()) out += printable(report.design) + "\n";
  out += fmt::format("{}\n", headline(report));
  out += advice(report);
  return out;
}

}  // namespace perfzero::compare
