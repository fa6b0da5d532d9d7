#include "child_results/rank_reports.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "child_results/bounded_json.hpp"
#include "child_results/untrusted_file.hpp"

namespace perfzero::child_results {

namespace {

// A report is a few hundred bytes; anything much larger was not written by perfzero-rank.
constexpr std::uint64_t kMaxRankReportBytes = std::uint64_t{64} << 10;

template <typename T>
T number_or(const nlohmann::json& j, const char* key, T fallback) {
  const auto it = j.find(key);
  return it != j.end() && it->is_number() ? it->get<T>() : fallback;
}

std::optional<HostFacts> host_facts_of(const nlohmann::json& j) {
  const auto h = j.find("host_info");
  if (h == j.end() || !h->is_object()) return std::nullopt;
  HostFacts facts;
  facts.cpus = number_or<long>(*h, "cpus", 0);
  facts.mem_total_bytes = number_or<std::uint64_t>(*h, "mem_total_bytes", 0);
  for (auto [key, into] : {std::pair{"cpu_model", &facts.cpu_model}, std::pair{"kernel", &facts.kernel},
                           std::pair{"boot_id", &facts.boot_id}}) {
    if (const auto v = h->find(key); v != h->end() && v->is_string()) *into = v->get<std::string>().substr(0, 256);
  }
  return facts;
}

// Bounded as the agent writes it: at most 16 GPUs.
std::vector<HostGpu> host_gpus_of(const nlohmann::json& j) {
  std::vector<HostGpu> gpus;
  const auto list = j.find("host_gpus");
  if (list == j.end() || !list->is_array()) return gpus;
  for (const auto& g : *list) {
    if (!g.is_object() || gpus.size() >= 16) continue;
    HostGpu gpu;
    gpu.index = number_or<int>(g, "index", 0);
    if (const auto n = g.find("name"); n != g.end() && n->is_string()) gpu.name = n->get<std::string>().substr(0, 96);
    gpu.samples = number_or<long>(g, "samples", 0);
    gpu.util_max_percent = number_or<double>(g, "util_max_percent", 0);
    gpu.util_mean_percent = number_or<double>(g, "util_mean_percent", 0);
    gpu.memory_used_max_bytes = number_or<double>(g, "memory_used_max_bytes", 0);
    gpu.memory_total_bytes = number_or<double>(g, "memory_total_bytes", 0);
    if (const auto p = g.find("power_mean_watts"); p != g.end() && p->is_number())
      gpu.power_mean_watts = p->get<double>();
    gpus.push_back(std::move(gpu));
  }
  return gpus;
}

std::optional<RankStart> parse_start(const nlohmann::json& j, int rank) {
  if (!j.is_object() || number_or<int>(j, "rank", -1) != rank) return std::nullopt;
  RankStart s;
  s.rank = rank;
  s.local_rank = number_or<int>(j, "local_rank", -1);
  if (const auto h = j.find("host"); h != j.end() && h->is_string()) s.host = h->get<std::string>().substr(0, 256);
  s.host_facts = host_facts_of(j);
  return s;
}

std::optional<RankEnd> parse_report(const nlohmann::json& j, int rank) {
  const auto start = parse_start(j, rank);
  if (!start) return std::nullopt;
  RankEnd r;
  r.rank = rank;
  r.local_rank = start->local_rank;
  r.host = start->host;
  r.host_facts = start->host_facts;
  r.pid = number_or<long>(j, "pid", 0);
  if (const auto e = j.find("exit_code"); e != j.end() && e->is_number_integer()) r.exit_code = e->get<int>();
  r.signal = number_or<int>(j, "signal", 0);
  if (const auto e = j.find("error"); e != j.end() && e->is_string()) r.error = e->get<std::string>();
  r.max_rss_bytes = number_or<std::uint64_t>(j, "max_rss_bytes", 0);
  r.user_seconds = number_or<double>(j, "user_seconds", 0);
  r.system_seconds = number_or<double>(j, "system_seconds", 0);
  r.wall_seconds = number_or<double>(j, "wall_seconds", 0);
  r.tmp_leftover_files = number_or<long>(j, "tmp_leftover_files", 0);
  if (number_or<long>(j, "tree_samples", 0) > 0) {
    r.tree_max_rss_bytes = number_or<std::uint64_t>(j, "tree_max_rss_bytes", 0);
    r.tree_max_processes = number_or<long>(j, "tree_max_processes", 0);
    r.tree_max_threads = number_or<long>(j, "tree_max_threads", 0);
  }
  if (const auto l = j.find("host_load"); l != j.end() && l->is_object()) {
    HostLoad load;
    load.busy_cpu_seconds = number_or<double>(*l, "busy_cpu_seconds", 0);
    load.busy_max_fraction = number_or<double>(*l, "busy_max_fraction", 0);
    load.samples = number_or<long>(*l, "samples", 0);
    load.interval_ms = number_or<long>(*l, "interval_ms", 0);
    load.wall_seconds = number_or<double>(*l, "wall_seconds", 0);
    load.agent_cpu_seconds = number_or<double>(*l, "agent_cpu_seconds", 0);
    r.host_load = load;
  }
  r.host_gpus = host_gpus_of(j);
  if (!r.exit_code && r.signal == 0) return std::nullopt;
  return r;
}

// Where a rank without an end report had started, when its start record says so.
std::optional<RankStart> read_start(const std::filesystem::path& dir, int rank) {
  const UntrustedFile file = read_untrusted_file(dir / fmt::format("rank-{}.start.json", rank), kMaxRankReportBytes);
  if (!file.text) return std::nullopt;
  std::string problem;
  const auto doc = parse_bounded_json(*file.text, problem, 4);
  return doc ? parse_start(*doc, rank) : std::nullopt;
}

}  // namespace

RankReports read_rank_reports(const std::filesystem::path& trial_dir, int world_size) {
  RankReports out;
  const auto dir = trial_dir / kRanksDir;
  for (int rank = 0; rank < world_size; ++rank) {
    const auto path = dir / fmt::format("rank-{}.json", rank);
    const UntrustedFile file = read_untrusted_file(path, kMaxRankReportBytes);
    if (file.missing) {
      out.missing.push_back(rank);
    } else if (!file.text) {
      out.problems.push_back(fmt::format("rank {}'s report {}: {}", rank, path.filename().string(), file.problem));
      out.missing.push_back(rank);
    } else {
      std::string problem;
      const auto doc = parse_bounded_json(*file.text, problem, 4);
      const auto parsed = doc ? parse_report(*doc, rank) : std::nullopt;
      if (parsed) {
        out.ranks.push_back(*parsed);
      } else {
        out.problems.push_back(fmt::format("rank {}'s report {} is not what perfzero-rank writes{}", rank,
                                           path.filename().string(), problem.empty() ? "" : ": " + problem));
        out.missing.push_back(rank);
      }
    }
    if (!out.missing.empty() && out.missing.back() == rank) {
      if (auto start = read_start(dir, rank)) out.unreported.push_back(std::move(*start));
    }
    if (rank != 0) {
      std::error_code ec;
      if (std::filesystem::exists(
              std::filesystem::symlink_status(dir / fmt::format("rank-{}.result.json", rank), ec))) {
        out.refused_results.push_back(rank);
      }
    }
  }
  return out;
}

}  // namespace perfzero::child_results
