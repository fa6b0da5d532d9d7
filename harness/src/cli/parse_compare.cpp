// `perfzero compare` flags (docs/compare.md).
#include <regex>

#include <fmt/format.h>

#include "cli/cli_app.hpp"
#include "cli/compare_options.hpp"
#include "common/errors.hpp"

namespace perfzero::cli {

namespace {

void add_threshold_flags(CLI::App& app, CompareOptions& out, double& min_change_pct, double& max_cv_pct) {
  const std::string group = "Verdicts";
  app.add_option("--min_change", min_change_pct, "Smallest change of the median that counts, in percent (default 5)")
      ->check(CLI::Range(0.0, 1000.0))
      ->type_name("PCT")
      ->group(group);
  app.add_option("--alpha", out.alpha, "Significance level of the Mann-Whitney U test (default 0.05)")
      ->check(CLI::Range(1e-12, 0.5))
      ->type_name("P")
      ->group(group);
  app.add_option("--max_cv", max_cv_pct,
                 "A side whose coefficient of variation is above this, in percent, is 'too noisy' (default 20)")
      ->check(CLI::Range(0.0, 10000.0))
      ->type_name("PCT")
      ->group(group);
  app.add_option("--bootstrap", out.resamples, "Bootstrap resamplings for the 95% interval (default 2000)")
      ->check(CLI::Range(100, 1000000))
      ->type_name("N")
      ->group(group);
  app.add_option("--seed", out.seed, "The bootstrap's seed: the same runs and seed give the same output (default 1)")
      ->type_name("N")
      ->group(group);
  app.add_flag("--use_flagged", out.use_flagged,
               "Judge disturbed trials too (host busy, GPU throttled); by default they are left out, and a row "
               "with too few others is 'unreliable'")
      ->group(group);
  app.add_option("--metrics", out.metrics,
                 "Only metrics whose name this regular expression finds gate the exit status (default: wall_time, "
                 "the process tree's tree_cpu_seconds and the method's metrics with a direction; never the counters) "
                 "(e.g. 'cpu_seconds$' on a busy runner); every row is still shown")
      ->type_name("RE")
      ->group(group);
  add_pass_on_flag(app, out.pass_on, group);
}

}  // namespace

void add_pass_on_flag(CLI::App& app, GatePassOn& out, const std::string& group) {
  app.add_option_function<std::vector<std::string>>(
         "--pass_on",
         [&out](const std::vector<std::string>& kinds) {
           for (const auto& kind : kinds) {
             (kind == "undecided" ? out.undecided : out.missing) = true;
           }
         },
         "What the gate accepts besides a decided row that is not slower: undecided (too noisy, unreliable, "
         "confounded, unknown rows exit 0, not 5), missing (rows the candidate measured nothing for exit 0, not 1); "
         "comma-separated")
      ->delimiter(',')
      ->check(CLI::IsMember({"undecided", "missing"}))
      ->type_name("KINDS")
      ->group(group);
}

void check_metrics_pattern(const std::string& flag, const std::string& pattern) {
  try {
    (void)std::regex(pattern, std::regex::ECMAScript);
  } catch (const std::regex_error& e) {
    throw UsageError(fmt::format("{}: not a regular expression: '{}' ({})", flag, pattern, e.what()));
  }
}

namespace {

void add_history_flags(CLI::App& app, CompareOptions& out) {
  const std::string group = "Against the history (docs/history.md)";
  app.add_option("--history", out.history_db,
                 "Compare CANDIDATE with the last runs of --label in this results database (a SQLite file or a "
                 "postgresql:// URL) instead of with a BASELINE")
      ->type_name("DB")
      ->group(group);
  app.add_option("--label", out.label, "The execution label whose runs are the baseline (with --history)")
      ->type_name("LABEL")
      ->group(group);
  app.add_option("--last", out.last, "How many of the label's latest runs (default 30)")
      ->check(CLI::Range(2, 100000))
      ->type_name("N")
      ->group(group);
  app.add_option("--z_threshold", out.z_threshold,
                 "A step change is |z| above this, against the history's spread (default 5, as Conbench)")
      ->check(CLI::Range(0.0, 1000.0))
      ->type_name("Z")
      ->group(group);
}

}  // namespace

std::optional<std::string> parse_compare_flags(int argc, const char* const* argv, CompareOptions& out) {
  CLI::App app{
      "Compares two runs per method and metric: the change in median with a 95% bootstrap interval, a "
      "Mann-Whitney U p-value and a verdict (faster, slower, same, below threshold, equivalent, changed, too noisy, "
      "unreliable, confounded, missing). Trials flagged as disturbed (host busy, GPU throttled) are left out. Two runs "
      "made at different times are said to be when the host load differed or disturbed trials were judged, and a "
      "direction read there, either way, is 'confounded' (use perfzero ab). Exit status (the "
      "gate): 0 passed; 1 failed: a gated metric significantly slower beyond --min_change, or one the candidate "
      "measured nothing for; 5 undecided: a gated metric too noisy, unreliable or confounded (--pass_on accepts "
      "either); 2 bad flags or unreadable runs; 4 an output that cannot be written.",
      "perfzero compare"};
  app.get_formatter()->column_width(30);
  std::vector<std::string> runs;
  app.add_option("RUNS", runs,
                 "BASELINE CANDIDATE: run directories (or one perfzero_summary.json each); "
                 "CANDIDATE alone with --history")
      ->type_name("RUN");
  app.add_option("--format", out.format, "What to print: text (a table, coloured on a terminal), markdown or json")
      ->check(CLI::IsMember({"text", "markdown", "json"}));
  app.add_option("--color", out.colour, "auto (on a terminal, unless NO_COLOR is set), always or never")
      ->check(CLI::IsMember({"auto", "always", "never"}));
  app.add_option("--markdown", out.markdown_file, "Also write the Markdown table to this file")->type_name("FILE");
  app.add_option("--json", out.json_file, "Also write the JSON comparison to this file")->type_name("FILE");
  app.add_option("--junit", out.junit_file,
                 "Also write JUnit XML to this file: a test case per method and metric, a slowdown a failure "
                 "(docs/ci.md)")
      ->type_name("FILE");
  double min_change_pct = out.min_change * 100;
  double max_cv_pct = out.max_cv * 100;
  add_threshold_flags(app, out, min_change_pct, max_cv_pct);
  add_history_flags(app, out);
  if (auto help = parse_or_help(app, argc, argv)) return help;
  check_metrics_pattern("compare --metrics", out.metrics);
  out.min_change = min_change_pct / 100;
  out.max_cv = max_cv_pct / 100;
  const std::size_t wanted = out.history_db.empty() ? 2 : 1;
  if (runs.size() != wanted) {
    throw UsageError(out.history_db.empty()
                         ? fmt::format("compare: expected BASELINE and CANDIDATE, got {} run(s) (perfzero "
                                       "compare --help)",
                                       runs.size())
                         : fmt::format("compare --history: expected one CANDIDATE run, got {}", runs.size()));
  }
  if (!out.history_db.empty() && out.label.empty()) {
    throw UsageError("compare --history: --label is required (the label whose runs are the baseline)");
  }
  if (out.history_db.empty() && !out.label.empty()) {
    throw UsageError("compare: --label needs --history DB");
  }
  out.candidate = runs.back();
  if (wanted == 2) out.baseline = runs.front();
  return std::nullopt;
}

}  // namespace perfzero::cli
