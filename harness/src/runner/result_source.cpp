#include "runner/result_source.hpp"

#include <algorithm>

#include "common/trial_files.hpp"
#include "runner/google_benchmark_result.hpp"

namespace perfzero::runner {

ChildResult measured_result(const TrialExecution& execution) {
  ChildResult result;
  result.metrics.push_back({kWallTimeMetric, execution.wall_seconds, "s", std::nullopt, std::nullopt});
  // perfzero-launch writes the kernel's accounting after it reaped the tree. Without it (the launcher
  // itself was killed) the CPU figures would be guesses, so they are left out rather than reported as 0.
  if (execution.kernel) {
    const KernelUsage& kernel = *execution.kernel;
    result.metrics.push_back({kUserCpuMetric, kernel.user_seconds, "s", std::nullopt, std::nullopt});
    result.metrics.push_back({kSystemCpuMetric, kernel.system_seconds, "s", std::nullopt, std::nullopt});
  }
  // ru_maxrss is exact for each reaped process; the monitor's VmHWM covers a process it saw that the
  // kernel figure may miss (one killed with the launcher). The larger of the two is the tree's peak.
  const std::uint64_t kernel_rss = execution.kernel ? execution.kernel->max_rss_bytes : 0;
  const std::uint64_t max_rss = std::max(kernel_rss, execution.tree.max_hwm_process);
  if (execution.kernel || max_rss > 0) {
    result.metrics.push_back({kMaxRssMetric, static_cast<double>(max_rss), "bytes", std::nullopt, std::nullopt});
  }
  return result;
}

std::variant<ChildResult, std::string> read_trial_result(const config::PlannedCase& planned,
                                                         const std::filesystem::path& trial_dir,
                                                         const TrialExecution& execution) {
  const auto max_bytes = static_cast<std::uint64_t>(planned.max_result_bytes);
  if (planned.external) {
    switch (planned.command.output) {
      case config::OutputFormat::none:
        return measured_result(execution);
      case config::OutputFormat::google_benchmark:
        return read_google_benchmark(trial_dir / kGoogleBenchmarkFile, max_bytes);
      case config::OutputFormat::perfzero:
        break;
    }
  }
  return read_child_result(trial_dir / files::kResultFile, max_bytes);
}

}  // namespace perfzero::runner
