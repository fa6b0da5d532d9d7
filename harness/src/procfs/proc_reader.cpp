#include "procfs/proc_reader.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <array>
#include <charconv>
#include <cstdlib>
#include <string>

namespace perfzero::procfs {

namespace {

// /proc files are small; one read() into a stack buffer avoids iostream costs in the sampling loop.
std::optional<std::string_view> read_small(const char* path, std::array<char, 4096>& buffer) {
  const int fd = ::open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  const ssize_t n = ::read(fd, buffer.data(), buffer.size() - 1);
  ::close(fd);
  if (n <= 0) return std::nullopt;
  return std::string_view(buffer.data(), static_cast<std::size_t>(n));
}

template <typename T>
bool parse_number(std::string_view text, T& out) {
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc{} && ptr == text.data() + text.size();
}

}  // namespace

double clock_ticks_per_second() {
  static const double ticks = static_cast<double>(::sysconf(_SC_CLK_TCK));
  return ticks;
}

std::uint64_t page_size_bytes() {
  static const auto size = static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
  return size;
}

std::optional<ProcStat> parse_proc_stat(std::string_view text) {
  // The command name (field 2) may hold spaces and parentheses: fields resume after the last ')'.
  const auto open = text.find('(');
  const auto close = text.rfind(')');
  if (open == std::string_view::npos || close == std::string_view::npos || close + 2 > text.size()) {
    return std::nullopt;
  }
  ProcStat stat;
  if (!parse_number(text.substr(0, open > 0 ? open - 1 : 0), stat.pid)) return std::nullopt;
  std::string_view rest = text.substr(close + 2);
  // Fields from 3 (state) on, 1-based as in proc(5).
  std::array<std::string_view, 50> fields{};
  std::size_t count = 0;
  while (!rest.empty() && count < fields.size()) {
    const auto space = rest.find_first_of(" \n");
    fields[count++] = rest.substr(0, space);
    if (space == std::string_view::npos) break;
    rest = rest.substr(space + 1);
  }
  if (count < 22) return std::nullopt;  // need up to field 24 (rss)
  auto field = [&](int number) { return fields[static_cast<std::size_t>(number - 3)]; };
  stat.state = field(3).empty() ? '?' : field(3)[0];
  std::uint64_t rss_pages = 0;
  std::int64_t cutime = 0;
  std::int64_t cstime = 0;
  const bool ok = parse_number(field(4), stat.ppid) && parse_number(field(14), stat.utime_ticks) &&
                  parse_number(field(15), stat.stime_ticks) && parse_number(field(16), cutime) &&
                  parse_number(field(17), cstime) && parse_number(field(20), stat.num_threads) &&
                  parse_number(field(23), stat.vsize_bytes) && parse_number(field(24), rss_pages);
  if (!ok) return std::nullopt;
  stat.cutime_ticks = static_cast<std::uint64_t>(cutime < 0 ? 0 : cutime);
  stat.cstime_ticks = static_cast<std::uint64_t>(cstime < 0 ? 0 : cstime);
  stat.rss_bytes = rss_pages * page_size_bytes();
  return stat;
}

std::optional<ProcStat> read_proc_stat(pid_t pid) {
  std::array<char, 64> path{};
  std::snprintf(path.data(), path.size(), "/proc/%d/stat", static_cast<int>(pid));
  std::array<char, 4096> buffer{};
  const auto text = read_small(path.data(), buffer);
  if (!text) return std::nullopt;
  return parse_proc_stat(*text);
}

std::optional<std::uint64_t> parse_status_kib(std::string_view status_text, std::string_view key) {
  std::size_t pos = 0;
  while (pos < status_text.size()) {
    const auto end = status_text.find('\n', pos);
    const std::string_view line = status_text.substr(pos, end == std::string_view::npos ? end : end - pos);
    if (line.size() > key.size() && line.substr(0, key.size()) == key && line[key.size()] == ':') {
      std::string_view value = line.substr(key.size() + 1);
      const auto first = value.find_first_not_of(" \t");
      if (first == std::string_view::npos) return std::nullopt;
      value = value.substr(first);
      value = value.substr(0, value.find(' '));
      std::uint64_t kib = 0;
      if (!parse_number(value, kib)) return std::nullopt;
      return kib;
    }
    if (end == std::string_view::npos) break;
    pos = end + 1;
  }
  return std::nullopt;
}

std::optional<std::uint64_t> read_vm_hwm_bytes(pid_t pid) {
  std::array<char, 64> path{};
  std::snprintf(path.data(), path.size(), "/proc/%d/status", static_cast<int>(pid));
  std::array<char, 4096> buffer{};
  const auto text = read_small(path.data(), buffer);
  if (!text) return std::nullopt;
  const auto kib = parse_status_kib(*text, "VmHWM");
  if (!kib) return std::nullopt;
  return *kib * 1024;
}

void parse_pid_list(std::string_view rest, std::vector<pid_t>& out) {
  while (!rest.empty()) {
    const auto space = rest.find_first_of(" \n");
    pid_t child = 0;
    if (parse_number(rest.substr(0, space), child) && child > 0) out.push_back(child);
    if (space == std::string_view::npos) break;
    rest = rest.substr(space + 1);
  }
}

std::vector<pid_t> children_of(pid_t pid) {
  std::vector<pid_t> children;
  const std::string task_dir = "/proc/" + std::to_string(pid) + "/task";
  DIR* dir = ::opendir(task_dir.c_str());
  if (dir == nullptr) return children;
  while (const dirent* entry = ::readdir(dir)) {
    if (entry->d_name[0] == '.') continue;
    const std::string path = task_dir + "/" + entry->d_name + "/children";
    std::array<char, 4096> buffer{};
    if (const auto text = read_small(path.c_str(), buffer)) parse_pid_list(*text, children);
  }
  ::closedir(dir);
  return children;
}

std::vector<pid_t> descendants_of(pid_t pid) {
  std::vector<pid_t> all = children_of(pid);
  for (std::size_t i = 0; i < all.size(); ++i) {
    for (pid_t grandchild : children_of(all[i])) all.push_back(grandchild);
  }
  return all;
}

}  // namespace perfzero::procfs
