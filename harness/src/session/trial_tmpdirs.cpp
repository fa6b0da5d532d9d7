#include "session/trial_tmpdirs.hpp"

#include <fcntl.h>
#include <linux/fs.h>
#include <linux/magic.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include <fmt/format.h>

#include "common/errors.hpp"
#include "common/files.hpp"

namespace perfzero::session {

namespace {

constexpr const char* kTmpName = "tmp";

// The inode flags (FS_IOC_GETFLAGS, chattr's); nothing where the file system has none.
std::optional<long> inode_flags(int fd) {
  int flags = 0;  // the kernel reads and writes an int, whatever the ioctl's declared type
  if (::ioctl(fd, FS_IOC_GETFLAGS, &flags) != 0) return std::nullopt;
  return flags;
}

}  // namespace

bool in_memory_file_system(const std::filesystem::path& dir) {
  struct statfs fs {};
  if (::statfs(dir.c_str(), &fs) != 0) return false;
  return fs.f_type == TMPFS_MAGIC || fs.f_type == RAMFS_MAGIC;
}

bool is_untouched_empty_dir(const std::filesystem::path& dir, const TrialTmpDirs::MadeAs& made_as) {
  // O_NOFOLLOW and fstat: the checks are of the directory itself, not of what a link points to.
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return false;
  struct stat st {};
  const bool as_made = ::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == made_as.uid &&
                       st.st_gid == made_as.gid && (st.st_mode & 07777) == made_as.mode && st.st_nlink == 2;
  const bool no_xattr = as_made && ::flistxattr(fd, nullptr, 0) == 0;
  if (!no_xattr || inode_flags(fd) != made_as.flags) {
    ::close(fd);
    return false;
  }
  return files::has_no_entry(fd);
}

TrialTmpDirs::~TrialTmpDirs() { release(); }

void TrialTmpDirs::release() {
  if (kept_) ::rmdir(kept_->c_str());
  kept_.reset();
}

void TrialTmpDirs::make(const std::filesystem::path& trial_dir) {
  const std::filesystem::path tmp = trial_dir / kTmpName;
  if (kept_) {
    const std::filesystem::path from = *std::exchange(kept_, std::nullopt);
    if (::rename(from.c_str(), tmp.c_str()) == 0) return;
    ::rmdir(from.c_str());  // another file system, or gone: a new one instead
  }
  if (::mkdir(tmp.c_str(), 0777) != 0) {
    throw OutputError(fmt::format("cannot create {}: {}", tmp.string(), std::strerror(errno)));
  }
  if (move_on_ && !made_as_) {
    const int fd = ::open(tmp.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    struct stat st {};
    if (fd >= 0 && ::fstat(fd, &st) == 0) made_as_ = MadeAs{st.st_mode & 07777, inode_flags(fd), st.st_uid, st.st_gid};
    if (fd >= 0) ::close(fd);
  }
}

bool TrialTmpDirs::done(const std::filesystem::path& trial_dir) {
  release();  // normally none: make() took it
  const std::filesystem::path tmp = trial_dir / kTmpName;
  // Removed only when an empty directory (never through a link: rmdir refuses one); what is left
  // stays to be looked at.
  if (!move_on_) return ::rmdir(tmp.c_str()) == 0;
  if (made_as_ && is_untouched_empty_dir(tmp, *made_as_)) {
    kept_ = tmp;
    return true;
  }
  ::rmdir(tmp.c_str());  // only when empty: what is left stays to be looked at
  return false;
}

}  // namespace perfzero::session
