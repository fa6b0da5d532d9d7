#pragma once
// --host_busy_threshold for `run` and `ab`: how many CPUs' worth of other processes' work during a
// trial flag it host_busy (samplers/host_load_sampler.hpp; docs/monitoring.md). Without it the
// suite's `host_busy_threshold` holds, else the default, a quarter of a CPU or 2 % of the machine's.
#include <optional>
#include <string>

namespace CLI {
class App;
}  // namespace CLI

namespace perfzero::cli {

void add_host_busy_threshold_flag(CLI::App& app, std::optional<double>& out, const std::string& group);

}  // namespace perfzero::cli
