#include "child_results/tool_output.hpp"

#include <cmath>

#include <fmt/format.h>

#include "child_results/bounded_json.hpp"

namespace perfzero::child_results {

namespace {

using nlohmann::json;

double number_at(const json& j, const char* key) {
  const auto it = j.find(key);
  return it != j.end() && it->is_number() ? it->get<double>() : NAN;
}

std::string string_at(const json& j, const char* key) {
  const auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

void add(ChildResult& r, std::string name, double value, const char* unit, Direction direction) {
  if (std::isfinite(value))
    r.metrics.push_back(Metric{std::move(name), value, unit, std::nullopt, std::nullopt, direction});
}

// A tool's JSON, bounded like any child file; some fio versions print a notice before it.
std::optional<json> tool_json(std::string_view text, const char* tool, std::string& problem) {
  const auto brace = text.find('{');
  if (brace == std::string_view::npos) {
    problem = fmt::format("the {} output holds no JSON object", tool);
    return std::nullopt;
  }
  std::string why;
  auto doc = parse_bounded_json(text.substr(brace), why);
  if (!doc || !doc->is_object()) {
    problem = fmt::format("the {} output is {}", tool, doc ? "not a JSON object" : why);
    return std::nullopt;
  }
  return doc;
}

// fio's completion latency of one direction: mean and the percentiles fio keeps by default.
void add_fio_direction(ChildResult& r, const std::string& prefix, const json& d) {
  add(r, prefix + "_iops", number_at(d, "iops"), "IO/s", Direction::higher_is_better);
  add(r, prefix + "_bandwidth", number_at(d, "bw_bytes") / 1e6, "MB/s", Direction::higher_is_better);
  const auto clat = d.find("clat_ns");
  if (clat == d.end() || !clat->is_object()) return;
  add(r, prefix + "_clat_mean_us", number_at(*clat, "mean") / 1e3, "us", Direction::lower_is_better);
  const auto p = clat->find("percentile");
  if (p == clat->end() || !p->is_object()) return;
  for (const auto& [key, name] : {std::pair{"50.000000", "_clat_p50_us"}, std::pair{"99.000000", "_clat_p99_us"},
                                  std::pair{"99.900000", "_clat_p99_9_us"}}) {
    add(r, prefix + name, number_at(*p, key) / 1e3, "us", Direction::lower_is_better);
  }
}

std::variant<ChildResult, std::string> read_tool(const std::filesystem::path& path, std::uint64_t max_bytes,
                                                 const char* tool,
                                                 std::variant<ChildResult, std::string> (*parse)(std::string_view)) {
  const UntrustedFile file = read_untrusted_file(path, max_bytes, "--max_result_bytes");
  if (file.missing) return fmt::format("{} wrote no JSON output (its own words are in perfzero.log)", tool);
  if (!file.text) return fmt::format("the {} output is unusable: {}", tool, file.problem);
  return parse(*file.text);
}

}  // namespace

std::variant<ChildResult, std::string> parse_fio(std::string_view text) {
  std::string problem;
  const auto doc = tool_json(text, "fio", problem);
  if (!doc) return problem;
  const auto jobs = doc->find("jobs");
  if (jobs == doc->end() || !jobs->is_array() || jobs->empty()) return std::string("the fio output has no 'jobs'");
  ChildResult r;
  std::vector<std::string> failed;
  std::size_t index = 0;
  for (const auto& job : *jobs) {
    if (!job.is_object()) return fmt::format("the fio output's jobs[{}] is not an object", index);
    std::string name = string_at(job, "jobname");
    if (name.empty()) name = fmt::format("job{}", index);
    if (const double error = number_at(job, "error"); std::isfinite(error) && error != 0) {
      failed.push_back(fmt::format("{}: error {} ({})", name, error, std::strerror(static_cast<int>(error))));
    }
    for (const char* direction : {"read", "write", "trim"}) {
      const auto d = job.find(direction);
      if (d != job.end() && d->is_object() && number_at(*d, "io_bytes") > 0) {
        add_fio_direction(r, name + "." + direction, *d);
      }
    }
    ++index;
  }
  if (!failed.empty()) {
    std::string all;
    for (const auto& f : failed) all += (all.empty() ? "" : "; ") + f;
    r.error = "fio reported errors: " + all;
  } else if (r.metrics.empty()) {
    return std::string("the fio output has no job that moved data");
  }
  r.extras["fio_jobs"] = index;
  r.ml_framework_info = {{"name", "fio"}, {"version", string_at(*doc, "fio version")}, {"build_version", ""}};
  return r;
}

std::variant<ChildResult, std::string> read_fio(const std::filesystem::path& path, std::uint64_t max_bytes) {
  return read_tool(path, max_bytes, "fio", &parse_fio);
}

std::variant<ChildResult, std::string> parse_iperf3(std::string_view text) {
  std::string problem;
  const auto doc = tool_json(text, "iperf3", problem);
  if (!doc) return problem;
  ChildResult r;
  // iperf3 exits 0 with --logfile even when it failed; its JSON says so.
  if (const std::string error = string_at(*doc, "error"); !error.empty()) {
    r.error = "iperf3: " + error;
    return r;
  }
  const auto end = doc->find("end");
  if (end == doc->end() || !end->is_object()) return std::string("the iperf3 output has no 'end' summary");
  const auto sum_of = [&](const char* key) -> const json* {
    const auto it = end->find(key);
    return it != end->end() && it->is_object() ? &*it : nullptr;
  };
  const json* sent = sum_of("sum_sent");
  const json* received = sum_of("sum_received");
  const json* udp = sum_of("sum");  // UDP has one summary
  if (sent == nullptr && received == nullptr && udp == nullptr) {
    return std::string("the iperf3 output's end has no sum_sent, sum_received or sum");
  }
  if (sent != nullptr) {
    add(r, "sent_throughput", number_at(*sent, "bits_per_second") / 1e9, "Gbit/s", Direction::higher_is_better);
    add(r, "retransmits", number_at(*sent, "retransmits"), "1", Direction::lower_is_better);
  }
  if (received != nullptr) {
    add(r, "received_throughput", number_at(*received, "bits_per_second") / 1e9, "Gbit/s", Direction::higher_is_better);
  }
  if (udp != nullptr) {
    add(r, "throughput", number_at(*udp, "bits_per_second") / 1e9, "Gbit/s", Direction::higher_is_better);
    add(r, "jitter_ms", number_at(*udp, "jitter_ms"), "ms", Direction::lower_is_better);
    add(r, "lost_percent", number_at(*udp, "lost_percent"), "%", Direction::lower_is_better);
  }
  if (const auto cpu = end->find("cpu_utilization_percent"); cpu != end->end() && cpu->is_object()) {
    add(r, "host_cpu_percent", number_at(*cpu, "host_total"), "%", Direction::lower_is_better);
    add(r, "remote_cpu_percent", number_at(*cpu, "remote_total"), "%", Direction::lower_is_better);
  }
  if (r.metrics.empty()) return std::string("the iperf3 output's summary holds no figure");
  if (const auto start = doc->find("start"); start != doc->end() && start->is_object()) {
    if (const auto test = start->find("test_start"); test != start->end() && test->is_object()) {
      r.extras["iperf3_test"] = *test;
    }
    r.ml_framework_info = {{"name", "iperf3"}, {"version", string_at(*start, "version")}, {"build_version", ""}};
  }
  return r;
}

std::variant<ChildResult, std::string> read_iperf3(const std::filesystem::path& path, std::uint64_t max_bytes) {
  return read_tool(path, max_bytes, "iperf3", &parse_iperf3);
}

}  // namespace perfzero::child_results
