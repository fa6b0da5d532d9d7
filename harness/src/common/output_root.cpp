#include "common/output_root.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <system_error>

#include <fmt/format.h>

#include "common/errors.hpp"
#include "common/fd_guard.hpp"

namespace perfzero::files {

OutputRoot::OutputRoot(const std::filesystem::path& dir, std::string what) : what_(std::move(what)) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw OutputError(fmt::format("{}: cannot create {}: {}", what_, dir.string(), ec.message()));
  dir_ = std::filesystem::canonical(dir, ec);
  if (ec) throw OutputError(fmt::format("{}: cannot resolve {}: {}", what_, dir.string(), ec.message()));
  try {
    root_ = std::make_unique<TrustedRoot>(dir_);
  } catch (const std::system_error& e) {
    throw OutputError(fmt::format("{}: {}", what_, e.what()));
  }
}

std::filesystem::path OutputRoot::make_directory(const std::filesystem::path& relative) const {
  std::filesystem::path made = dir_;
  for (const auto& part : relative.lexically_normal()) {
    if (part.empty() || part == ".") continue;
    if (part == "..") throw OutputError(fmt::format("{}: {} leaves the output directory", what_, relative.string()));
    const std::filesystem::path next = made / part;
    const auto describe = [&](const std::string& why) {
      return OutputError(fmt::format("{}: cannot make {}: {}", what_, next.string(), why));
    };
    std::optional<int> parent;
    try {
      parent = open_parent_beneath_root(next);
    } catch (const std::system_error& e) {
      throw describe(e.code().message() +
                     " (a symbolic link is in its path: perfzero writes through none under its "
                     "output directory)");
    }
    if (!parent) {  // a kernel without openat2: by path, refusing a link where the directory goes
      std::error_code ec;
      if (std::filesystem::is_symlink(std::filesystem::symlink_status(next, ec))) {
        throw describe("it is a symbolic link; perfzero writes through none under its output directory");
      }
      std::filesystem::create_directory(next, ec);
      if (ec) throw describe(ec.message());
      made = next;
      continue;
    }
    const FdGuard guard(*parent);
    if (::mkdirat(*parent, part.c_str(), 0755) != 0 && errno != EEXIST) throw describe(std::strerror(errno));
    struct stat info {};
    if (::fstatat(*parent, part.c_str(), &info, AT_SYMLINK_NOFOLLOW) != 0) throw describe(std::strerror(errno));
    if (S_ISLNK(info.st_mode)) {
      throw describe("it is a symbolic link; perfzero writes through none under its output directory");
    }
    if (!S_ISDIR(info.st_mode)) throw describe("something other than a directory is there");
    made = next;
  }
  return made;
}

}  // namespace perfzero::files
