#include "app/trial_tmpdirs.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include <fmt/format.h>

#include "common/errors.hpp"

namespace perfzero::app {

namespace {

constexpr const char* kTmpName = "tmp";

bool has_no_entry(int dir_fd) {
  DIR* d = ::fdopendir(dir_fd);  // takes the descriptor
  if (d == nullptr) {
    ::close(dir_fd);
    return false;
  }
  bool empty = true;
  while (const dirent* e = ::readdir(d)) {
    if (std::strcmp(e->d_name, ".") != 0 && std::strcmp(e->d_name, "..") != 0) {
      empty = false;
      break;
    }
  }
  ::closedir(d);
  return empty;
}

}  // namespace

bool is_untouched_empty_dir(const std::filesystem::path& dir, mode_t mode) {
  // O_NOFOLLOW and fstat: the checks are of the directory itself, not of what a link points to.
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return false;
  struct stat st {};
  const bool as_made = ::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == ::geteuid() &&
                       st.st_gid == ::getegid() && (st.st_mode & 07777) == mode && st.st_nlink == 2;
  const bool no_xattr = as_made && ::flistxattr(fd, nullptr, 0) == 0;
  int flags = 0;
  // A file system without inode flags (ENOTTY and the like) cannot have set one either.
  const bool no_flags =
      no_xattr && (::ioctl(fd, FS_IOC_GETFLAGS, &flags) != 0 || (flags & (FS_IMMUTABLE_FL | FS_APPEND_FL)) == 0);
  if (!no_flags) {
    ::close(fd);
    return false;
  }
  return has_no_entry(fd);
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
  if (!mode_) {
    struct stat st {};
    if (::lstat(tmp.c_str(), &st) == 0) mode_ = st.st_mode & 07777;
  }
}

void TrialTmpDirs::done(const std::filesystem::path& trial_dir) {
  release();  // normally none: make() took it
  const std::filesystem::path tmp = trial_dir / kTmpName;
  if (mode_ && is_untouched_empty_dir(tmp, *mode_)) {
    kept_ = tmp;
    return;
  }
  ::rmdir(tmp.c_str());  // only when empty: what is left stays to be looked at
}

}  // namespace perfzero::app
