#include "cli/host_busy_flag.hpp"

#include <fmt/format.h>
#include <CLI/CLI.hpp>
#include <charconv>

#include "config/suite.hpp"

namespace perfzero::cli {

void add_host_busy_threshold_flag(CLI::App& app, std::optional<double>& out, const std::string& group) {
  app.add_option_function<double>(
         "--host_busy_threshold", [&out](double cpus) { out = cpus; },
         fmt::format("Flag a trial host_busy when other processes used more than this many CPUs during it "
                     "(default: 0.25, or 2 % of a machine with more than 12 CPUs; the suite's host_busy_threshold); "
                     "more than 0, at most {:g}",
                     config::kMaxHostBusyThresholdCpus))
      ->check(CLI::Validator(
          [](const std::string& v) -> std::string {
            double cpus = 0;
            const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), cpus);
            if (ec == std::errc{} && end == v.data() + v.size() && cpus > 0 &&
                cpus <= config::kMaxHostBusyThresholdCpus) {
              return "";
            }
            return fmt::format("expected a number of CPUs more than 0 and at most {:g}, got '{}'",
                               config::kMaxHostBusyThresholdCpus, v);
          },
          "", "a number of CPUs"))
      ->type_name("CPUS")
      ->group(group);
}

}  // namespace perfzero::cli
