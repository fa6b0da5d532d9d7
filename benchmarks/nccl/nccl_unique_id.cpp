#include "nccl/nccl_unique_id.hpp"

#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <thread>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace perfzero::nccl {

namespace {

constexpr std::size_t kHexDigits = 2 * std::size_t{NCCL_UNIQUE_ID_BYTES};

std::string this_attempt() {
  const char* attempt = std::getenv("PERFZERO_ATTEMPT");
  return attempt != nullptr ? attempt : "";
}

// Written whole, then renamed: a reader never sees half a file.
void publish(const std::filesystem::path& trial_dir, nlohmann::json doc) {
  doc["attempt"] = this_attempt();
  const auto tmp = trial_dir / fmt::format(".{}.{}", kUniqueIdFile, ::getpid());
  {
    std::ofstream out(tmp);
    out << doc.dump();
    if (!out) throw std::runtime_error(fmt::format("cannot write {}", tmp.string()));
  }
  std::filesystem::rename(tmp, trial_dir / kUniqueIdFile);
}

}  // namespace

std::string to_hex(const ncclUniqueId& id) {
  std::string hex;
  hex.reserve(kHexDigits);
  for (const char c : id.internal) hex += fmt::format("{:02x}", static_cast<unsigned char>(c));
  return hex;
}

bool from_hex(const std::string& hex, ncclUniqueId& id) {
  if (hex.size() != kHexDigits) return false;
  for (std::size_t i = 0; i < NCCL_UNIQUE_ID_BYTES; ++i) {
    unsigned value = 0;
    for (std::size_t j = 0; j < 2; ++j) {
      const char c = hex[2 * i + j];
      unsigned digit = 0;
      if (c >= '0' && c <= '9') {
        digit = static_cast<unsigned>(c - '0');
      } else if (c >= 'a' && c <= 'f') {
        digit = static_cast<unsigned>(c - 'a' + 10);
      } else {
        return false;
      }
      value = value * 16 + digit;
    }
    id.internal[i] = static_cast<char>(value);
  }
  return true;
}

void publish_unique_id(const std::filesystem::path& trial_dir, const ncclUniqueId& id) {
  publish(trial_dir, {{"id", to_hex(id)}});
}

void publish_skip(const std::filesystem::path& trial_dir, const std::string& reason) {
  publish(trial_dir, {{"skipped", reason}});
}

void publish_failure(const std::filesystem::path& trial_dir, const std::string& reason) {
  publish(trial_dir, {{"failed", reason}});
}

std::variant<ncclUniqueId, Skipped, Failed, TimedOut> wait_for_unique_id(const std::filesystem::path& trial_dir,
                                                                         std::chrono::milliseconds wait) {
  const auto give_up = std::chrono::steady_clock::now() + wait;
  const auto path = trial_dir / kUniqueIdFile;
  std::string last_problem = "rank 0 has not published it";
  while (std::chrono::steady_clock::now() < give_up) {
    std::ifstream in(path);
    if (in) {
      std::stringstream text;
      text << in.rdbuf();
      const auto doc = nlohmann::json::parse(text.str(), nullptr, false);
      const bool ours = doc.is_object() && doc.value("attempt", std::string()) == this_attempt();
      if (doc.is_object() && !ours) {
        last_problem = fmt::format("{} is an earlier attempt's", path.string());
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        continue;
      }
      if (doc.is_object() && doc.contains("skipped") && doc["skipped"].is_string()) {
        return Skipped{doc["skipped"].get<std::string>()};
      }
      if (doc.is_object() && doc.contains("failed") && doc["failed"].is_string()) {
        return Failed{doc["failed"].get<std::string>()};
      }
      ncclUniqueId id{};
      if (doc.is_object() && doc.contains("id") && doc["id"].is_string() && from_hex(doc["id"], id)) return id;
      last_problem = fmt::format("{} is not {{\"id\": <{} hex digits>}}", path.string(), kHexDigits);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return TimedOut{fmt::format("no NCCL unique id from rank 0 in {} s: {}",
                              std::chrono::duration_cast<std::chrono::seconds>(wait).count(), last_problem)};
}

}  // namespace perfzero::nccl
