#include "samplers/leftover_files_sampler.hpp"

#include <fstream>
#include <iterator>

namespace perfzero::samplers {

namespace {

std::map<std::string, std::uintmax_t> files_in(const std::filesystem::path& dir) {
  std::map<std::string, std::uintmax_t> out;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    std::error_code size_ec;
    const auto size = entry.is_regular_file(size_ec) ? entry.file_size(size_ec) : 0;
    out[entry.path().filename().string()] = size_ec ? 0 : size;
  }
  return out;
}

// TMPDIR as the launcher got it: the method inherits the launcher's environment.
std::filesystem::path tmpdir_of(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/environ", std::ios::binary);
  const std::string env((std::istreambuf_iterator<char>(in)), {});
  const std::string key = "TMPDIR=";
  for (std::size_t at = 0; at < env.size();) {
    const std::size_t end = env.find('\0', at);
    const std::string entry = env.substr(at, end == std::string::npos ? std::string::npos : end - at);
    if (entry.rfind(key, 0) == 0) return entry.substr(key.size());
    if (end == std::string::npos) break;
    at = end + 1;
  }
  return {};
}

}  // namespace

void LeftoverFilesSampler::start(pid_t root) {
  shm_before_ = files_in(shm_dir_);
  tmp_dir_ = tmpdir_of(root);
}

SamplerOutput LeftoverFilesSampler::finish(const TrialFacts& /*facts*/) {
  SamplerOutput out;
  std::uintmax_t shm_files = 0;
  std::uintmax_t shm_bytes = 0;
  for (const auto& [name, size] : files_in(shm_dir_)) {
    if (shm_before_.count(name) != 0) continue;  // there before the trial: not its doing
    ++shm_files;
    shm_bytes += size;
  }
  std::uintmax_t tmp_files = 0;
  std::uintmax_t tmp_bytes = 0;
  std::error_code ec;
  if (!tmp_dir_.empty()) {
    for (const auto& entry : std::filesystem::recursive_directory_iterator(tmp_dir_, ec)) {
      std::error_code size_ec;
      if (!entry.is_regular_file(size_ec)) continue;
      ++tmp_files;
      tmp_bytes += entry.file_size(size_ec);
    }
    std::filesystem::remove(tmp_dir_, ec);  // only when empty: what is left stays to be looked at
  }
  out.summary = {
      {"shm_files", shm_files}, {"shm_bytes", shm_bytes}, {"tmp_files", tmp_files}, {"tmp_bytes", tmp_bytes}};
  if (shm_files + tmp_files > 0) out.flags.emplace_back("left_files");
  return out;
}

}  // namespace perfzero::samplers
