#include "ab/ab_sides.hpp"

#include <unistd.h>

#include <fmt/format.h>

#include "api/param_json.hpp"
#include "common/errors.hpp"
#include "common/install_layout.hpp"
#include "common/shell_words.hpp"
#include "common/text.hpp"
#include "config/output_format.hpp"
#include "config/param_override.hpp"
#include "config/plan_builder.hpp"
#include "engines/engine.hpp"
#include "redact/redact.hpp"

namespace perfzero::ab {

namespace {

config::OutputFormat output_of(const std::string& name) {
  return config::output_format_from(name).value_or(config::OutputFormat::none);
}

// Also settles the side's host-busy threshold, which the suites may name.
config::PlanInputs inputs_for(const cli::AbOptions& options, const method_catalog::Catalog& catalog, AbSide& side) {
  config::PlanInputs inputs = config::installed_plan_inputs(catalog);
  inputs.method_specs = options.benchmark_methods;
  inputs.flags = ab_settings(options);
  for (const auto& file : options.configs) inputs.suites.push_back(config::load_suite(file, catalog.registry()));
  side.host_busy_threshold = config::host_busy_threshold_for(options.host_busy_threshold, inputs.suites);
  return inputs;
}

// A command side: one external entry, planned as a suite's would be (its program looked up on PATH).
std::vector<config::PlannedCase> plan_command(const cli::AbOptions& options, const method_catalog::Catalog& catalog,
                                              const std::string& flag, const std::string& line) {
  std::string problem;
  const auto words = text::split_shell_words(line, problem);
  if (!words) {
    throw UsageError(fmt::format("ab {}: cannot split '{}' into words: {}", flag, redact::redact_text(line), problem));
  }
  config::SuiteEntry entry;
  entry.origin = flag;
  entry.key = flag;
  entry.external = true;
  entry.name = "command";
  entry.argv = *words;
  entry.working_dir = std::filesystem::current_path();
  entry.output = output_of(options.command_output);
  config::Suite suite;
  suite.name = "ab";
  suite.entries.push_back(std::move(entry));
  config::PlanInputs inputs = config::installed_plan_inputs(catalog);
  inputs.flags = ab_settings(options);
  inputs.suites.push_back(std::move(suite));
  return engines::build_checked_plan(inputs);
}

void plan_build(const cli::AbOptions& options, const std::string& dir, AbSide& side) {
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) {
    throw UsageError(fmt::format("ab --{}_build: '{}' is not a directory", side.role, dir));
  }
  method_catalog::DiscoveryOptions discovery;
  discovery.bin_dir = files::helper_dir_of(dir);
  side.catalog = std::make_unique<method_catalog::Catalog>(method_catalog::discover(discovery, stderr));
  if (side.catalog->workers().empty()) {
    throw UsageError(fmt::format("ab --{}_build: '{}' holds no usable perfzero-worker-*", side.role, dir));
  }
  // A build's own launcher where it has one; a directory of workers alone uses ours.
  const auto launcher = discovery.bin_dir / "perfzero-launch";
  if (::access(launcher.c_str(), X_OK) == 0) side.paths.launcher = launcher;
  try {
    side.plan = engines::build_checked_plan(inputs_for(options, *side.catalog, side));
  } catch (const ConfigError& e) {
    throw ConfigError(fmt::format("ab --{}_build {}: {}", side.role, dir, e.what()));
  }
}

// An image side: our plan, each built-in case run by the same worker inside the image. The run's
// directory is mounted at the same path, so the worker writes its result where the harness reads it.
void plan_image(const cli::AbOptions& options, const method_catalog::Catalog& ours, const std::string& image,
                const std::string& session_id, AbSide& side) {
  side.plan = engines::build_checked_plan(inputs_for(options, ours, side));
  side.container = text::path_component(fmt::format("perfzero-ab-{}-{}", session_id, side.role));
  const std::string run_dir = std::filesystem::absolute(side.run_dir).string();
  for (auto& c : side.plan) {
    if (c.external) {
      throw ConfigError(fmt::format("{}: {} is an external command; --{}_image runs built-in methods only", c.origin,
                                    c.name, side.role));
    }
    std::vector<std::string> argv = {"docker",
                                     "run",
                                     "--rm",
                                     "--name",
                                     side.container,
                                     "--network",
                                     "none",
                                     "--user",
                                     fmt::format("{}:{}", ::getuid(), ::getgid()),
                                     "--volume",
                                     run_dir + ":" + run_dir,
                                     "--entrypoint",
                                     (std::filesystem::path(options.image_bin_dir) / c.worker.filename()).string()};
    for (const char* name : {"PERFZERO_RESULT_FILE", "PERFZERO_TRIAL_DIR", "PERFZERO_RUN_DIR", "PERFZERO_TRIAL",
                             "PERFZERO_METHOD", "TMPDIR"}) {
      argv.insert(argv.end(), {"--env", name});
    }
    argv.push_back(image);
    argv.push_back(c.method);
    if (!c.params.empty()) {
      argv.push_back(detail::params_to_json(c.params).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
    }
    c.external = true;
    c.command.argv = std::move(argv);
    c.command.working_dir = std::filesystem::current_path();
    c.command.output = config::OutputFormat::perfzero;
  }
}

void plan_parameter(const cli::AbOptions& options, const method_catalog::Catalog& ours, const std::string& value,
                    AbSide& side) {
  config::PlanInputs inputs = inputs_for(options, ours, side);
  int taken = config::override_suite_parameter(inputs.suites, options.param_name, value);
  side.plan = engines::build_checked_plan(inputs);
  taken += config::override_plan_parameter(side.plan, ours.registry(), options.param_name, value);
  if (taken == 0) {
    throw UsageError(fmt::format("ab --param: no method of the plan takes a parameter named '{}'", options.param_name));
  }
}

// Case i of one side is paired with case i of the other: the plans must line up.
void check_pairing(const AbSide& baseline, const AbSide& candidate) {
  if (baseline.plan.size() != candidate.plan.size()) {
    throw ConfigError(fmt::format("ab: the baseline plans {} case(s) and the candidate {}: they cannot be paired",
                                  baseline.plan.size(), candidate.plan.size()));
  }
  for (std::size_t i = 0; i < baseline.plan.size(); ++i) {
    if (baseline.plan[i].method != candidate.plan[i].method) {
      throw ConfigError(fmt::format("ab: case {} is {} in the baseline but {} in the candidate", i + 1,
                                    baseline.plan[i].method, candidate.plan[i].method));
    }
  }
}

}  // namespace

config::RunSettings ab_settings(const cli::AbOptions& options) {
  config::RunSettings s;
  s.trials = options.max_pairs;
  s.warmup_trials = options.warmup_trials;
  if (options.timeout) s.timeout = *options.timeout;
  return s;
}

void plan_sides(const cli::AbOptions& options, const method_catalog::Catalog& ours, const std::string& session_id,
                AbSide& baseline, AbSide& candidate) {
  const auto ours_paths = session::find_harness_paths();
  for (AbSide* side : {&baseline, &candidate}) {
    const bool is_baseline = side == &baseline;
    side->role = is_baseline ? "baseline" : "candidate";
    side->paths = ours_paths;
    side->run_dir = std::filesystem::path(options.output_dir) / side->role;
    const std::string& given = is_baseline ? options.baseline : options.candidate;
    switch (options.sides) {
      // `what` is shown and recorded (ab.json, ab.md, stderr, each side's run.json): redacted as it
      // enters, like a suite's command.
      case cli::AbSides::commands:
        side->what = redact::redact_text(given);
        side->plan = plan_command(options, ours, "--" + side->role, given);
        side->host_busy_threshold = options.host_busy_threshold;
        break;
      case cli::AbSides::builds:
        side->what = redact::redact_text(given);
        plan_build(options, given, *side);
        break;
      case cli::AbSides::images:
        side->what = redact::redact_text(given);
        plan_image(options, ours, given, session_id, *side);
        break;
      case cli::AbSides::parameter: {
        const std::string& value = is_baseline ? options.param_baseline : options.param_candidate;
        side->what = options.param_name + "=" + redact::redact_value(options.param_name, value);
        plan_parameter(options, ours, value, *side);
        break;
      }
    }
    if (side->plan.empty()) throw ConfigError("ab: nothing to run: the methods and suites given select no method");
  }
  check_pairing(baseline, candidate);
}

}  // namespace perfzero::ab
