#include <fmt/format.h>
#include <CLI/CLI.hpp>
#include <algorithm>
#include <charconv>
#include <filesystem>
#include <limits>

#include "cli/cli_app.hpp"
#include "cli/host_busy_flag.hpp"
#include "cli/options.hpp"
#include "cli/run_flag_values.hpp"
#include "common/errors.hpp"
#include "common/escape.hpp"
#include "common/text.hpp"
#include "perfzero_build_info.hpp"

namespace perfzero::cli {

namespace {

constexpr const char* kFooter = R"(Examples:
  perfzero --benchmark_methods=sanity.Sanity.benchmark_noop --benchmark_num_trials=3
  perfzero --benchmark_methods=sanity.Sanity.filter:benchmark_sleep.* --output_dir=results/run1
  perfzero --config benchmarks/suites/cpu_smoke.yaml --platform_name=oci --system_name=VM.Standard.E4.Flex-2
  perfzero list --format=json
  perfzero validate benchmarks/suites/cpu_standard.yaml

Method names: family.Class.method, family.Class:method, or family.Class.filter:REGEX.
Exit status: 0 all succeeded or skipped, 1 any other outcome, 2 bad flags or suite,
3 harness error, 4 an output could not be written, 128+N when stopped by signal N.
Full reference: docs/cli.md.)";

std::string first_flag_name(const std::string& arg) {
  std::string name = arg;
  const auto eq = name.find('=');
  if (eq != std::string::npos) name = name.substr(0, eq);
  return name;
}

// CLI::App can be neither copied nor moved, so parse_command_line constructs it and this sets it up.
void set_up_app(CLI::App& app) {
  app.footer(kFooter);
  app.get_formatter()->column_width(34);
  app.set_version_flag("--version",
                       std::string("perfzero ") + build_info::kVersion + " (" + build_info::kGitHash + ")");
  app.allow_windows_style_options(false);
}

void add_selecting_options(CLI::App& app, Options& o) {
  const char* sel = "Selecting methods";
  app.add_option("--benchmark_methods", o.benchmark_methods,
                 "Methods to run, comma-separated; repeatable. family.Class.method, family.Class:method or "
                 "family.Class.filter:REGEX")
      ->group(sel)
      ->delimiter(',')
      ->type_name("LIST");
  app.add_option("--config", o.configs, "YAML suite file; repeatable (format: docs/suites.md)")
      ->group(sel)
      ->type_name("FILE");
  app.add_flag("--list", o.list, "Alias of `perfzero list`: every method with its worker, description and parameters")
      ->group(sel);
  app.add_flag("--dry_run", o.dry_run, "Print what would run (methods, trials, settings) and exit")->group(sel);
}

// --benchmark_num_trials=auto's limits.
void add_noise_limits(CLI::App& app, RawValues& raw) {
  const char* noise = "Trials chosen by noise (--benchmark_num_trials=auto; docs/suites.md)";
  app.add_option("--min_trials", raw.min_trials, "auto: at least this many trials (default 5)")
      ->group(noise)
      ->type_name("N");
  app.add_option("--max_trials", raw.max_trials, "auto: at most this many trials (default 50)")
      ->group(noise)
      ->type_name("N");
  app.add_option("--min_time", raw.min_time, "auto: at least this much time in trials (default 0.5s)")
      ->group(noise)
      ->type_name("DURATION");
  app.add_option("--max_time", raw.max_time, "auto: at most this much time per method (default 5m)")
      ->group(noise)
      ->type_name("DURATION");
  app.add_option("--max_noise", raw.max_noise,
                 "auto: stop once the 95% interval of the median is within this percentage of it (default 2)")
      ->group(noise)
      ->type_name("PCT");
}

// How each trial is watched: counters, clocks, the machine's check.
void add_trial_watching(CLI::App& app, RawValues& raw, const char* run) {
  app.add_option("--counters", raw.counters,
                 "What perf_event_open counts per trial, from the method's exec with its children: default "
                 "(all), none, software, hardware, or names (task_clock,context_switches,cpu_migrations,"
                 "page_faults,cycles,instructions,branches,branch_misses,cache_references,cache_misses); "
                 "docs/monitoring.md")
      ->group(run)
      ->type_name("SET");
  app.add_option("--lock_gpu_clocks", raw.lock_gpu_clocks,
                 "Hold every GPU's SM clock for the run: base (the TDP clock) or max (the highest); needs root "
                 "and an NVIDIA driver; released when the run ends (docs/gpu.md)")
      ->group(run)
      ->type_name("base|max");
  app.add_flag("--doctor", raw.doctor,
               "Check the machine first (perfzero doctor --quick, 5 s) and record the verdict in run.json")
      ->group(run);
  app.add_option("--cpu_throttle_threshold", raw.cpu_throttle_threshold,
                 "A CPU clock below this percentage of the CPU's maximum counts as throttled (default 90)")
      ->group(run)
      ->type_name("PCT");
  app.add_option("--cpu_throttle_share", raw.cpu_throttle_share,
                 "A trial whose clock was throttled in more than this percentage of its samples is flagged "
                 "cpu_throttled (default 10)")
      ->group(run)
      ->type_name("PCT");
}

void add_running_limits(CLI::App& app, RawValues& raw) {
  const char* run = "Running";
  app.add_option("--benchmark_num_trials", raw.trials,
                 "Trials per method (default 1), or auto: as many as the noise needs (--min_trials, --max_trials, "
                 "--min_time, --max_time, --max_noise); overrides suites")
      ->group(run)
      ->type_name("N|auto");
  add_noise_limits(app, raw);
  app.add_option("--warmup_trials", raw.warmup, "Discarded runs before the trials (default 0); overrides suites")
      ->group(run)
      ->type_name("N");
  app.add_option("--timeout", raw.timeout, "Per-run time limit: 90, 90s, 5m, 2h; 0 for none (default 1h)")
      ->group(run)
      ->type_name("DURATION");
  app.add_option("--monitor_interval_ms", raw.interval, "Process-tree sampling interval (default 100)")
      ->group(run)
      ->type_name("MS");
  add_trial_watching(app, raw, run);
  app.add_option("--launch", raw.launch,
                 "How every method's processes start: local (default), mpirun[,nodes=N,tasks_per_node=K,"
                 "hosts=a:b,hostfile=F,extra_args=x:y] or slurm[,nodes=N,tasks_per_node=K,hosts=a:b,"
                 "partition=P,gpus_per_task=G,extra_args=x:y] (docs/multi-host.md); overrides suites")
      ->group(run)
      ->type_name("ENGINE[,KEY=VALUE...]");
  app.add_option("--max_cases", raw.max_cases,
                 "Most cases (method x sweep point) the run may plan (default 100000); overrides suites")
      ->group(run)
      ->type_name("N");
  app.add_option("--max_result_bytes", raw.max_result_bytes,
                 "Largest result file (or Google Benchmark output) read, in bytes (default 64 MiB); overrides suites")
      ->group(run)
      ->type_name("BYTES");
  app.add_option("--max_log_bytes", raw.max_log_bytes,
                 "perfzero.log past this many bytes keeps its head and tail (default 64 MiB); overrides suites")
      ->group(run)
      ->type_name("BYTES");
}

void add_running_outputs(CLI::App& app, Options& o) {
  const char* run = "Running";
  app.add_option("--output_dir", o.output_dir,
                 "Directory for this run's reports (default results/runs/EXECUTION_ID); must not hold another run")
      ->group(run)
      ->type_name("DIR");
  app.add_option("--report", o.reports,
                 "Outputs to write, comma-separated (default all but the exports): perfzero (per-trial reports), "
                 "process_info, json, csv, md (run summaries; docs/reports.md); elasticsearch, influx, openmetrics "
                 "(dashboard exports; docs/exports.md); mlflow (sent to a tracking server when the run ends). "
                 "+NAME adds to the defaults: --report=+mlflow")
      ->group(run)
      ->delimiter(',')
      ->type_name("LIST");
  app.add_option("--mlflow_tracking_uri", o.mlflow_tracking_uri,
                 "With --report=+mlflow: the MLflow tracking server, http(s)://HOST:PORT (default "
                 "$MLFLOW_TRACKING_URI); a server that is down or refuses never fails the run (docs/exports.md)")
      ->group(run)
      ->type_name("URL");
  app.add_option("--history", o.history_db,
                 "Store the run in this results database when it completes: a SQLite file or a postgresql:// URL "
                 "(docs/history.md)")
      ->group(run)
      ->type_name("DB");
  app.add_flag("--fail_on_change", o.fail_on_change,
               "With --history: exit 1 when the run makes a slower change point in its series (perfzero history "
               "changes; docs/history.md)")
      ->group(run);
  app.add_flag("--resume", o.resume, "Continue the run in --output_dir: skip (method, trial) pairs already reported")
      ->group(run);
  app.add_flag("--force_resume", o.force_resume,
               "With --resume: continue even when the plan differs from the run's (changed cases run again)")
      ->group(run);
  app.add_flag("--slurm_allocate", o.slurm_allocate,
               "Ask Slurm for one allocation (salloc) before the first trial, as many nodes as the largest "
               "launch: slurm case, run every such case as a step in it, and release it at the end")
      ->group(run);
  app.add_flag("--interleave", o.interleave,
               "Run trial 1 of every method, then trial 2 of every method, ...; fairer comparisons on a "
               "drifting machine")
      ->group(run);
  app.add_option("--root_data_dir", o.root_data_dir, "Data directory passed to methods as $PERFZERO_ROOT_DATA_DIR")
      ->group(run)
      ->type_name("DIR");
  app.add_flag("--debug", o.debug, "Print each child's command line and environment changes")->group(run);
}

void add_recording_options(CLI::App& app, Options& o) {
  const char* rec = "Recording (PerfZero)";
  app.add_option("--execution_id", o.execution_id, "Identifier of this run (default: UTC time plus a random suffix)")
      ->group(rec)
      ->type_name("ID");
  app.add_option("--execution_label", o.execution_label, "Free-form label stored in every report")->group(rec);
  app.add_option("--platform_name", o.platform_name, "Platform (e.g. oci, aws, gcp, azure, local)")->group(rec);
  app.add_option("--system_name", o.system_name, "System name (e.g. the instance shape)")->group(rec);
  app.add_option("--instance_type", o.instance_type, "Instance type; overrides what DMI files say")->group(rec);
  app.add_option("--ml_framework_build_label", o.ml_framework_build_label, "Build label stored in ml_framework_info")
      ->group(rec);
  app.add_option("--commit", o.commit,
                 "The commit of the code being measured (default: CI's variable, e.g. GITHUB_SHA, else the git "
                 "checkout in the working directory; docs/history.md)")
      ->group(rec)
      ->type_name("COMMIT");
  app.add_option("--branch", o.branch, "Its branch (default: CI's variable, else the git checkout)")
      ->group(rec)
      ->type_name("BRANCH");
  app.add_option("--build_label", o.build_label,
                 "A label for the build measured (e.g. -O3, gcc-12); stored in ml_framework_info.build_label "
                 "unless --ml_framework_build_label says otherwise")
      ->group(rec)
      ->type_name("LABEL");
  app.add_option("--detect_source", o.detect_source,
                 "true (default): take the commit and branch from CI's variables or the git checkout when the "
                 "flags do not say; false: only from --commit and --branch")
      ->group(rec)
      ->type_name("BOOL");
  app.add_option("--dmi_root", o.dmi_root, "Directory of DMI files (default /sys/class/dmi/id; tests use fixtures)")
      ->group(rec)
      ->type_name("DIR");
}

// CLI11 reads "--flag=" as "--flag" and then takes the next argument as its value, so
// "--benchmark_methods= --dry_run" would run a method called "--dry_run": refuse it here.
void refuse_empty_values(int argc, const char* const* argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--") break;
    if (arg.size() > 3 && arg.rfind("--", 0) == 0 && arg.back() == '=' && arg.find('=') == arg.size() - 1) {
      const std::string flag(arg.substr(0, arg.size() - 1));
      throw UsageError(fmt::format("{}: the value is empty; give {}=VALUE or leave the flag out", flag, flag));
    }
  }
}

[[noreturn]] void throw_extras_error(const CLI::App& app) {
  std::vector<std::string> known;
  for (const CLI::Option* opt : app.get_options()) {
    for (const auto& name : opt->get_lnames()) known.push_back("--" + name);
  }
  for (auto& extra : app.remaining()) {
    const std::string name = first_flag_name(extra);
    if (name.rfind("--", 0) == 0 || name.rfind('-', 0) == 0) {
      throw UsageError(
          fmt::format("unknown flag {}{} (perfzero --help lists the flags)", name, text::did_you_mean(name, known)));
    }
    throw UsageError(
        fmt::format("unexpected argument '{}': methods go in --benchmark_methods=..., suites in --config=FILE", extra));
  }
  throw UsageError("unexpected arguments (perfzero --help lists the flags)");
}

[[noreturn]] void throw_conversion_error(const CLI::ConversionError& e) {
  // Only the on/off flags take converted values; CLI11 says "Could not convert: --flag = value".
  const std::string message = e.what();
  const auto colon = message.find(": ");
  const auto eq = message.find(" = ");
  if (colon != std::string::npos && eq != std::string::npos && eq > colon) {
    throw UsageError(fmt::format("{}: expected true or false, got '{}'", message.substr(colon + 2, eq - colon - 2),
                                 message.substr(eq + 3)));
  }
  throw UsageError(message);
}

// Returns the text to print for --help and --version; turns every other CLI11 error into a UsageError.
std::optional<ParseResult> parse_or_translate(CLI::App& app, int argc, const char* const* argv) {
  describe_instead_of_parsing(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    return ParseResult{std::nullopt, app.help(), 0};
  } catch (const CLI::CallForVersion&) {
    return ParseResult{std::nullopt, app.version() + "\n", 0, true};
  } catch (const CLI::ExtrasError&) {
    throw_extras_error(app);
  } catch (const CLI::ConversionError& e) {
    throw_conversion_error(e);
  } catch (const CLI::ParseError& e) {
    throw UsageError(e.what());
  }
  return std::nullopt;
}

void record_given_flags(const CLI::App& app, Options& o) {
  for (const CLI::Option* opt : app.get_options()) {
    if (opt->count() == 0 || opt->get_lnames().empty()) continue;
    const std::string name = opt->get_lnames().front();
    if (name == "help" || name == "version") continue;
    const auto results = opt->results();
    o.given.emplace_back(name, opt->get_expected_min() == 0 ? "true" : text::join(results, ","));
  }
}

// The same suite twice would plan every method twice, and the second's names collide with the first's:
// say so, naming every place it was given, rather than report a collision at one of them.
void refuse_repeated_suites(const std::vector<std::string>& configs) {
  for (std::size_t i = 0; i < configs.size(); ++i) {
    std::vector<std::string> places;
    std::error_code ec;
    for (std::size_t j = 0; j < configs.size(); ++j) {
      const bool same = j == i || configs[j] == configs[i] || std::filesystem::equivalent(configs[i], configs[j], ec);
      if (!same) continue;
      if (j < i) break;  // reported from its first occurrence
      places.push_back(fmt::format("--config #{} '{}'", j + 1, configs[j]));
    }
    if (places.size() > 1) {
      throw UsageError(fmt::format("--config: the same suite is given {} times: {}; give each suite once",
                                   places.size(), text::join(places, ", ")));
    }
  }
}

void validate_combinations(const Options& o) {
  if (o.execution_id.find('/') != std::string::npos || o.execution_id == "." || o.execution_id == "..") {
    throw UsageError(fmt::format("--execution_id: expected a name without '/', got '{}'", o.execution_id));
  }
  // It names a directory and heads every summary: a newline or escape there breaks both.
  const auto control = std::find_if(o.execution_id.begin(), o.execution_id.end(),
                                    [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; });
  if (control != o.execution_id.end()) {
    throw UsageError(fmt::format(
        "--execution_id: expected a name without control characters, got '{}' (byte 0x{:02x} "
        "at offset {})",
        text::printable(o.execution_id), static_cast<unsigned char>(*control), control - o.execution_id.begin()));
  }
  refuse_repeated_suites(o.configs);
  if (!o.list && o.benchmark_methods.empty() && o.configs.empty()) {
    throw UsageError("nothing to run: give --benchmark_methods=..., --config=FILE or --list (perfzero --help)");
  }
  (void)python_settings_of(o.python);  // a bad --perfzero_constructor_args is a usage error before anything runs
  if (o.force_resume && !o.resume) throw UsageError("--force_resume: only with --resume");
  if (o.fail_on_change && o.history_db.empty()) throw UsageError("--fail_on_change: only with --history");
  if (o.resume && o.output_dir.empty()) {
    throw UsageError("--resume: needs --output_dir=DIR naming the run to continue");
  }
}

}  // namespace

ParseResult parse_command_line(int argc, const char* const* argv, bool top_level) {
  // `perfzero --help` is the first help people read: it names the other commands first.
  const std::string about =
      "perfzero: runs benchmark methods in isolated child processes and writes PerfZero-schema reports.";
  CLI::App app{top_level ? about + "\n\n" + commands_help() : about, top_level ? "perfzero" : "perfzero run"};
  set_up_app(app);
  Options o;
  RawValues raw;
  add_selecting_options(app, o);
  add_running_limits(app, raw);
  add_host_busy_threshold_flag(app, o.host_busy_threshold, "Running");
  add_running_outputs(app, o);
  add_recording_options(app, o);
  add_python_flags(app, o.python);

  refuse_empty_values(argc, argv);
  if (auto early = parse_or_translate(app, argc, argv)) return std::move(*early);

  record_given_flags(app, o);
  convert_raw_values(raw, o);
  validate_combinations(o);
  return {std::move(o), "", 0};
}

}  // namespace perfzero::cli
