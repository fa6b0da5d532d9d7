#include "runner/trial_result.hpp"

#include <unistd.h>

#include <algorithm>

#include "child_results/extras_bound.hpp"
#include "redact/redact.hpp"
#include "samplers/host_load_sampler.hpp"

namespace perfzero::runner {

using nlohmann::json;

namespace {

// A rank's own peak: its tree's sampled sum, or its largest process's (wait4), whichever is larger.
std::uint64_t rank_peak(const child_results::RankEnd& r) {
  return std::max(r.tree_max_rss_bytes.value_or(0), r.max_rss_bytes);
}

// The busiest rank's CPU over its life, as a percentage of one CPU.
double ranks_max_cpu_percent(const TrialExecution& e) {
  double most = 0;
  for (const auto& r : e.ranks.ranks) {
    if (r.wall_seconds > 0) most = std::max(most, 100.0 * (r.user_seconds + r.system_seconds) / r.wall_seconds);
  }
  return most;
}

}  // namespace

std::uint64_t reported_max_rss(const TrialExecution& e) {
  // A multi-rank method's process_info keeps PerfZero's meaning: the method's peak, the largest
  // rank's; the launcher's tree here holds srun (or mpirun and only this host's ranks).
  if (e.world_size > 0 && !e.ranks.ranks.empty()) {
    std::uint64_t peak = 0;
    for (const auto& r : e.ranks.ranks) peak = std::max(peak, rank_peak(r));
    return peak;
  }
  std::uint64_t peak = std::max(e.tree.max_rss_tree, e.tree.max_hwm_process);
  if (e.kernel) peak = std::max(peak, e.kernel->max_rss_bytes);
  return peak;
}

namespace {

json process_detail(const TrialExecution& e, const config::PlannedCase& planned) {
  const auto& m = e.tree;
  const double cpu_seconds = e.kernel ? e.kernel->user_seconds + e.kernel->system_seconds : m.tree_cpu_seconds;
  // Member by member: a braced list builds every value twice, and this runs after every trial.
  json detail = json::object();
  json& rss = detail["max_rss_sources"];
  rss["sampled_tree_sum"] = m.max_rss_tree;
  rss["sampled_largest_vmhwm"] = m.max_hwm_process;
  rss["kernel_largest_maxrss"] = e.kernel ? json(e.kernel->max_rss_bytes) : json(nullptr);
  detail["avg_cpu_percent"] = e.wall_seconds > 0 ? json(100.0 * cpu_seconds / e.wall_seconds) : json(nullptr);
  detail["user_cpu_seconds"] = e.kernel ? json(e.kernel->user_seconds) : json(nullptr);
  detail["system_cpu_seconds"] = e.kernel ? json(e.kernel->system_seconds) : json(nullptr);
  detail["max_threads"] = m.max_threads;
  detail["max_processes"] = m.max_processes;
  // The sampler's own count: a kernel line written for a tree gone before the first sample is no sample.
  detail["samples"] =
      e.samplers.empty() ? std::size_t{0} : e.samplers.front().second.summary.value("samples", std::size_t{0});
  detail["monitor_interval_ms"] = planned.monitor_interval.count();
  detail["monitor_cpu_seconds"] = e.monitor_cpu_seconds;
  detail["leftover_processes_killed"] = e.leftover_processes_killed;
  json& kernel = detail["kernel_rusage"];
  if (e.kernel) {
    kernel["max_rss_bytes"] = e.kernel->max_rss_bytes;
    kernel["user_cpu_seconds"] = e.kernel->user_seconds;
    kernel["system_cpu_seconds"] = e.kernel->system_seconds;
    kernel["reaped_processes"] = e.kernel->reaped_processes;
  }
  detail["log_bytes_dropped"] = e.log_bytes_dropped;
  return detail;
}

void fill_from_child(const child_results::ChildResult& child, results::Trial& t) {
  for (const auto& m : child.metrics)
    t.metrics.push_back({m.name, m.value, m.unit, m.min_value, m.max_value, m.direction});
  // Bounded first: redaction must not walk a nesting the bound cuts off.
  t.extras = child.extras;
  if (!child_results::bound_extras(t.extras).empty()) t.flags.emplace_back("extras_cut");
  t.extras = redact::redacted_reported_json(t.extras);
  t.ml_framework_info = child.ml_framework_info;
  t.self_wall_time = child.self_wall_time;
  t.repetitions = child_results::repetitions_json(child.repetitions);
  t.flags.insert(t.flags.end(), child.flags.begin(), child.flags.end());
}

}  // namespace

namespace {

// Each host's facts and load, from its ranks' reports. The load's "others" are what was busy beside
// the method's ranks: every rank on the same machine counts as the method's own (hosts in namespaces
// or containers of one machine share one /proc/stat; their boot id says so).
struct HostView {
  std::string name;
  std::vector<int> ranks;
  const child_results::HostFacts* facts = nullptr;
  const child_results::HostLoad* load = nullptr;
  const std::vector<child_results::HostGpu>* gpus = nullptr;
};

nlohmann::json gpus_json(const std::vector<child_results::HostGpu>& gpus) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& g : gpus) {
    out.push_back({{"index", g.index},
                   {"name", g.name},
                   {"samples", g.samples},
                   {"util_max_percent", g.util_max_percent},
                   {"util_mean_percent", g.util_mean_percent},
                   {"memory_used_max_bytes", g.memory_used_max_bytes},
                   {"memory_total_bytes", g.memory_total_bytes},
                   {"power_mean_watts", g.power_mean_watts ? nlohmann::json(*g.power_mean_watts) : nlohmann::json()}});
  }
  return out;
}

nlohmann::json host_json(const HostView& h, const std::vector<HostView>& all,
                         const std::vector<child_results::RankEnd>& ranks, bool& busy) {
  nlohmann::json out{{"hostname", h.name}, {"ranks", h.ranks}};
  if (h.facts != nullptr) {
    out["system_info"] = {{"cpus", h.facts->cpus},
                          {"cpu_model", h.facts->cpu_model},
                          {"mem_total_bytes", h.facts->mem_total_bytes},
                          {"kernel", h.facts->kernel}};
    std::vector<std::string> same_machine;
    for (const auto& other : all) {
      if (&other != &h && other.facts != nullptr && !h.facts->boot_id.empty() &&
          other.facts->boot_id == h.facts->boot_id) {
        same_machine.push_back(other.name);
      }
    }
    if (!same_machine.empty()) out["same_machine_as"] = same_machine;
  }
  if (h.gpus != nullptr) out["gpus"] = gpus_json(*h.gpus);
  if (h.load != nullptr && h.facts != nullptr) {
    double own = 0;
    for (const auto& r : ranks) {
      // Without a boot id, only the host's own ranks are known to share its CPUs.
      const bool same_machine =
          h.facts->boot_id.empty() ? r.host == h.name : r.host_facts && r.host_facts->boot_id == h.facts->boot_id;
      if (same_machine) own += r.user_seconds + r.system_seconds;
    }
    // The same rule as this host's own load (samplers/host_load_sampler.hpp), on what the agent saw.
    const double ticks = static_cast<double>(::sysconf(_SC_CLK_TCK));
    const auto verdict = samplers::judge_host_load({}, {h.load->busy_cpu_seconds * ticks, 0, 0}, h.load->wall_seconds,
                                                   own, static_cast<int>(std::max(1L, h.facts->cpus)), ticks);
    out["load"] = {{"busy_cpus", verdict.host_busy_cpus},
                   {"other_busy_cpus", verdict.other_busy_cpus},
                   {"threshold_cpus", verdict.threshold_cpus},
                   {"judged", verdict.judged},
                   {"busy", verdict.busy},
                   {"busy_max_percent", 100.0 * h.load->busy_max_fraction},
                   {"samples", h.load->samples},
                   {"interval_ms", h.load->interval_ms},
                   {"agent_cpu_seconds", h.load->agent_cpu_seconds}};
    busy = busy || verdict.busy;
  }
  return out;
}

}  // namespace

// The ranks as reports show them, and the hosts they ran on in the order first seen.
nlohmann::json ranks_json(const TrialExecution& e, const config::LaunchSpec& launch, bool& a_host_was_busy) {
  nlohmann::json ranks = nlohmann::json::array();
  nlohmann::json hosts = nlohmann::json::array();
  std::vector<HostView> views;
  for (const auto& r : e.ranks.ranks) {
    ranks.push_back({{"rank", r.rank},
                     {"host", r.host},
                     {"local_rank", r.local_rank},
                     {"pid", r.pid},
                     {"exit_code", r.exit_code ? nlohmann::json(*r.exit_code) : nlohmann::json(nullptr)},
                     {"signal", r.signal != 0 ? nlohmann::json(signal_name(r.signal)) : nlohmann::json(nullptr)},
                     {"max_rss", r.max_rss_bytes},
                     {"user_seconds", r.user_seconds},
                     {"system_seconds", r.system_seconds},
                     {"wall_seconds", r.wall_seconds},
                     {"tmp_leftover_files", r.tmp_leftover_files}});
    if (r.tree_max_rss_bytes) {
      ranks.back()["max_rss_tree"] = *r.tree_max_rss_bytes;
      ranks.back()["max_processes"] = r.tree_max_processes;
      ranks.back()["max_threads"] = r.tree_max_threads;
    }
    auto host = std::find_if(views.begin(), views.end(), [&](const HostView& h) { return h.name == r.host; });
    if (host == views.end()) host = views.insert(views.end(), HostView{r.host, {}, nullptr, nullptr, nullptr});
    host->ranks.push_back(r.rank);
    if (host->facts == nullptr && r.host_facts) host->facts = &*r.host_facts;
    if (host->load == nullptr && r.host_load) host->load = &*r.host_load;
    if (host->gpus == nullptr && !r.host_gpus.empty()) host->gpus = &r.host_gpus;
  }
  // Ranks killed before they could report still name their host, from their start record.
  nlohmann::json missing_hosts = nlohmann::json::array();
  for (const auto& s : e.ranks.unreported) {
    missing_hosts.push_back({{"rank", s.rank}, {"host", s.host}});
    auto host = std::find_if(views.begin(), views.end(), [&](const HostView& h) { return h.name == s.host; });
    if (host == views.end()) host = views.insert(views.end(), HostView{s.host, {}, nullptr, nullptr, nullptr});
    host->ranks.push_back(s.rank);
    std::sort(host->ranks.begin(), host->ranks.end());
    if (host->facts == nullptr && s.host_facts) host->facts = &*s.host_facts;
  }
  for (const auto& view : views) hosts.push_back(host_json(view, views, e.ranks.ranks, a_host_was_busy));
  return {{"engine", config::launch_engine_name(launch.engine)},
          {"nodes", launch.nodes},
          {"tasks_per_node", launch.tasks_per_node},
          {"world_size", e.world_size},
          {"ranks", std::move(ranks)},
          {"hosts", std::move(hosts)},
          {"missing", e.ranks.missing},
          {"missing_hosts", std::move(missing_hosts)},
          {"refused_results", e.ranks.refused_results},
          {"problems", e.ranks.problems}};
}

results::Trial make_trial(TrialRecord& record) {
  const auto& e = record.execution;
  results::Trial t;
  t.number = record.trial;
  t.warmup = record.warmup;
  t.outcome = record.classification.outcome;
  t.detail = record.classification.detail;
  t.has_exception = record.classification.has_exception;
  if (e.end == ProcessEnd::exited) t.exit_code = e.exit_code;
  if (e.end == ProcessEnd::signaled) t.signal = signal_name(e.signal);
  t.wall_time = e.wall_seconds;
  t.harness_seconds = record.harness_seconds;
  t.started_offset = record.started_offset;
  if (const auto* child = std::get_if<child_results::ChildResult>(&record.result)) fill_from_child(*child, t);
  t.process.max_rss = reported_max_rss(e);
  t.process.max_vms = e.tree.max_vms_tree;
  t.process.max_cpu_percent =
      e.world_size > 0 && !e.ranks.ranks.empty() ? ranks_max_cpu_percent(e) : e.tree.max_cpu_percent;
  t.process.detail = process_detail(e, *record.planned);
  if (e.log_bytes_dropped > 0) t.flags.emplace_back("log_truncated");
  if (e.harness_stalled) t.flags.emplace_back("harness_stalled");
  bool a_host_was_busy = false;
  if (e.world_size > 0) {
    t.ranks = ranks_json(e, record.planned->launch, a_host_was_busy);
    // Worth a look even when the trial succeeded: a rank's result was not read, or a rank said nothing.
    if (!e.ranks.refused_results.empty()) t.flags.emplace_back("rank_results_refused");
    if (!e.ranks.missing.empty()) t.flags.emplace_back("ranks_unreported");
  }
  // Moved, not copied: the summaries are most of a trial's record (their copy most of what making
  // the trial cost), and nothing reads them from the execution afterwards.
  for (auto& [name, output] : record.execution.samplers) {
    t.samplers[name] = std::move(output.summary);
    t.metrics.insert(t.metrics.end(), std::make_move_iterator(output.metrics.begin()),
                     std::make_move_iterator(output.metrics.end()));
    t.flags.insert(t.flags.end(), output.flags.begin(), output.flags.end());
  }
  // Another host of the method was busy with something else: the trial is disturbed, as when this one is.
  if (a_host_was_busy && std::find(t.flags.begin(), t.flags.end(), "host_busy") == t.flags.end()) {
    t.flags.emplace_back("host_busy");
  }
  // Lexical: the trial's directory is built under the run's (run_loop), and relative() would resolve
  // every component of both through readlink, on every trial.
  t.dir = record.dir.lexically_relative(record.run_dir).string();
  return t;
}

results::TrialArtifacts make_artifacts(TrialRecord& record) {
  results::TrialArtifacts a;
  a.dir = record.dir;
  for (auto& [name, output] : record.execution.samplers) a.series.push_back(std::move(output.series));
  return a;
}

}  // namespace perfzero::runner
