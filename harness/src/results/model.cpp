#include "results/model.hpp"

#include <algorithm>
#include <array>

namespace perfzero::results {

Case* Run::find_case(const std::string& name) {
  auto it = std::find_if(cases.begin(), cases.end(), [&](const Case& c) { return c.name == name; });
  return it == cases.end() ? nullptr : &*it;
}

const Case* Run::find_case(const std::string& name) const { return const_cast<Run*>(this)->find_case(name); }

Outcome case_outcome(const Case& c) {
  // Ordered from best to worst.
  static constexpr std::array order{Outcome::succeeded, Outcome::skipped,   Outcome::interrupted, Outcome::failed,
                                    Outcome::invalid,   Outcome::timed_out, Outcome::crashed};
  if (c.trials.empty()) return Outcome::interrupted;
  std::size_t worst = 0;
  for (const auto& t : c.trials) {
    const auto at = static_cast<std::size_t>(std::find(order.begin(), order.end(), t.outcome) - order.begin());
    worst = std::max(worst, at);
  }
  return order[std::min(worst, order.size() - 1)];
}

Case case_heading(const Case& c) {
  Case heading;
  heading.name = c.name;
  heading.method = c.method;
  heading.description = c.description;
  heading.origin = c.origin;
  heading.external = c.external;
  heading.python = c.python;
  heading.main_metric = c.main_metric;
  heading.output = c.output;
  heading.params = c.params;
  heading.trials_planned = c.trials_planned;
  heading.auto_trials = c.auto_trials;
  heading.warmups_planned = c.warmups_planned;
  heading.timeout_seconds = c.timeout_seconds;
  heading.monitor_interval_ms = c.monitor_interval_ms;
  heading.command = c.command;
  heading.working_dir = c.working_dir;
  heading.launch = c.launch;
  heading.dir = c.dir;
  return heading;
}

const char* method_type(const Case& c) {
  if (!c.python.is_null()) return "python";
  return c.external ? "command" : "builtin";
}

void set_method_type(Case& c, const std::string& type) {
  c.external = type == "command" || type == "python";
  // A report names the type only: the Python details come with it where it keeps them.
  if (type == "python" && c.python.is_null()) c.python = nlohmann::json::object();
}

}  // namespace perfzero::results
