// `perfzero ab` flags (docs/compare.md, "perfzero ab").
#include <fmt/format.h>

#include "cli/ab_options.hpp"
#include "cli/cli_app.hpp"
#include "cli/compare_options.hpp"
#include "cli/host_busy_flag.hpp"
#include "common/errors.hpp"
#include "common/text.hpp"

namespace perfzero::cli {

namespace {

struct RawSides {
  std::string baseline;
  std::string candidate;
  std::string baseline_build;
  std::string candidate_build;
  std::string baseline_image;
  std::string candidate_image;
  std::string param;
  std::string max_time;
  std::string timeout;
};

void add_side_flags(CLI::App& app, RawSides& raw) {
  const std::string group = "The two sides (one pair of these)";
  app.add_option("--baseline", raw.baseline,
                 "The baseline command, one string split into words as a shell would (quotes, backslashes); no "
                 "shell runs it: write sh -c '...' for pipes or variables")
      ->type_name("CMD")
      ->group(group);
  app.add_option("--candidate", raw.candidate, "The candidate command, split the same way")
      ->type_name("CMD")
      ->group(group);
  app.add_option("--baseline_build", raw.baseline_build,
                 "A perfzero build or install directory (perfzero-worker-* and perfzero-launch) for the baseline")
      ->type_name("DIR")
      ->group(group);
  app.add_option("--candidate_build", raw.candidate_build, "... and for the candidate")->type_name("DIR")->group(group);
  app.add_option("--baseline_image", raw.baseline_image, "A perfzero-cpp Docker image for the baseline")
      ->type_name("IMAGE")
      ->group(group);
  app.add_option("--candidate_image", raw.candidate_image, "... and for the candidate")
      ->type_name("IMAGE")
      ->group(group);
  app.add_option("--param", raw.param,
                 "One parameter of the methods, two values: NAME=BASELINE,CANDIDATE (e.g. threads=1,2)")
      ->type_name("NAME=A,B")
      ->group(group);
}

void add_what_flags(CLI::App& app, AbOptions& out) {
  const std::string group = "What runs (with builds, images or --param)";
  app.add_option("--benchmark_methods", out.benchmark_methods, "Methods, comma-separated, as perfzero run takes them")
      ->delimiter(',')
      ->type_name("LIST")
      ->group(group);
  app.add_option("--config", out.configs, "A YAML suite; repeatable")->type_name("FILE")->group(group);
  app.add_option("--output", out.command_output,
                 "How the two commands report: none (timed, as hyperfine), perfzero, google_benchmark, fio or iperf3 "
                 "(default none)")
      ->check(CLI::IsMember({"none", "perfzero", "google_benchmark", "fio", "iperf3"}))
      ->group(group);
  app.add_option("--image_bin_dir", out.image_bin_dir,
                 "Where the images keep perfzero's workers (default /opt/perfzero/libexec/perfzero, as "
                 "docker/Dockerfile installs)")
      ->type_name("DIR")
      ->group(group);
}

void add_judging_flags(CLI::App& app, AbOptions& out, double& min_change_pct, RawSides& raw) {
  const std::string group = "Deciding";
  app.add_option("--min_change", min_change_pct,
                 "The smallest change, in percent, that counts as slower or faster; within it, 'equivalent' or "
                 "'below threshold' (default 5)")
      ->check(CLI::Range(0.0, 1000.0))
      ->type_name("PCT")
      ->group(group);
  app.add_option("--alpha", out.alpha,
                 "The chance of a false alarm over the whole session, all looks together (default 0.05)")
      ->check(CLI::Range(1e-6, 0.5))
      ->type_name("P")
      ->group(group);
  app.add_option("--metrics", out.metrics,
                 "The metrics that must be decided and gate the exit status, a regular expression (default: as "
                 "compare's: wall_time, tree_cpu_seconds and the method's metrics with a direction)")
      ->type_name("RE")
      ->group(group);
  add_pass_on_flag(app, out.pass_on, group);
  add_host_busy_threshold_flag(app, out.host_busy_threshold, group);
  app.add_option("--max_trials", out.max_pairs, "The most pairs per method (default 100)")
      ->check(CLI::Range(2, 100000))
      ->type_name("N")
      ->group(group);
  app.add_option("--max_time", raw.max_time, "The session's time budget: 90s, 10m, 1h (default 10m)")
      ->type_name("DURATION")
      ->group(group);
  app.add_option("--warmup_trials", out.warmup_trials, "Untimed runs of each side before the pairs (default 1)")
      ->check(CLI::Range(0, 1000))
      ->type_name("N")
      ->group(group);
  app.add_option("--timeout", raw.timeout, "Per-trial time limit (default 1h)")->type_name("DURATION")->group(group);
}

void add_output_flags(CLI::App& app, AbOptions& out) {
  const std::string group = "Output";
  app.add_option("--output_dir", out.output_dir,
                 "Where both sides' runs are kept, as baseline/ and candidate/ (default results/ab/ID)")
      ->type_name("DIR")
      ->group(group);
  app.add_option("--execution_label", out.execution_label, "A label for both runs (each adds /baseline, /candidate)")
      ->group(group);
  app.add_option("--format", out.format, "What stdout gets: text (a table), markdown or json")
      ->check(CLI::IsMember({"text", "markdown", "json"}))
      ->group(group);
  app.add_option("--color", out.colour, "auto (on a terminal, unless NO_COLOR is set), always or never")
      ->check(CLI::IsMember({"auto", "always", "never"}))
      ->group(group);
  app.add_option("--markdown", out.markdown_file, "Also write the Markdown table to this file")
      ->type_name("FILE")
      ->group(group);
  app.add_option("--json", out.json_file, "Also write the JSON comparison to this file")
      ->type_name("FILE")
      ->group(group);
  app.add_option("--junit", out.junit_file,
                 "Also write JUnit XML to this file: a test case per method and metric, a slowdown a failure "
                 "(docs/ci.md)")
      ->type_name("FILE")
      ->group(group);
}

std::chrono::milliseconds duration_of(const std::string& flag, const std::string& text) {
  std::string problem;
  const auto d = text::parse_duration(text, problem);
  if (!d || d->count() <= 0) {
    throw UsageError(fmt::format("ab {}: {}, got '{}'", flag, d ? "expected a positive duration" : problem, text));
  }
  return *d;
}

// Exactly one kind of side, both halves of it.
void pick_sides(const RawSides& raw, AbOptions& out) {
  struct Kind {
    AbSides sides;
    const char* flags;
    std::string baseline;
    std::string candidate;
  };
  const Kind kinds[] = {
      {AbSides::commands, "--baseline/--candidate", raw.baseline, raw.candidate},
      {AbSides::builds, "--baseline_build/--candidate_build", raw.baseline_build, raw.candidate_build},
      {AbSides::images, "--baseline_image/--candidate_image", raw.baseline_image, raw.candidate_image}};
  int given = raw.param.empty() ? 0 : 1;
  for (const auto& k : kinds) {
    if (k.baseline.empty() && k.candidate.empty()) continue;
    if (k.baseline.empty() || k.candidate.empty()) {
      throw UsageError(fmt::format("ab: {} come as a pair: both are needed", k.flags));
    }
    ++given;
    out.sides = k.sides;
    out.baseline = k.baseline;
    out.candidate = k.candidate;
  }
  if (given != 1) {
    throw UsageError(given == 0 ? "ab: nothing to compare: give --baseline 'CMD' --candidate 'CMD', two builds, two "
                                  "images or --param NAME=A,B (perfzero ab --help)"
                                : "ab: give one kind of sides only (commands, builds, images or --param)");
  }
  if (!raw.param.empty()) {
    const auto eq = raw.param.find('=');
    const auto comma = raw.param.find(',', eq == std::string::npos ? 0 : eq);
    if (eq == std::string::npos || eq == 0 || comma == std::string::npos ||
        raw.param.find(',', comma + 1) != std::string::npos) {
      throw UsageError(fmt::format("ab --param: expected NAME=BASELINE,CANDIDATE, got '{}'", raw.param));
    }
    out.sides = AbSides::parameter;
    out.param_name = raw.param.substr(0, eq);
    out.param_baseline = raw.param.substr(eq + 1, comma - eq - 1);
    out.param_candidate = raw.param.substr(comma + 1);
  }
  const bool needs_methods = out.sides != AbSides::commands;
  if (needs_methods && out.benchmark_methods.empty() && out.configs.empty()) {
    throw UsageError("ab: builds, images and --param compare methods: give --benchmark_methods=... or --config=FILE");
  }
  if (!needs_methods && (!out.benchmark_methods.empty() || !out.configs.empty())) {
    throw UsageError("ab: --benchmark_methods and --config go with builds, images or --param, not with two commands");
  }
}

void record_given(const CLI::App& app, AbOptions& out) {
  for (const CLI::Option* opt : app.get_options()) {
    if (opt->count() == 0 || opt->get_lnames().empty() || opt->get_lnames().front() == "help") continue;
    out.given.emplace_back(opt->get_lnames().front(),
                           opt->get_expected_min() == 0 ? "true" : text::join(opt->results(), ","));
  }
}

}  // namespace

std::optional<std::string> parse_ab_flags(int argc, const char* const* argv, AbOptions& out) {
  CLI::App app{
      "Runs a baseline and a candidate interleaved in one session (pairs in ABBA order, so drift and a load that "
      "comes and goes hit both) and adds pairs until every gated metric is decided - slower or faster beyond "
      "--min_change, or equivalent within it - or the budget (--max_trials pairs, --max_time) is spent. Prints "
      "compare's table; both runs are kept. Exit status (the gate, as compare's): 0 passed; 1 failed: a gated "
      "metric slower, or one the candidate measured nothing for (its command failed); 5 undecided: the budget ran "
      "out first (--pass_on accepts either); 2 bad flags; 4 an output that cannot be written; 128+N stopped by "
      "signal N.",
      "perfzero ab"};
  app.get_formatter()->column_width(34);
  RawSides raw;
  double min_change_pct = out.min_change * 100;
  add_side_flags(app, raw);
  add_what_flags(app, out);
  add_judging_flags(app, out, min_change_pct, raw);
  add_output_flags(app, out);
  app.footer(
      "Examples:\n"
      "  perfzero ab --baseline 'gzip -k -f -1 data.bin' --candidate 'gzip -k -f -9 data.bin'\n"
      "  perfzero ab --baseline_build ../main/build/release/harness --candidate_build build/release/harness \\\n"
      "              --benchmark_methods=stream.Stream.benchmark_triad\n"
      "  perfzero ab --config benchmarks/suites/cpu_smoke.yaml --param threads=1,2 --metrics=per_second\n"
      "Full reference: docs/compare.md.");
  if (auto help = parse_or_help(app, argc, argv)) return help;
  out.min_change = min_change_pct / 100;
  if (!raw.max_time.empty()) out.max_time = duration_of("--max_time", raw.max_time);
  if (!raw.timeout.empty()) out.timeout = duration_of("--timeout", raw.timeout);
  check_metrics_pattern("ab --metrics", out.metrics);
  pick_sides(raw, out);
  record_given(app, out);
  return std::nullopt;
}

}  // namespace perfzero::cli
