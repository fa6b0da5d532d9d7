#include "compare/compare_runs.hpp"

#include <algorithm>

namespace perfzero::compare {

namespace {

CaseValues::Series& series_for(CaseValues& c, const std::string& metric) {
  for (auto& s : c.series) {
    if (s.metric == metric) return s;
  }
  c.series.push_back({metric, "", Direction::unspecified, {}, {}});
  return c.series.back();
}

// The tree's CPU time from the kernel's accounting; a trial holding it as a metric (a run read back
// from the history) has it in its metrics, which the loop above already took.
void add_tree_cpu(CaseValues& values, const results::Trial& t, bool disturbed) {
  const bool has_metric =
      std::any_of(t.metrics.begin(), t.metrics.end(), [](const auto& m) { return m.name == kTreeCpuRow; });
  const auto seconds = tree_cpu_seconds(t);
  if (has_metric || !seconds) return;
  auto& s = series_for(values, kTreeCpuRow);
  s.unit = "s";
  s.direction = Direction::lower_is_better;
  s.values.push_back(*seconds);
  s.disturbed.push_back(disturbed);
}

const CaseValues* find_case(const std::vector<CaseValues>& cases, const std::string& name) {
  const auto it = std::find_if(cases.begin(), cases.end(), [&](const CaseValues& c) { return c.case_name == name; });
  return it == cases.end() ? nullptr : &*it;
}

const CaseValues::Series* find_series(const CaseValues* c, const std::string& metric) {
  if (c == nullptr) return nullptr;
  const auto it = std::find_if(c->series.begin(), c->series.end(), [&](const auto& s) { return s.metric == metric; });
  return it == c->series.end() ? nullptr : &*it;
}

bool either_tree_busy(const CaseValues& base, const CaseValues::Series& base_cpu, const CaseValues& cand,
                      const CaseValues::Series& cand_cpu) {
  const auto* base_wall = find_series(&base, kWallTimeRow);
  const auto* cand_wall = find_series(&cand, kWallTimeRow);
  return (base_wall != nullptr && tree_was_busy(base_cpu.values, base_wall->values)) ||
         (cand_wall != nullptr && tree_was_busy(cand_cpu.values, cand_wall->values));
}

// One row per metric of `c`, and one per metric the other side has that `c` lacks.
void add_rows(const CaseValues* base, const CaseValues* cand, const Settings& settings, RunComparison& out) {
  std::vector<std::string> metrics;
  for (const auto* c : {base, cand}) {
    if (c == nullptr) continue;
    for (const auto& s : c->series) {
      if (std::find(metrics.begin(), metrics.end(), s.metric) == metrics.end()) metrics.push_back(s.metric);
    }
  }
  for (const auto& metric : metrics) {
    const auto* b = find_series(base, metric);
    const auto* c = find_series(cand, metric);
    // The tree's CPU time is the harness's figure, not the method's: a side whose launcher could not
    // account for it (lost, or a run from before it was kept) measured nothing less, so no row.
    if (metric == kTreeCpuRow && (b == nullptr || c == nullptr)) continue;
    MetricComparison row;
    row.case_name = base != nullptr ? base->case_name : cand->case_name;
    row.metric = metric;
    const auto* known = b != nullptr ? b : c;
    row.unit = known->unit;
    // The candidate's declaration wins: it is the newer code's statement of what it measures.
    row.direction = c != nullptr && c->direction != Direction::unspecified ? c->direction : known->direction;
    if (b != nullptr) row.baseline = side_of(*base, *b, settings.use_flagged);
    if (c != nullptr) row.candidate = side_of(*cand, *c, settings.use_flagged);
    row.gated = is_gated(settings.metrics, metric, row.direction);
    if (metric == kTreeCpuRow && settings.metrics.empty() && !either_tree_busy(*base, *b, *cand, *c)) {
      row.gated = false;
    }
    judge(row, settings);
    out.rows.push_back(std::move(row));
  }
}

}  // namespace

int RunComparison::count(Verdict v) const {
  return static_cast<int>(std::count_if(rows.begin(), rows.end(), [&](const auto& r) { return r.verdict == v; }));
}

bool RunComparison::regression() const {
  return std::any_of(rows.begin(), rows.end(), [](const auto& r) { return r.gated && r.verdict == Verdict::slower; });
}

std::vector<CaseValues> collect_values(const results::Run& run) {
  std::vector<CaseValues> out;
  out.reserve(run.cases.size());
  for (const auto& c : run.cases) {
    CaseValues values;
    values.case_name = c.name;
    values.series.push_back({kWallTimeRow, "s", Direction::lower_is_better, {}, {}});
    for (const auto& t : c.trials) {
      // A failed trial's time is not a speed; a warm-up is not a measurement.
      if (t.warmup || t.outcome != Outcome::succeeded) continue;
      const bool disturbed = results::disturbed(t);
      results::count_disturbances(t, values.flags);
      // A method that reports its own wall_time metric (older runs of `output: none` did too): that one stands.
      bool has_wall_metric = false;
      for (const auto& m : t.metrics) {
        auto& s = series_for(values, m.name);
        s.unit = m.unit;
        if (m.direction != Direction::unspecified) s.direction = m.direction;
        s.values.push_back(m.value);
        s.disturbed.push_back(disturbed);
        has_wall_metric = has_wall_metric || m.name == kWallTimeRow;
      }
      if (!has_wall_metric) {
        values.series.front().values.push_back(t.wall_time);
        values.series.front().disturbed.push_back(disturbed);
      }
      add_tree_cpu(values, t, disturbed);
    }
    out.push_back(std::move(values));
  }
  return out;
}

Side side_of(const CaseValues& c, const CaseValues::Series& s, bool use_flagged) {
  Side side;
  side.succeeded = static_cast<int>(s.values.size());
  for (std::size_t i = 0; i < s.values.size(); ++i) {
    if (s.disturbed[i]) ++side.disturbed;
    if (use_flagged || !s.disturbed[i]) side.values.push_back(s.values[i]);
  }
  if (side.disturbed > 0) side.flags = c.flags;
  return side;
}

RunComparison compare_runs(const results::Run& baseline, const results::Run& candidate, const Settings& settings) {
  RunComparison out;
  out.settings = settings;
  out.baseline = {"", baseline.info.execution_id, baseline.info.execution_label, false, 0};
  out.candidate = {"", candidate.info.execution_id, candidate.info.execution_label, false, 0};
  const auto base = collect_values(baseline);
  const auto cand = collect_values(candidate);
  for (const auto& b : base) add_rows(&b, find_case(cand, b.case_name), settings, out);
  for (const auto& c : cand) {
    if (find_case(base, c.case_name) == nullptr) add_rows(nullptr, &c, settings, out);
  }
  return out;
}

}  // namespace perfzero::compare
