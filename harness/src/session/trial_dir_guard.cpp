#include "session/trial_dir_guard.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include <fmt/format.h>

#include "common/errors.hpp"

namespace perfzero::session {

std::optional<DirIdentity> real_directory(const std::filesystem::path& dir) {
  struct stat st {};
  if (::lstat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) return std::nullopt;
  return DirIdentity{st.st_dev, st.st_ino};
}

namespace {

// The directories from just below `run_dir` down to `dir`, outermost first.
std::vector<std::filesystem::path> chain(const std::filesystem::path& run_dir, const std::filesystem::path& dir) {
  std::vector<std::filesystem::path> out;
  std::filesystem::path at = run_dir;
  for (const auto& part : dir.lexically_relative(run_dir)) {
    at /= part;
    out.push_back(at);
  }
  return out;
}

// Whose directory `path` is, for a message: the trial's own, or one above it.
std::string whose(const std::filesystem::path& path, bool above) {
  return above ? fmt::format("the directory {} above its trial directory", path.filename().string())
               : std::string("its trial directory");
}

// `seen`, when given, gets what lstat found there. The message is made only when something is
// wrong: this runs twice a trial for every directory of the chain.
std::string what_is_at(const std::filesystem::path& path, bool above, struct stat* seen = nullptr) {
  struct stat own {};
  struct stat& st = seen != nullptr ? *seen : own;
  if (::lstat(path.c_str(), &st) != 0) return "removed " + whose(path, above);
  if (S_ISLNK(st.st_mode)) {
    std::error_code ec;
    const auto target = std::filesystem::read_symlink(path, ec);
    return fmt::format("replaced {} with a symbolic link{}", whose(path, above), ec ? "" : " to " + target.string());
  }
  if (!S_ISDIR(st.st_mode)) return fmt::format("replaced {} with a file", whose(path, above));
  return "";
}

void move_aside(const std::filesystem::path& path) {
  struct stat st {};
  std::filesystem::path aside;
  for (int n = 1; n < 1000; ++n) {
    aside = path.string() + fmt::format(".replaced.{}", n);
    if (::lstat(aside.c_str(), &st) != 0) break;
  }
  if (::rename(path.c_str(), aside.c_str()) != 0) {
    throw OutputError(fmt::format("cannot move aside what replaced {}: {}", path.string(), std::strerror(errno)));
  }
}

void make_directory(const std::filesystem::path& path) {
  if (::mkdir(path.c_str(), 0755) != 0 && errno != EEXIST) {
    throw OutputError(fmt::format("cannot create {}: {}", path.string(), std::strerror(errno)));
  }
}

}  // namespace

namespace {

// not_a_real_directory(), and what lstat found at `dir` when it is one.
std::string check_chain(const std::filesystem::path& run_dir, const std::filesystem::path& dir, struct stat& seen) {
  const auto parts = chain(run_dir, dir);
  for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
    if (auto what = what_is_at(parts[i], true); !what.empty()) return what;
  }
  return what_is_at(dir, false, &seen);
}

}  // namespace

std::string not_a_real_directory(const std::filesystem::path& run_dir, const std::filesystem::path& dir) {
  struct stat seen {};
  return check_chain(run_dir, dir, seen);
}

std::string damage_to(const std::filesystem::path& run_dir, const std::filesystem::path& dir, const DirIdentity& made) {
  struct stat st {};
  if (auto what = check_chain(run_dir, dir, st); !what.empty()) return what;
  if (st.st_dev != made.device || st.st_ino != made.inode) return "replaced its trial directory with another directory";
  return "";
}

bool make_fresh_trial_dir(const std::filesystem::path& run_dir, const std::filesystem::path& dir) {
  const auto parts = chain(run_dir, dir);
  for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
    struct stat st {};
    if (::lstat(parts[i].c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) return false;
  }
  return !parts.empty() && ::mkdir(dir.c_str(), 0777) == 0;
}

void restore_trial_dir(const std::filesystem::path& run_dir, const std::filesystem::path& dir) {
  for (const auto& part : chain(run_dir, dir)) {
    struct stat st {};
    const bool exists = ::lstat(part.c_str(), &st) == 0;
    if (exists && S_ISLNK(st.st_mode)) {
      if (::unlink(part.c_str()) != 0) {
        throw OutputError(fmt::format("cannot remove the link at {}: {}", part.string(), std::strerror(errno)));
      }
    } else if (exists && (!S_ISDIR(st.st_mode) || part == dir)) {
      // The trial directory itself is made afresh whatever is there; a file above it moves aside too.
      move_aside(part);
    } else if (exists) {
      continue;  // a real directory above the trial's: kept
    }
    make_directory(part);
  }
}

}  // namespace perfzero::session
