#include <filesystem>

#include <fmt/format.h>

#include "app/commands.hpp"
#include "common/errors.hpp"
#include "config/plan_builder.hpp"
#include "runner/signals.hpp"
#include "runner/trial_runner.hpp"

namespace perfzero::app {

int perfzero_main(int argc, const char* const* argv) {
  // Before any thread exists, so every thread inherits the mask (runner/signals.hpp).
  runner::block_harness_signals();
  runner::become_subreaper();
  try {
    const auto parsed = cli::parse_command_line(argc, argv);
    if (!parsed.options) {
      std::fputs(parsed.message.c_str(), stdout);
      return parsed.exit_code;
    }
    const cli::Options& options = *parsed.options;
    if (options.list) {
      list_methods(stdout);
      return 0;
    }
    config::PlanInputs inputs;
    inputs.method_specs = options.benchmark_methods;
    inputs.flags = options.settings;
    for (const auto& file : options.configs) inputs.suites.push_back(config::load_suite(file));
    const char* path = std::getenv("PATH");
    inputs.path_env = path != nullptr ? path : "/usr/bin:/bin";
    std::error_code no_exe;
    inputs.bin_dir = std::filesystem::read_symlink("/proc/self/exe", no_exe).parent_path().string();
    const auto plan = config::build_plan(inputs);
    if (plan.empty()) throw ConfigError("nothing to run: the methods and suites given select no method");
    const auto comparisons = config::collect_comparisons(inputs.suites, plan);
    if (options.dry_run) {
      print_plan(stdout, plan);
      return 0;
    }
    bool interleave = options.interleave;
    for (const auto& suite : inputs.suites) interleave = interleave || suite.interleave;
    return run_benchmarks(options, plan, comparisons, interleave);
  } catch (const UsageError& e) {
    fmt::print(stderr, "perfzero: error: {}\n", e.what());
    return static_cast<int>(ExitCode::usage_or_config);
  } catch (const ConfigError& e) {
    fmt::print(stderr, "perfzero: error: {}\n", e.what());
    return static_cast<int>(ExitCode::usage_or_config);
  } catch (const std::exception& e) {
    fmt::print(stderr, "perfzero: internal error: {}\n", e.what());
    return static_cast<int>(ExitCode::internal_error);
  }
}

}  // namespace perfzero::app
