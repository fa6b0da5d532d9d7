// summary.md: the run for people: one table row per case, the comparisons, and every trial that
// did not succeed or was flagged by a sampler (a busy host, a throttled GPU).
#include <filesystem>
#include <utility>

#include <fmt/format.h>

#include "common/escape.hpp"
#include "common/files.hpp"
#include "common/si_number.hpp"
#include "results/auto_trials.hpp"
#include "results/comparisons.hpp"
#include "results/statistics.hpp"
#include "run_outputs/format.hpp"
#include "run_outputs/summary_reporters.hpp"

namespace perfzero::run_outputs {

namespace {

std::string header(const results::Run& run) {
  const auto& info = run.info;
  // Every text here may come from a flag or a file a user wrote: each is made plain Markdown.
  std::string out = fmt::format("# perfzero run {}\n\n", text::md_cell(info.execution_id));
  out += fmt::format("- status: {}\n- label: {}\n- machine: {} ({} logical CPUs, {:.2f} effective vCPUs)\n",
                     text::md_cell(run.status),
                     info.execution_label.empty() ? "(none)" : text::md_cell(info.execution_label),
                     text::md_cell(info.system_info.value("cpu_model", "")),
                     info.system_info.value("logical_cpu_count", 0), info.system.value("effective_vcpus", 0.0));
  if (!info.instance_type.empty()) out += fmt::format("- instance type: {}\n", text::md_cell(info.instance_type));
  if (!info.source.empty()) {
    const auto& s = info.source;
    out += fmt::format("- source: {}{}{}\n", s.commit.empty() ? "(no commit)" : text::md_cell(s.commit),
                       s.branch.empty() ? "" : fmt::format(" on {}", text::md_cell(s.branch)),
                       s.build_label.empty() ? "" : fmt::format(", build {}", text::md_cell(s.build_label)));
  }
  // run --doctor: the machine's pre-flight verdict (docs/doctor.md).
  if (const auto d = info.system.find("doctor"); d != info.system.end() && d->is_object()) {
    std::string warnings;
    for (const auto& w : d->value("warnings", nlohmann::json::array())) {
      if (w.is_string()) warnings += (warnings.empty() ? "" : ", ") + w.get<std::string>();
    }
    out += warnings.empty() ? std::string("- doctor: nothing to fix\n")
                            : fmt::format("- doctor: warnings: {}\n", text::md_cell(warnings));
  }
  return out;
}

std::string case_row(const results::Case& c) {
  const results::CaseStats stats = results::case_stats(c);
  std::string metric_text;
  for (const auto& m : stats.metrics) {
    if (!metric_text.empty()) metric_text += "; ";
    metric_text += fmt::format("{} = {}", m.name, text::si_or(m.stats.median, m.unit, "-"));  // md_cell'd whole below
  }
  const std::string cv = stats.wall_time.cv ? fmt::format("{:.1f}%", *stats.wall_time.cv * 100) : "-";
  std::string flagged = stats.trials_flagged > 0 ? fmt::format(" ({} flagged)", stats.trials_flagged) : "";
  if (c.auto_trials) {
    const results::AutoState s = results::auto_state(c, *c.auto_trials);
    flagged += s.noise ? fmt::format(" (auto: noise {:.1f}%)", *s.noise * 100) : std::string(" (auto)");
  }
  return fmt::format("| {} | {} | {}/{}{} | {} | {} | {} |\n", text::md_cell(c.name),
                     to_string(results::case_outcome(c)), stats.trials_succeeded, c.trials.size(), flagged,
                     text::md_cell(text::si_or(stats.wall_time.median, "s", "-")), cv, text::md_cell(metric_text));
}

std::string comparisons_section(const results::Run& run) {
  const auto comparisons = results::evaluate_comparisons(run);
  if (comparisons.empty()) return "";
  std::string out =
      "\n## Comparisons (ratio of medians, ours / theirs)\n\n| comparison | ours | theirs | ratio | goal |\n"
      "|---|---|---|---|---|\n";
  for (const auto& r : comparisons) {
    std::string goal = "-";
    if (r.spec->goal) {
      goal = fmt::format("{} ({})", text::si_or(r.spec->goal, "", "-"),
                         r.goal_met ? (*r.goal_met ? "met" : "not met") : "no data");
    }
    out += fmt::format("| {} | {} | {} | {} | {} |\n", text::md_cell(r.spec->name), text::si_or(r.ours, "", "-"),
                       text::si_or(r.theirs, "", "-"), r.ratio ? fmt::format("{:.2f}x", *r.ratio) : "-", goal);
  }
  return out;
}

std::string problems_section(const results::Run& run) {
  std::string problems;
  std::string flagged;
  for (const auto& c : run.cases) {
    for (const auto& t : c.trials) {
      if (!counts_as_success(t.outcome)) {
        problems += fmt::format("- {} trial {}: {}: {}\n", text::md_cell(c.name), t.number, to_string(t.outcome),
                                text::md_cell(t.detail));
      }
      for (const auto& flag : t.flags)
        flagged += fmt::format("- {} trial {}: {}\n", text::md_cell(c.name), t.number, text::md_cell(flag));
    }
  }
  std::string out;
  if (!problems.empty()) out += "\n## Problems\n\n" + problems;
  if (const auto d = results::run_disturbances(run); d.disturbed > 0) {
    out += fmt::format("\n## Disturbed trials\n\n{}: their figures show the machine as much as the method. {}.\n",
                       results::describe(d), results::kDisturbanceAdvice);
  }
  if (!flagged.empty()) out += "\n## Flagged trials (measured under conditions worth a look)\n\n" + flagged;
  return out;
}

class SummaryMarkdownReporter : public Reporter {
 public:
  explicit SummaryMarkdownReporter(std::filesystem::path run_dir) : run_dir_(std::move(run_dir)) {}
  void checkpoint(const results::Run& run) override { write(run); }
  void run_finished(const results::Run& run) override { write(run); }

 private:
  void write(const results::Run& run) const { files::write_atomically(run_dir_ / "summary.md", summary_markdown(run)); }

  std::filesystem::path run_dir_;
};

}  // namespace

std::string summary_markdown(const results::Run& run) {
  std::string out = header(run);
  out += "\n| method | outcome | trials | wall median | wall cv | metrics (median) |\n";
  out += "|---|---|---|---|---|---|\n";
  for (const auto& c : run.cases) {
    if (!c.trials.empty() || !c.warmups.empty()) out += case_row(c);
  }
  return out + comparisons_section(run) + problems_section(run);
}

std::unique_ptr<Reporter> make_summary_markdown_reporter(const std::filesystem::path& run_dir) {
  return std::make_unique<SummaryMarkdownReporter>(run_dir);
}

}  // namespace perfzero::run_outputs
