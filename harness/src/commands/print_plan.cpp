#include <fmt/format.h>

#include "commands/commands.hpp"
#include "common/text.hpp"
#include "redact/redact.hpp"

namespace perfzero::commands {

void print_plan(std::FILE* out, const std::vector<config::PlannedCase>& plan) {
  int runs = 0;
  for (const auto& c : plan) {
    runs += c.trials + c.warmup_trials;
    fmt::print(out, "{}\n    {} trial(s), {} warm-up, timeout {}, monitor every {} ms  [{}]\n", c.name, c.trials,
               c.warmup_trials,
               c.timeout.count() > 0 ? text::format_duration(static_cast<double>(c.timeout.count()) / 1000.0) : "none",
               c.monitor_interval.count(), c.origin);
    // A dry run's output is pasted into issues and CI logs: it shows no secret (docs/reports.md).
    if (c.external) {
      fmt::print(out, "    command: {}  (in {})\n", text::join(redact::redact_argv(c.command.argv), " "),
                 redact::redact_urls(c.command.working_dir.string()));
    }
    for (const auto& [k, v] : c.env) fmt::print(out, "    env {}={}\n", k, redact::redact_value(k, v));
    if (c.launch.engine != config::LaunchEngine::local) {
      const auto& l = c.launch;
      fmt::print(out, "    launch: {}{}{}{}\n", config::describe(l),
                 l.hosts.empty() ? "" : ", hosts " + text::join(l.hosts, " "),
                 l.hostfile.empty() ? "" : ", hostfile " + l.hostfile,
                 l.extra_args.empty() ? "" : ", extra_args " + text::join(redact::redact_argv(l.extra_args), " "));
    }
  }
  fmt::print(out, "{} method(s), {} child process run(s). Dry run: nothing was executed.\n", plan.size(), runs);
}

}  // namespace perfzero::commands
