#include "samplers/leftover_files_sampler.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>

#include "common/files.hpp"

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

std::int64_t nanoseconds(const timespec& t) { return static_cast<std::int64_t>(t.tv_sec) * 1'000'000'000 + t.tv_nsec; }

std::optional<DirStamp> stamp_of(const std::filesystem::path& dir) {
  struct stat st {};
  if (::stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) return std::nullopt;
  return DirStamp{st.st_dev, st.st_ino, nanoseconds(st.st_mtim), nanoseconds(st.st_ctim), st.st_size};
}

// A directory's times come from the kernel's coarse clock (a tick, up to 10 ms, behind): a change
// made in the same tick as the last one could leave the stamp as it was. A stamp older than this
// when the listing was made cannot: any later change gets a later time.
constexpr std::int64_t kStampMarginNs = 100'000'000;

std::int64_t realtime_ns() {
  timespec now{};
  ::clock_gettime(CLOCK_REALTIME, &now);
  return nanoseconds(now);
}

// Whether `dir` (not followed when it is a link) holds no entry; false when it cannot be read.
bool is_empty_dir(const std::filesystem::path& dir) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  return fd >= 0 && files::has_no_entry(fd);
}

}  // namespace

LeftoverFilesSampler::LeftoverFilesSampler(std::filesystem::path shm_dir, std::shared_ptr<DirListing> last)
    : shm_dir_(std::move(shm_dir)), last_(std::move(last)) {
  // Stamped before the listing: a change between the two shows up as a changed stamp at finish.
  stamp_ = stamp_of(shm_dir_);
  if (stamp_ && std::max(stamp_->mtime_ns, stamp_->ctime_ns) > realtime_ns() - kStampMarginNs) stamp_.reset();
  if (stamp_ && last_ && last_->stamp == *stamp_) {
    shm_before_ = last_->files;  // unchanged since the last trial listed it
    return;
  }
  shm_before_ = files_in(shm_dir_);
  if (stamp_ && last_) *last_ = DirListing{*stamp_, shm_before_};
}

SamplerOutput LeftoverFilesSampler::finish(const TrialFacts& facts) {
  // The harness gives every trial TMPDIR=<trial>/tmp (session/child_command.cpp). A trial directory (or
  // its method's directory above it) that the method replaced by a link is not walked through: the
  // run loop says what the method did.
  const auto is_real_dir = [](const std::filesystem::path& p) {
    std::error_code ec;
    return std::filesystem::symlink_status(p, ec).type() == std::filesystem::file_type::directory;
  };
  // The run loop's guard looked already (facts.trial_dir_state): its answer is not asked again.
  const bool real_dir = !facts.trial_dir.empty() && facts.trial_dir_state != TrialDirState::damaged &&
                        (facts.trial_dir_state != TrialDirState::unknown ||
                         (is_real_dir(facts.trial_dir.parent_path()) && is_real_dir(facts.trial_dir)));
  const std::filesystem::path tmp_dir = real_dir ? facts.trial_dir / "tmp" : std::filesystem::path{};
  SamplerOutput out;
  std::uintmax_t shm_files = 0;
  std::uintmax_t shm_bytes = 0;
  // Listed again only when its entries may have changed: most trials leave /dev/shm as it was, and a
  // listing costs a short command's trial more than the stat.
  if (!stamp_ || stamp_of(shm_dir_) != stamp_) {
    for (const auto& [name, size] : files_in(shm_dir_)) {
      if (shm_before_.count(name) != 0) continue;  // there before the trial: not its doing
      ++shm_files;
      shm_bytes += size;
    }
  }
  std::uintmax_t tmp_files = 0;
  std::uintmax_t tmp_bytes = 0;
  std::error_code ec;
  // Most trials leave their TMPDIR empty: one open and one read of it, without the walk's set-up (the
  // open refuses a link or a file in its place, which the status below then tells apart).
  const bool empty =
      !tmp_dir.empty() && (facts.trial_dir_state == TrialDirState::untouched_tmp || is_empty_dir(tmp_dir));
  const auto tmp_status =
      tmp_dir.empty() || empty ? std::filesystem::file_status{} : std::filesystem::symlink_status(tmp_dir, ec);
  if (empty) {
    // nothing left
  } else if (std::filesystem::is_directory(tmp_status)) {
    // Never follows a link (a trial may leave one to / in its TMPDIR), and an unreadable
    // subdirectory is skipped, not a reason to stop counting.
    std::filesystem::recursive_directory_iterator it(tmp_dir,
                                                     std::filesystem::directory_options::skip_permission_denied, ec);
    // Every entry counts, whatever it is (a file, a directory, a link, a FIFO, a socket): each is
    // left on disk. Only regular files have bytes; a link is counted, not followed.
    for (; !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
      ++tmp_files;
      std::error_code size_ec;
      if (!it->is_symlink(size_ec) && it->is_regular_file(size_ec)) tmp_bytes += it->file_size(size_ec);
    }
  } else if (std::filesystem::exists(tmp_status)) {
    ++tmp_files;  // the TMPDIR itself replaced by a link, a FIFO or a file: something left behind
  }
  // Member by member: a braced list builds every value twice, and this runs after every trial.
  out.summary["shm_files"] = shm_files;
  out.summary["shm_bytes"] = shm_bytes;
  out.summary["tmp_files"] = tmp_files;
  out.summary["tmp_bytes"] = tmp_bytes;
  if (shm_files + tmp_files > 0) out.flags.emplace_back("left_files");
  return out;
}

}  // namespace perfzero::samplers
