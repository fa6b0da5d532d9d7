// `perfzero validate` and the commands still to come.
#include <cstdlib>
#include <filesystem>
#include <set>

#include <fmt/format.h>

#include "app/commands.hpp"
#include "common/errors.hpp"
#include "common/install_layout.hpp"
#include "config/plan_builder.hpp"

namespace perfzero::app {

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

config::PlanInputs plan_inputs(const method_catalog::Catalog& catalog) {
  config::PlanInputs inputs;
  inputs.catalog = &catalog;
  const char* path = std::getenv("PATH");
  inputs.path_env = path != nullptr ? path : "/usr/bin:/bin";
  inputs.bin_dir = files::helper_dir().string();
  return inputs;
}

// Each suite on its own, as `perfzero --config=SUITE --dry_run` would plan it; every broken suite
// is reported, not only the first.
int validate_suites(const cli::ValidateOptions& options, method_catalog::LazyCatalog& catalog) {
  const config::RegistrySource registry = [&catalog]() -> const Registry& { return catalog.get().registry(); };
  int broken = 0;
  for (const auto& file : options.suites) {
    try {
      auto suite = config::load_suite(file, registry);
      config::PlanInputs inputs = plan_inputs(catalog.learned_or_empty());
      inputs.suites.push_back(std::move(suite));
      const auto plan = config::build_plan(inputs);
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

}  // namespace perfzero::app
