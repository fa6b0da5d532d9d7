// What a dry run shows of a case's engine (EngineKind::plan_text): the run loop's and the dry run's
// code name no engine; each engine says what of its cases a person checking a plan needs to see.
#include <fmt/format.h>

#include "common/text.hpp"
#include "engines/engine.hpp"
#include "redact/redact.hpp"

namespace perfzero::engines {

std::vector<std::string> plan_text(const config::PlannedCase& planned, const EngineRegistry& engines) {
  const EngineKind* kind = engines.find(planned.launch.engine);
  if (kind == nullptr || !kind->plan_text) return {};
  return kind->plan_text(planned);
}

std::vector<std::string> launch_plan_text(const config::PlannedCase& planned) {
  const auto& l = planned.launch;
  return {
      fmt::format("launch: {}{}{}{}", config::describe(l), l.hosts.empty() ? "" : ", hosts " + text::join(l.hosts, " "),
                  l.hostfile.empty() ? "" : ", hostfile " + l.hostfile,
                  l.extra_args.empty() ? "" : ", extra_args " + text::join(redact::redact_argv(l.extra_args), " "))};
}

}  // namespace perfzero::engines
