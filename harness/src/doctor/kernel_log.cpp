#include "doctor/kernel_log.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <array>
#include <cctype>
#include <cerrno>
#include <cstring>

#include <fmt/format.h>

#include "common/utf8.hpp"

namespace perfzero::doctor {

namespace {

constexpr std::size_t kMostBytes = 64UL << 20;
constexpr std::string_view kMarker = "NVRM: Xid (";

// The kernel's text as JSON and a terminal can hold it: valid UTF-8 kept, control bytes and
// anything else as '?'.
std::string printable(std::string_view in) {
  std::string out;
  while (!in.empty()) {
    const std::size_t n = utf8::sequence_length(in);
    if (n == 0 || (n == 1 && std::iscntrl(static_cast<unsigned char>(in.front())) != 0)) {
      out += '?';
      in.remove_prefix(1);
      continue;
    }
    out.append(in.substr(0, n));
    in.remove_prefix(n);
  }
  return out;
}

void pick_xid(std::string_view line, KernelLogXids& out) {
  const auto at = line.find(kMarker);
  if (at == std::string_view::npos) return;
  std::string_view rest = line.substr(at + kMarker.size());  // "PCI:0000:3b:00): 79, pid=..."
  const auto close = rest.find("): ");
  if (close == std::string_view::npos) return;
  std::string_view where = rest.substr(0, close);
  if (where.substr(0, 4) == "PCI:") where.remove_prefix(4);
  rest.remove_prefix(close + 3);
  unsigned long long xid = 0;
  std::size_t digits = 0;
  while (digits < rest.size() && digits < 10 && std::isdigit(static_cast<unsigned char>(rest[digits])) != 0) {
    xid = xid * 10 + static_cast<unsigned long long>(rest[digits] - '0');
    ++digits;
  }
  if (digits == 0) return;
  rest.remove_prefix(digits);
  if (!rest.empty() && rest.front() == ',') rest.remove_prefix(1);
  while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
  ++out.total;
  if (out.xids.size() == kMostXids) out.xids.erase(out.xids.begin());
  out.xids.push_back({printable(where), xid, printable(rest.substr(0, 200))});
}

}  // namespace

KernelLogXids read_logged_xids(const std::filesystem::path& kmsg) {
  KernelLogXids out;
  // Non-blocking: /dev/kmsg blocks at its end, and so would a FIFO someone put in its place.
  const int fd = ::open(kmsg.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    const int e = errno;
    out.unreadable =
        fmt::format("{}: {}{}", kmsg.string(), std::strerror(e),
                    e == EPERM || e == EACCES ? " (kernel.dmesg_restrict: root or CAP_SYSLOG reads it)" : "");
    return out;
  }
  // /dev/kmsg needs a buffer that holds a whole record (at most 8 KiB); a plain file reads in chunks.
  std::array<char, 16384> buffer{};
  std::string pending;
  std::size_t seen = 0;
  while (seen < kMostBytes) {
    const ssize_t n = ::read(fd, buffer.data(), buffer.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      if (errno == EPIPE) continue;  // records overwritten while we read: go on with the next one
      if (errno != EAGAIN && seen == 0) {
        out.unreadable = fmt::format("{}: {}", kmsg.string(), std::strerror(errno));
      }
      break;
    }
    if (n == 0) break;
    seen += static_cast<std::size_t>(n);
    pending.append(buffer.data(), static_cast<std::size_t>(n));
    std::size_t start = 0;
    for (auto nl = pending.find('\n'); nl != std::string::npos; nl = pending.find('\n', start)) {
      pick_xid(std::string_view(pending).substr(start, nl - start), out);
      start = nl + 1;
    }
    pending.erase(0, start);
    if (pending.size() > buffer.size()) pending.clear();  // a "line" this long is no driver message
  }
  if (!pending.empty()) pick_xid(pending, out);
  ::close(fd);
  return out;
}

}  // namespace perfzero::doctor
