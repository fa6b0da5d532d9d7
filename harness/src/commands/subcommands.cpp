// `perfzero validate` and the commands still to come.
#include <cstdlib>
#include <filesystem>
#include <set>

#include <fmt/format.h>

#include "commands/commands.hpp"
#include "commands/suite_plan_inputs.hpp"
#include "common/errors.hpp"
#include "common/install_layout.hpp"
#include "config/plan_builder.hpp"
#include "engines/engine.hpp"

namespace perfzero::commands {

namespace {

struct PlanSize {
  std::size_t methods = 0;
  std::size_t cases = 0;
  int trials = 0;
  int warmups = 0;
};

PlanSize size_of(const std::vector<config::PlannedCase>& plan) {
  PlanSize size;
  std::set<std::string> methods;
  for (const auto& c : plan) {
    methods.insert(c.method);
    size.trials += c.trials;
    size.warmups += c.warmup_trials;
  }
  size.methods = methods.size();
  size.cases = plan.size();
  return size;
}

}  // namespace

// Each suite on its own, as `perfzero --config=SUITE --dry_run` would plan it; every broken suite
// is reported, not only the first.
int validate_suites(const cli::ValidateOptions& options, method_catalog::LazyCatalog& catalog) {
  int broken = 0;
  for (const auto& file : options.suites) {
    try {
      config::PlanInputs inputs = suite_plan_inputs(file, catalog);
      const auto plan = engines::build_checked_plan(inputs);
      config::collect_comparisons(inputs.suites, plan);
      const PlanSize s = size_of(plan);
      fmt::print("{}: valid: {} method(s), {} case(s), {} trial(s) + {} warm-up, {} child run(s)\n", file, s.methods,
                 s.cases, s.trials, s.warmups, s.trials + s.warmups);
    } catch (const ConfigError& e) {
      fmt::print(stderr, "perfzero: error: {}\n", e.what());
      ++broken;
    }
  }
  return to_int(broken > 0 ? ExitCode::usage_or_config : ExitCode::all_succeeded);
}

}  // namespace perfzero::commands
