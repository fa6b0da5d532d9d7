#include <fmt/format.h>

#include "commands/commands.hpp"
#include "common/text.hpp"
#include "engines/engine.hpp"
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
    for (const auto& line : engines::plan_text(c)) fmt::print(out, "    {}\n", line);
  }
  fmt::print(out, "{} method(s), {} child process run(s). Dry run: nothing was executed.\n", plan.size(), runs);
}

}  // namespace perfzero::commands
