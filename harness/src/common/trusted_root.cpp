#include "common/trusted_root.hpp"

#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <mutex>
#include <system_error>
#include <vector>

namespace perfzero::files {

namespace {

struct Registered {
  std::filesystem::path dir;
  int fd;
};

std::mutex& registry_mutex() {
  static std::mutex m;
  return m;
}

std::vector<Registered>& registry() {
  static std::vector<Registered> roots;
  return roots;
}

// `path` relative to `root` when it lies beneath it (lexically: the harness builds its paths from
// the root's), else empty.
std::filesystem::path beneath(const std::filesystem::path& root, const std::filesystem::path& path) {
  auto rel = path.lexically_normal().lexically_relative(root);
  if (rel.empty() || rel.native().starts_with("..") || rel.is_absolute()) return {};
  return rel;
}

}  // namespace

TrustedRoot::TrustedRoot(const std::filesystem::path& dir) : dir_(std::filesystem::absolute(dir).lexically_normal()) {
  fd_ = ::open(dir_.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd_ < 0) throw std::system_error(errno, std::generic_category(), "cannot open " + dir_.string());
  const std::lock_guard lock(registry_mutex());
  registry().push_back({dir_, fd_});
}

TrustedRoot::~TrustedRoot() {
  {
    const std::lock_guard lock(registry_mutex());
    auto& roots = registry();
    for (auto it = roots.begin(); it != roots.end(); ++it) {
      if (it->fd == fd_) {
        roots.erase(it);
        break;
      }
    }
  }
  ::close(fd_);
}

std::optional<int> open_parent_beneath_root(const std::filesystem::path& path) {
  const auto absolute = std::filesystem::absolute(path).lexically_normal();
  const std::lock_guard lock(registry_mutex());
  for (const auto& root : registry()) {
    const auto rel = beneath(root.dir, absolute);
    if (rel.empty()) continue;
    const auto parent = rel.parent_path();
    open_how how{};
    how.flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC;
    how.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS;
    const char* name = parent.empty() ? "." : parent.c_str();
    const long fd = ::syscall(SYS_openat2, root.fd, name, &how, sizeof how);
    if (fd >= 0) return static_cast<int>(fd);
    if (errno == ENOSYS) return std::nullopt;  // a kernel before 5.6: by path, as before
    const int error = errno;
    const std::string why = error == ELOOP || error == EXDEV
                                ? " (a symbolic link is in its path: perfzero follows none under its output "
                                  "directory)"
                                : "";
    throw std::system_error(error, std::generic_category(), "cannot write " + path.string() + why);
  }
  return std::nullopt;
}

}  // namespace perfzero::files
