#include "runner/result_source.hpp"

#include <algorithm>

#include "child_results/google_benchmark_result.hpp"
#include "child_results/tool_output.hpp"
#include "common/trial_files.hpp"

namespace perfzero::runner {

child_results::ChildResult measured_result(const TrialExecution& execution) {
  child_results::ChildResult result;
  // Less CPU and memory for the same command is better. The wall time is the trial's own (not a
  // metric too, which every output would then show twice).
  // perfzero-launch writes the kernel's accounting after it reaped the tree. Without it (the launcher
  // itself was killed) the CPU figures would be guesses, so they are left out rather than reported as 0.
  if (execution.kernel) {
    const KernelUsage& kernel = *execution.kernel;
    result.metrics.push_back(
        {kUserCpuMetric, kernel.user_seconds, "s", std::nullopt, std::nullopt, Direction::lower_is_better});
    result.metrics.push_back(
        {kSystemCpuMetric, kernel.system_seconds, "s", std::nullopt, std::nullopt, Direction::lower_is_better});
  }
  // ru_maxrss is exact for each reaped process; the monitor's VmHWM covers a process it saw that the
  // kernel figure may miss (one killed with the launcher). The larger of the two is the tree's peak.
  const std::uint64_t kernel_rss = execution.kernel ? execution.kernel->max_rss_bytes : 0;
  const std::uint64_t max_rss = std::max(kernel_rss, execution.tree.max_hwm_process);
  if (execution.kernel || max_rss > 0) {
    result.metrics.push_back(
        {kMaxRssMetric, static_cast<double>(max_rss), "bytes", std::nullopt, std::nullopt, Direction::lower_is_better});
  }
  return result;
}

namespace {

std::variant<child_results::ChildResult, std::string> read_by_format(const config::PlannedCase& planned,
                                                                     const std::filesystem::path& trial_dir,
                                                                     const TrialExecution& execution) {
  const auto max_bytes = static_cast<std::uint64_t>(planned.max_result_bytes);
  if (planned.external) {
    switch (planned.command.output) {
      case config::OutputFormat::none:
        return measured_result(execution);
      case config::OutputFormat::google_benchmark:
        return child_results::read_google_benchmark(trial_dir / child_results::kGoogleBenchmarkFile, max_bytes);
      case config::OutputFormat::fio:
        return child_results::read_fio(trial_dir / child_results::kFioFile, max_bytes);
      case config::OutputFormat::iperf3:
        return child_results::read_iperf3(trial_dir / child_results::kIperf3File, max_bytes);
      case config::OutputFormat::perfzero:
        break;
    }
  }
  return child_results::read_child_result(trial_dir / files::kResultFile, max_bytes);
}

}  // namespace

std::variant<child_results::ChildResult, std::string> read_trial_result(const config::PlannedCase& planned,
                                                                        const std::filesystem::path& trial_dir,
                                                                        const TrialExecution& execution) {
  auto result = read_by_format(planned, trial_dir, execution);
  if (auto* child = std::get_if<child_results::ChildResult>(&result)) {
    for (Metric& m : child->metrics) {
      if (const auto it = planned.command.metric_directions.find(m.name);
          it != planned.command.metric_directions.end()) {
        m.direction = it->second;
      }
    }
  }
  return result;
}

}  // namespace perfzero::runner
