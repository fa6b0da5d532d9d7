#include "session/output_dir.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <random>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "common/errors.hpp"
#include "common/files.hpp"

namespace perfzero::session {

std::string new_execution_id() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  ::gmtime_r(&now, &utc);
  std::random_device random;
  // The suffix keeps two runs started in the same second apart.
  return fmt::format("{:04}{:02}{:02}T{:02}{:02}{:02}Z-{:06x}", utc.tm_year + 1900, utc.tm_mon + 1, utc.tm_mday,
                     utc.tm_hour, utc.tm_min, utc.tm_sec, random() & 0xffffffU);
}

ClaimedOutput claim_output_dir(const std::string& requested_dir, const std::string& requested_id, bool resume,
                               bool resumable) {
  ClaimedOutput out;
  out.execution_id = requested_id.empty() ? new_execution_id() : requested_id;
  // $PERFZERO_RESULTS_DIR moves the default root (the image sets /results, the mounted volume).
  const char* root = std::getenv("PERFZERO_RESULTS_DIR");
  const std::filesystem::path default_root =
      root != nullptr && *root != '\0' ? std::filesystem::path(root) : std::filesystem::path("results") / "runs";
  out.dir = requested_dir.empty() ? default_root / out.execution_id : std::filesystem::path(requested_dir);
  std::error_code ec;
  std::filesystem::create_directories(out.dir, ec);
  if (ec) throw OutputError(fmt::format("--output_dir: cannot create {}: {}", out.dir.string(), ec.message()));
  out.dir = std::filesystem::canonical(out.dir);

  const auto lock_path = out.dir / ".perfzero.lock";
  out.lock_fd = ::open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (out.lock_fd < 0) {
    throw OutputError(fmt::format("--output_dir: cannot write in {}: {}", out.dir.string(), std::strerror(errno)));
  }
  if (::flock(out.lock_fd, LOCK_EX | LOCK_NB) != 0) {
    throw UsageError(fmt::format("--output_dir: another perfzero run is writing to {} right now", out.dir.string()));
  }

  const auto manifest = out.dir / kRunManifest;
  if (std::filesystem::exists(manifest)) {
    std::string previous_id = "unknown";
    if (const auto text = files::read_text(manifest)) {
      const auto doc = nlohmann::json::parse(*text, nullptr, false);
      if (doc.is_object() && doc.contains("execution_id") && doc["execution_id"].is_string()) {
        previous_id = doc["execution_id"].get<std::string>();
      }
    }
    if (!resume) {
      const char* how = resumable ? "pass --resume to continue it, or choose another directory"
                                  : "each session starts anew: choose another directory";
      throw UsageError(fmt::format("--output_dir: {} already holds run {}; {}", out.dir.string(), previous_id, how));
    }
    if (!requested_id.empty() && requested_id != previous_id) {
      throw UsageError(
          fmt::format("--execution_id: {} holds run {}, not {}", out.dir.string(), previous_id, requested_id));
    }
    out.execution_id = previous_id;
    out.resuming = true;
  }
  return out;
}

}  // namespace perfzero::session
