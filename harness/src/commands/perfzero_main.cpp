#include <csignal>
#include <filesystem>
#include <system_error>
#include <variant>

#include <fmt/format.h>

#include "cli/completion.hpp"
#include "commands/commands.hpp"
#include "common/errors.hpp"
#include "common/files.hpp"
#include "common/standard_streams.hpp"
#include "config/plan_builder.hpp"
#include "engines/engine.hpp"
#include "method_catalog/catalog.hpp"
#include "python_methods/data_downloads.hpp"
#include "python_methods/git_repos.hpp"
#include "python_methods/python_inputs.hpp"
#include "runner/signals.hpp"
#include "runner/trial_runner.hpp"

namespace perfzero::commands {

namespace {

void say_workspace(const std::string& line) { fmt::print(stderr, "perfzero: {}\n", line); }

// PerfZero's steps before the plan: the repositories that --python_path may name are checked out
// (the classes are listed from them), and the data is copied. Returns site_package_info's entries.
nlohmann::json prepare_workspace(cli::Options& resolved) {
  namespace fs = std::filesystem;
  const cli::PythonFlags& flags = resolved.python;
  auto repos = python_methods::parse_git_repos(flags.git_repos);
  const auto downloads = python_methods::parse_data_downloads(flags.data_downloads);
  std::error_code ec;
  const fs::path workspace = fs::absolute(flags.workspace, ec);
  if (!repos.empty()) python_methods::check_out(repos, workspace / "site-packages", say_workspace);
  if (!downloads.empty()) {
    if (resolved.root_data_dir.empty()) resolved.root_data_dir = (workspace / "data").string();
    // A dry run checks out the repositories (the classes are listed from them) but copies no data.
    if (!resolved.dry_run) python_methods::fetch_data(downloads, resolved.root_data_dir, say_workspace);
  }
  return python_methods::site_package_info(repos);
}

int run(const cli::Options& options, method_catalog::LazyCatalog& catalog) {
  cli::Options resolved = options;
  const nlohmann::json site_packages = prepare_workspace(resolved);
  // The workers are asked for their methods only when a method name needs them.
  if (!options.benchmark_methods.empty()) (void)catalog.get();
  const config::RegistrySource registry = [&catalog]() -> const Registry& { return catalog.get().registry(); };
  std::vector<config::Suite> suites;
  for (const auto& file : options.configs) suites.push_back(config::load_suite(file, registry));
  config::PlanInputs inputs = config::installed_plan_inputs(catalog.learned_or_empty());
  python_methods::add_python_inputs(inputs, cli::python_settings_of(options.python));
  inputs.method_specs = options.benchmark_methods;
  inputs.flags = options.settings;
  inputs.max_cases = options.max_cases;
  inputs.suites = std::move(suites);
  const auto plan = engines::build_checked_plan(inputs);
  if (plan.empty()) throw ConfigError("nothing to run: the methods and suites given select no method");
  const auto comparisons = config::collect_comparisons(inputs.suites, plan);
  if (options.dry_run) {
    print_plan(stdout, plan);
    return to_int(ExitCode::all_succeeded);
  }
  bool interleave = options.interleave;
  for (const auto& suite : inputs.suites) interleave = interleave || suite.interleave;
  resolved.host_busy_threshold = config::host_busy_threshold_for(resolved.host_busy_threshold, inputs.suites);
  return run_benchmarks(resolved, plan, comparisons, interleave, site_packages);
}

// One overload per command (cli::Invocation's alternatives); std::visit refuses to build without
// one for each. Only the commands that need methods pay for asking the workers (concurrently, and
// only those whose list the cache lacks: method_catalog/list_cache.hpp).
int command(const cli::Options& options) {
  method_catalog::LazyCatalog catalog(stderr);
  return run(options, catalog);
}

int command(const cli::ListOptions& options) {
  const method_catalog::Catalog catalog = method_catalog::discover_installed(stderr);
  const nlohmann::json python = python_methods_listing(options);
  if (options.names) {
    for (const auto& m : catalog.registry().methods()) fmt::print("{}\n", m.full_name());
    print_python_methods(stdout, python, true);
  } else if (options.json) {
    list_methods_json(stdout, catalog, python);
  } else {
    list_methods(stdout, catalog);
    print_python_methods(stdout, python, false);
  }
  return to_int(ExitCode::all_succeeded);
}

int command(const cli::ValidateOptions& options) {
  method_catalog::LazyCatalog catalog(stderr);
  return validate_suites(options, catalog);
}

int command(const cli::DoctorOptions& options) { return doctor_command(options); }
int command(const cli::VersionOptions& /*options*/) { return version_command(); }
int command(const cli::CompletionOptions& options) {
  std::fputs(cli::completion_script(options.shell, cli::describe_commands()).c_str(), stdout);
  return to_int(ExitCode::all_succeeded);
}
int command(const cli::ManPageOptions& /*options*/) {
  std::fputs(cli::man_page(cli::describe_commands(), version_line()).c_str(), stdout);
  return to_int(ExitCode::all_succeeded);
}
int command(const cli::AbOptions& options) { return ab_command(options, method_catalog::discover_installed(stderr)); }
int command(const cli::ReportOptions& options) {
  return options.estimate.empty() ? report_command(options) : estimate_command(options);
}
int command(const cli::CompareOptions& options) { return compare_command(options); }
int command(const cli::HistoryOptions& options) { return history_command(options); }
int command(const cli::ExportOptions& options) { return export_command(options); }

int dispatch(const cli::Invocation& invocation) {
  return std::visit([](const auto& options) { return command(options); }, invocation.command);
}

}  // namespace

int perfzero_main(int argc, const char* const* argv) {
  // First: before anything opens a file that could take a closed descriptor's number.
  standard_streams::make_safe();
  // Before any thread exists, so every thread inherits the mask (runner/signals.hpp).
  runner::block_harness_signals();
  runner::become_subreaper();
  // A closed stdout (`perfzero ... | head -1`) must not kill the run: writes then fail with EPIPE
  // and are dropped. Children get the default back (runner::unblock_all_signals_in_child).
  std::signal(SIGPIPE, SIG_IGN);
  try {
    const auto parsed = cli::parse_invocation(argc, argv);
    if (!parsed.invocation) {
      std::fputs(parsed.message.c_str(), stdout);
      return parsed.exit_code;
    }
    return dispatch(*parsed.invocation);
  } catch (const UsageError& e) {
    fmt::print(stderr, "perfzero: error: {}\n", e.what());
    return to_int(ExitCode::usage_or_config);
  } catch (const ConfigError& e) {
    fmt::print(stderr, "perfzero: error: {}\n", e.what());
    return to_int(ExitCode::usage_or_config);
  } catch (const OutputError& e) {
    fmt::print(stderr, "perfzero: error: {}\n", e.what());
    return to_int(ExitCode::output_unwritable);
  } catch (const std::filesystem::filesystem_error& e) {
    // The file system refused something we did not expect to fail: the outside world, not a bug.
    fmt::print(stderr, "perfzero: error: {}\n", e.what());
    return to_int(ExitCode::output_unwritable);
  } catch (const files::WriteError& e) {
    // A file it was asked to write (--junit /dev/full, a report on a full disk): named.
    fmt::print(stderr, "perfzero: error: {}\n", e.what());
    return to_int(ExitCode::output_unwritable);
  } catch (const std::system_error& e) {
    // stdout closed by its reader (`perfzero list | head -1`), or a full disk under it: what was
    // asked for was not delivered, which is an output error, not a harness bug.
    const auto code = e.code();
    if (code == std::errc::broken_pipe || code == std::errc::no_space_on_device || code == std::errc::io_error ||
        code == std::errc::bad_file_descriptor) {
      fmt::print(stderr, "perfzero: error: standard output could not be written: {}\n", code.message());
      return to_int(ExitCode::output_unwritable);
    }
    fmt::print(stderr, "perfzero: internal error: {}\n", e.what());
    return to_int(ExitCode::internal_error);
  } catch (const std::exception& e) {
    fmt::print(stderr, "perfzero: internal error: {}\n", e.what());
    return to_int(ExitCode::internal_error);
  }
}

}  // namespace perfzero::commands
