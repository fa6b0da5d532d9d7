#pragma once
// What a trial left on disk outside its reports: files it created in /dev/shm (shared memory that
// outlives every process, counted by no process's RSS) and what remains in its own TMPDIR
// (<trial>/tmp, set by the harness; session/trial_tmpdirs.hpp removes or reuses it after the trial).
// A sampler that looks at start and at finish only.
#include <sys/types.h>

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "samplers/sampler.hpp"
#include "samplers/sampler_context.hpp"

namespace perfzero::samplers {

// What says whether a directory's entries changed: a new or removed name changes its mtime and size.
struct DirStamp {
  dev_t device = 0;
  ino_t inode = 0;
  std::int64_t mtime_ns = 0;
  std::int64_t ctime_ns = 0;
  off_t size = 0;
  bool operator==(const DirStamp&) const = default;
};

struct DirListing {
  DirStamp stamp;  // a trusted one: older, when listed, than a change in the same clock tick could hide
  std::map<std::string, std::uintmax_t> files;  // name -> size
};

class LeftoverFilesSampler : public Sampler {
 public:
  // Lists shm_dir now, before the launch: a method may create its files before start() runs. With a
  // run's `last` listing whose stamp still holds, that listing is taken instead, and kept up to date.
  explicit LeftoverFilesSampler(std::filesystem::path shm_dir = "/dev/shm", std::shared_ptr<DirListing> last = {});
  std::string name() const override { return "leftover_files"; }
  void start(pid_t /*root*/) override {}
  void sample(double /*time*/) override {}
  SamplerOutput finish(const TrialFacts& facts) override;

 private:
  std::filesystem::path shm_dir_;
  std::map<std::string, std::uintmax_t> shm_before_;  // name -> size
  // shm_dir's identity and change time when it was listed; empty when it could not be read then, or
  // when it had changed too recently for its change time to tell (see unchanged_since_listed).
  std::optional<DirStamp> stamp_;
  std::shared_ptr<DirListing> last_;
};

}  // namespace perfzero::samplers
