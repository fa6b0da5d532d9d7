// The machine-readable comparison (docs/compare.md lists the keys).
#include <nlohmann/json.hpp>

#include "compare/formats.hpp"
#include "compare/gate.hpp"

namespace perfzero::compare {

namespace {

using nlohmann::json;

json optional_number(const std::optional<double>& v) { return v ? json(*v) : json(nullptr); }

json side_json(const Side& s) {
  json flags = json::object();
  for (const auto& [flag, n] : s.flags) flags[flag] = n;
  return {{"trials", s.values.size()},
          {"succeeded", s.succeeded},
          {"disturbed", s.disturbed},
          {"flags", std::move(flags)},
          {"median", optional_number(s.median)},
          {"cv", optional_number(s.cv)},
          {"values", s.values}};
}

json label_json(const RunLabel& l) {
  return {{"source", l.source},
          {"execution_id", l.execution_id},
          {"execution_label", l.execution_label},
          {"partial", l.partial},
          {"foreign_journal_lines", l.foreign_journal_lines}};
}

}  // namespace

std::string to_json_text(const RunComparison& report) {
  json rows = json::array();
  for (const auto& r : report.rows) {
    const auto direction = perfzero::to_string(r.direction);
    rows.push_back({{"method", r.case_name},
                    {"metric", r.metric},
                    {"unit", r.unit},
                    {"direction", direction.empty() ? json(nullptr) : json(std::string(direction))},
                    {"baseline", side_json(r.baseline)},
                    {"candidate", side_json(r.candidate)},
                    {"change", optional_number(r.change)},
                    {"ci_low", optional_number(r.ci_low)},
                    {"ci_high", optional_number(r.ci_high)},
                    {"p_value", optional_number(r.p_value)},
                    {"z_score", optional_number(r.z_score)},
                    {"pairs", r.pairs ? json(*r.pairs) : json(nullptr)},
                    {"gated", r.gated},
                    {"gate", std::string(to_string(row_gate(r)))},
                    {"verdict", std::string(to_string(r.verdict))},
                    {"reason", r.reason}});
  }
  json counts = json::object();
  for (const Verdict v : all_verdicts()) counts[std::string(to_string(v))] = report.count(v);
  const GateResult g = gate(report);
  const json doc = {
      {"compare_version", 4},
      {"baseline", label_json(report.baseline)},
      {"candidate", label_json(report.candidate)},
      {"settings",
       {{"min_change", report.settings.min_change},
        {"alpha", report.settings.alpha},
        {"max_cv", report.settings.max_cv},
        {"bootstrap_resamples", report.settings.resamples},
        {"seed", report.settings.seed},
        {"use_flagged", report.settings.use_flagged},
        {"metrics", report.settings.metrics.empty() ? json(nullptr) : json(report.settings.metrics)},
        {"pass_on", {{"undecided", report.settings.pass_on.undecided}, {"missing", report.settings.pass_on.missing}}}}},
      {"design", report.design.empty() ? json(nullptr) : json(report.design)},
      {"confounding", report.confounding.empty() ? json(nullptr) : json(report.confounding)},
      {"regression", report.regression()},
      {"gate",
       {{"status", std::string(to_string(g.status))},
        {"exit_status", g.exit_status},
        {"slower", g.slower},
        {"no_measurement", g.no_measurement},
        {"undecided", g.undecided}}},
      {"counts", counts},
      {"results", rows}};
  return doc.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

}  // namespace perfzero::compare
