#include "compare/confounding.hpp"

#include <algorithm>
#include <cmath>
#include <string_view>

#include <fmt/format.h>

#include "compare/formats.hpp"
#include "results/flags.hpp"
#include "results/statistics.hpp"

namespace perfzero::compare {

RunSpan run_span(const results::Run& run) {
  RunSpan span{run.info.execution_timestamp, run.info.execution_timestamp};
  for (const auto& c : run.cases) {
    for (const auto* trials : {&c.warmups, &c.trials}) {
      for (const auto& t : *trials) {
        span.end = std::max(span.end, run.info.execution_timestamp + t.started_offset + t.harness_seconds);
      }
    }
  }
  return span;
}

bool ran_together(const RunSpan& a, const RunSpan& b) {
  return a.known() && b.known() && a.start < b.end && b.start < a.end;
}

CaseLoad case_load(const results::Case& c) {
  CaseLoad load;
  std::vector<double> busy;
  for (const auto& t : c.trials) {
    if (t.warmup || t.outcome != Outcome::succeeded) continue;
    ++load.trials;
    if (results::disturbed(t)) ++load.disturbed;
    const auto s = t.samplers.find("host_load");
    if (s == t.samplers.end() || !s->is_object()) continue;
    const auto v = s->find("other_busy_cpus");
    if (v != s->end() && v->is_number() && std::isfinite(v->get<double>())) busy.push_back(v->get<double>());
  }
  if (!busy.empty()) load.other_busy_cpus = results::compute_stats(busy).median;
  return load;
}

BusierSide busier_side(const CaseLoad& baseline, const CaseLoad& candidate) {
  if (baseline.trials == 0 || candidate.trials == 0) return BusierSide::neither;
  const double share = static_cast<double>(candidate.disturbed) / candidate.trials -
                       static_cast<double>(baseline.disturbed) / baseline.trials;
  const double cpus = baseline.other_busy_cpus && candidate.other_busy_cpus
                          ? *candidate.other_busy_cpus - *baseline.other_busy_cpus
                          : 0.0;
  // The two measures could point opposite ways (a flag-free but loaded run): the larger step decides.
  const double score = std::max(std::fabs(share) / kBusierShare, std::fabs(cpus) / kBusierCpus);
  if (score < 1) return BusierSide::neither;
  const bool by_share = std::fabs(share) / kBusierShare >= std::fabs(cpus) / kBusierCpus;
  return (by_share ? share : cpus) > 0 ? BusierSide::candidate : BusierSide::baseline;
}

namespace {

std::string load_words(const CaseLoad& b, const CaseLoad& c) {
  std::string out = fmt::format("disturbed in {}/{} vs {}/{} trials", b.disturbed, b.trials, c.disturbed, c.trials);
  if (b.other_busy_cpus && c.other_busy_cpus) {
    out += fmt::format(", {:.2f} vs {:.2f} other CPUs busy", *b.other_busy_cpus, *c.other_busy_cpus);
  }
  return out;
}

std::string_view side_name(BusierSide s) { return s == BusierSide::baseline ? "baseline" : "candidate"; }

// Why a direction read here is not decided: the load differed, or disturbed trials were judged. Either
// way the load can have made the direction, whichever it is: a hog slows the run it shares a core
// with, and can also make it read faster (the scheduler moves it, the clock stays up). Measured:
// same-vs-same with a hog pinned to one core during one run read a direction against the load in
// 6 of 100 pairs (docs/performance-log.md, "runs made at different times").
std::string load_cause(BusierSide busier, bool judged_disturbed) {
  if (busier != BusierSide::neither) return fmt::format("while the {} run was the busier", side_name(busier));
  return judged_disturbed ? "from disturbed trials (--use_flagged)" : "";
}

bool directional(Verdict v) { return v == Verdict::slower || v == Verdict::faster || v == Verdict::changed; }

// Marks one row; returns whether it is confounded with the load at all.
bool mark_row(MetricComparison& m, const CaseLoad& b, const CaseLoad& c, bool use_flagged) {
  if (m.verdict == Verdict::missing) return false;
  const bool judged_disturbed = use_flagged && m.baseline.disturbed + m.candidate.disturbed > 0;
  const BusierSide busier = busier_side(b, c);
  if (!judged_disturbed && busier == BusierSide::neither) return false;
  const std::string words = load_words(b, c);
  if (directional(m.verdict)) {
    m.reason = fmt::format("confounded: read {} {} {} ({}); {}", to_string(m.verdict), percent(m.change),
                           load_cause(busier, judged_disturbed), words, m.reason);
    m.verdict = Verdict::confounded;
    return true;
  }
  m.reason += fmt::format("; confounded with when the runs ran ({}{})", words,
                          judged_disturbed ? ", disturbed trials judged" : "");
  return true;
}

std::string when_words(const RunSpan& b, const RunSpan& c) {
  if (!b.known() || !c.known()) return "when they ran is not known";
  if (c.start >= b.end) return fmt::format("the candidate started {:.0f} s after the baseline ended", c.start - b.end);
  return fmt::format("the baseline started {:.0f} s after the candidate ended", b.start - c.end);
}

}  // namespace

void mark_confounding(RunComparison& report, const results::Run& baseline, const results::Run& candidate) {
  const RunSpan b = run_span(baseline);
  const RunSpan c = run_span(candidate);
  if (ran_together(b, c)) return;
  int marked = 0;
  for (auto& m : report.rows) {
    const auto base = std::find_if(baseline.cases.begin(), baseline.cases.end(),
                                   [&](const auto& x) { return x.name == m.case_name; });
    const auto cand = std::find_if(candidate.cases.begin(), candidate.cases.end(),
                                   [&](const auto& x) { return x.name == m.case_name; });
    if (base == baseline.cases.end() || cand == candidate.cases.end()) continue;
    if (mark_row(m, case_load(*base), case_load(*cand), report.settings.use_flagged)) ++marked;
  }
  if (marked == 0) return;
  report.confounding = fmt::format(
      "These runs were made at different times ({}), and {} row(s) {}: load and drift on the machine between "
      "them are confounded with the change. A direction read there (slower, faster or changed) is `confounded`, "
      "undecided (exit 5), whichever way it points; the others carry the same warning. Run both sides "
      "interleaved with `perfzero ab`, whose pairs share the load.",
      when_words(b, c), marked,
      report.settings.use_flagged ? "judged disturbed trials (--use_flagged) or saw a different host load"
                                  : "saw a different host load");
}

}  // namespace perfzero::compare
