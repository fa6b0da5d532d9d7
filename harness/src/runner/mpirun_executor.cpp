#include "runner/mpirun_executor.hpp"

#include <unistd.h>

#include <algorithm>

#include <fmt/format.h>

#include "common/text.hpp"

namespace perfzero::runner {

MpirunExecutor::MpirunExecutor(LocalExecutor& local, std::filesystem::path mpirun, std::filesystem::path rank_agent)
    : local_(local), mpirun_(std::move(mpirun)), rank_agent_(std::move(rank_agent)) {}

std::vector<std::string> mpirun_prefix(const std::filesystem::path& mpirun, const config::LaunchSpec& spec,
                                       const std::filesystem::path& rank_agent,
                                       const std::vector<std::string>& forwarded_env) {
  std::vector<std::string> argv{mpirun.string(), "--np", std::to_string(spec.world_size())};
  if (!spec.hostfile.empty()) {
    argv.insert(argv.end(), {"--hostfile", spec.hostfile, "--map-by", fmt::format("ppr:{}:node", spec.tasks_per_node)});
  } else {
    // host:slots names how many ranks each host takes, so mpirun neither refuses more ranks than
    // cores nor spreads them differently from what the suite asked.
    std::vector<std::string> hosts;
    if (spec.hosts.empty()) {
      hosts.push_back(fmt::format("localhost:{}", spec.tasks_per_node));
    } else {
      for (int i = 0; i < spec.nodes; ++i) hosts.push_back(fmt::format("{}:{}", spec.hosts[i], spec.tasks_per_node));
    }
    argv.insert(argv.end(), {"--host", text::join(hosts, ",")});
  }
  // Ranks on other hosts get only the variables named here; local ones inherit them anyway.
  for (const auto& name : forwarded_env) argv.insert(argv.end(), {"-x", name});
  argv.insert(argv.end(), spec.extra_args.begin(), spec.extra_args.end());
  argv.push_back(rank_agent.string());
  return argv;
}

TrialExecution MpirunExecutor::run(const TrialRequest& request) {
  TrialRequest wrapped = request;
  auto& argv = wrapped.command.argv;
  auto prefix = mpirun_prefix(mpirun_, request.launch, rank_agent_, request.rank_env);
  argv.insert(argv.begin(), prefix.begin(), prefix.end());
  auto& env = wrapped.command.environment;
  auto set_unless_given = [&env](const std::string& var) {
    const std::string name = var.substr(0, var.find('=') + 1);
    if (std::none_of(env.begin(), env.end(), [&](const std::string& e) { return e.starts_with(name); })) {
      env.push_back(var);
    }
  };
  // OpenMPI refuses to start as root unless told twice; in a container root is the rule.
  if (::geteuid() == 0) {
    set_unless_given("OMPI_ALLOW_RUN_AS_ROOT=1");
    set_unless_given("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1");
  }
  // Asked to stop, mpirun sends its ranks SIGTERM and then, 1 s later by default, SIGKILL: on a busy
  // host a rank's agent was killed before it wrote its report (measured here under a parallel
  // build). 2 s; mpirun then ends about 3 s after the SIGTERM (it waits the time out), within
  // kRankStopGrace.
  set_unless_given("OMPI_MCA_odls_base_sigkill_timeout=2");
  if (wrapped.stop_grace.count() == 0) wrapped.stop_grace = kRankStopGrace;
  TrialExecution execution = local_.run(wrapped);
  execution.engine = std::string(name());
  // The ranks' reports are read by execute_trial, once the trial directory is known to be intact.
  execution.world_size = request.launch.world_size();
  return execution;
}

}  // namespace perfzero::runner
