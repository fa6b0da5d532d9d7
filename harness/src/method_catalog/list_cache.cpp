#include "method_catalog/list_cache.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <string_view>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace perfzero::method_catalog {

namespace {

constexpr int kFormat = 2;                    // bumped when an entry's layout changes
constexpr off_t kMostEntryBytes = 16L << 20;  // a listing of a few thousand methods is well under this

std::int64_t nanoseconds(const timespec& t) { return static_cast<std::int64_t>(t.tv_sec) * 1'000'000'000 + t.tv_nsec; }

// FNV-1a: a stable file name for a worker's path (std::hash may differ between builds).
std::uint64_t fnv1a(std::string_view text) {
  std::uint64_t h = 1469598103934665603ULL;
  for (const char c : text) {
    h ^= static_cast<unsigned char>(c);
    h *= 1099511628211ULL;
  }
  return h;
}

// LD_LIBRARY_PATH picks which libraries a worker loads, and so whether and what it answers.
std::string library_path() {
  const char* v = std::getenv("LD_LIBRARY_PATH");
  return v != nullptr ? v : "";
}

bool write_all(int fd, const std::string& text) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

}  // namespace

std::optional<WorkerIdentity> identify(const std::filesystem::path& worker) {
  struct stat st {};
  if (::stat(worker.c_str(), &st) != 0) return std::nullopt;
  return WorkerIdentity{static_cast<std::uint64_t>(st.st_dev), static_cast<std::uint64_t>(st.st_ino),
                        static_cast<std::uint64_t>(st.st_size), nanoseconds(st.st_mtim), nanoseconds(st.st_ctim)};
}

std::filesystem::path default_cache_dir() {
  if (const char* set = std::getenv("PERFZERO_WORKER_CACHE"); set != nullptr && *set != '\0') {
    const std::string_view v = set;
    if (v == "0" || v == "off") return {};
    return set;
  }
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg != nullptr && *xdg == '/') {
    return std::filesystem::path(xdg) / "perfzero" / "workers";
  }
  if (const char* home = std::getenv("HOME"); home != nullptr && *home == '/') {
    return std::filesystem::path(home) / ".cache" / "perfzero" / "workers";
  }
  return {};
}

bool ListCache::usable(bool create) const {
  if (dir_.empty()) return false;
  if (create) {
    std::error_code ec;
    std::filesystem::create_directories(dir_.parent_path(), ec);
    (void)::mkdir(dir_.c_str(), 0700);  // private: its entries say which programs this user runs
  }
  // The directory itself, not a link to somewhere else, and this user's: entries anyone else can
  // write could list methods this user never installed.
  struct stat st {};
  return ::lstat(dir_.c_str(), &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == ::geteuid();
}

std::filesystem::path ListCache::entry(const std::filesystem::path& worker) const {
  return dir_ / fmt::format("{:016x}.json", fnv1a(worker.string()));
}

std::optional<std::string> ListCache::find(const std::filesystem::path& worker, const WorkerIdentity& id) const {
  if (!usable(false)) return std::nullopt;
  // No link followed, nothing blocking (a FIFO in its place), only our own plain files.
  const int fd = ::open(entry(worker).c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  struct stat st {};
  std::string text;
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == ::geteuid() && st.st_size <= kMostEntryBytes) {
    text.resize(static_cast<std::size_t>(st.st_size));
    const ssize_t n = ::read(fd, text.data(), text.size());
    if (n != static_cast<ssize_t>(text.size())) text.clear();
  }
  ::close(fd);
  if (text.empty()) return std::nullopt;
  try {
    const auto doc = nlohmann::json::parse(text);
    const WorkerIdentity stored{doc.at("device").get<std::uint64_t>(), doc.at("inode").get<std::uint64_t>(),
                                doc.at("size").get<std::uint64_t>(), doc.at("mtime_ns").get<std::int64_t>(),
                                doc.at("ctime_ns").get<std::int64_t>()};
    if (doc.at("format").get<int>() != kFormat || doc.at("worker").get<std::string>() != worker.string() ||
        doc.at("ld_library_path").get<std::string>() != library_path() || stored != id) {
      return std::nullopt;
    }
    return doc.at("list").get<std::string>();
  } catch (const std::exception&) {
    return std::nullopt;  // torn, edited or from elsewhere: asked again, and rewritten
  }
}

void ListCache::store(const std::filesystem::path& worker, const WorkerIdentity& id,
                      const std::string& list_json) const {
  if (!usable(true)) return;
  std::string text;
  try {
    // A worker's path or output that is not UTF-8 cannot go into JSON: then it is simply not kept.
    text = nlohmann::json{{"format", kFormat},       {"worker", worker.string()},
                          {"device", id.device},     {"inode", id.inode},
                          {"size", id.size},         {"mtime_ns", id.mtime_ns},
                          {"ctime_ns", id.ctime_ns}, {"ld_library_path", library_path()},
                          {"list", list_json}}
               .dump();
  } catch (const std::exception&) {
    return;
  }
  // Written beside and renamed over: a reader sees the old entry or the new one, never half of one.
  const auto target = entry(worker);
  std::string temporary = target.string() + ".XXXXXX";  // a fresh name each time: nothing stale blocks it
  const int fd = ::mkostemp(temporary.data(), O_CLOEXEC);
  if (fd < 0) return;
  const bool written = write_all(fd, text);
  const bool closed = ::close(fd) == 0;
  if (!written || !closed || ::rename(temporary.c_str(), target.c_str()) != 0) ::unlink(temporary.c_str());
}

}  // namespace perfzero::method_catalog
