#include "fleet_report/instance_timeline.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <system_error>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "child_results/untrusted_file.hpp"

namespace perfzero::fleet_report {

namespace {

namespace fs = std::filesystem;

constexpr std::uint64_t kMaxTimelineBytes = 64ULL * 1024;
constexpr std::size_t kMaxInstances = 10000;

// Seconds since the epoch, from a JSON number; nullopt when absent or null.
std::optional<double> epoch_at(const nlohmann::json& doc, const char* key) {
  const auto it = doc.find(key);
  if (it == doc.end() || it->is_null()) return std::nullopt;
  if (!it->is_number() || !std::isfinite(it->get<double>()) || it->get<double>() <= 0) {
    throw std::runtime_error(fmt::format("'{}' must be seconds since the epoch, got {}", key, it->dump()));
  }
  return it->get<double>();
}

std::string text_at(const nlohmann::json& doc, const char* key, const std::vector<std::string>& allowed) {
  const auto it = doc.find(key);
  if (it == doc.end() || it->is_null()) return "";
  if (!it->is_string()) throw std::runtime_error(fmt::format("'{}' must be a string, got {}", key, it->dump()));
  std::string value = it->get<std::string>();
  if (!allowed.empty() && std::find(allowed.begin(), allowed.end(), value) == allowed.end()) {
    throw std::runtime_error(fmt::format("'{}' must be one of {}, got '{}'", key, fmt::join(allowed, ", "), value));
  }
  return value;
}

}  // namespace

InstanceLife parse_instance_life(const std::string& text, const std::string& file) {
  const auto doc = nlohmann::json::parse(text, nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) throw std::runtime_error("not a JSON object");
  const auto version = doc.find("instance_timeline_version");
  if (version == doc.end() || !version->is_number_integer() || version->get<long long>() != kInstanceTimelineVersion) {
    throw std::runtime_error(fmt::format("expected \"instance_timeline_version\": {} (the format this perfzero reads)",
                                         kInstanceTimelineVersion));
  }
  InstanceLife life;
  life.file = file;
  life.instance = text_at(doc, "instance", {});
  life.capacity = text_at(doc, "capacity", {"on_demand", "spot"});
  if (life.capacity.empty()) life.capacity = "on_demand";
  const auto booted = epoch_at(doc, "booted_at");
  if (!booted) throw std::runtime_error("'booted_at' is missing");
  life.booted_at = *booted;
  life.container_started_at = epoch_at(doc, "container_started_at");
  life.ended_at = epoch_at(doc, "upload_ended_at");
  if (!life.ended_at) life.ended_at = epoch_at(doc, "last_seen_at");
  life.end = text_at(doc, "end", {"done", "failed", "preempted", "running"});
  if (life.end.empty()) life.end = "running";
  for (const auto& at : {life.container_started_at, life.ended_at}) {
    if (at && *at < life.booted_at) {
      throw std::runtime_error(fmt::format("a time before 'booted_at' ({:.0f} < {:.0f})", *at, life.booted_at));
    }
  }
  return life;
}

std::vector<InstanceLife> read_instance_lives(const fs::path& run_dir, std::vector<std::string>& problems) {
  std::vector<InstanceLife> out;
  const fs::path dir = run_dir / "instances";
  std::error_code ec;
  if (!fs::is_directory(fs::symlink_status(dir, ec))) return out;
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    if (entry.path().extension() == ".json") files.push_back(entry.path());
    if (files.size() > kMaxInstances) break;
  }
  if (ec) problems.push_back(fmt::format("{}: cannot list: {}", dir.string(), ec.message()));
  if (files.size() > kMaxInstances) {
    problems.push_back(fmt::format("{}: more than {} instance timelines; none read", dir.string(), kMaxInstances));
    return out;
  }
  std::sort(files.begin(), files.end());
  for (const auto& file : files) {
    const auto read = child_results::read_untrusted_file(file, kMaxTimelineBytes);
    if (!read.text) {
      problems.push_back(fmt::format("{}: not read: {}", file.string(), read.problem));
      continue;
    }
    try {
      out.push_back(parse_instance_life(*read.text, file.string()));
    } catch (const std::exception& e) {
      problems.push_back(fmt::format("{}: not an instance timeline: {}", file.string(), e.what()));
    }
  }
  return out;
}

}  // namespace perfzero::fleet_report
