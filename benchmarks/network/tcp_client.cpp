#include "network/tcp_client.hpp"

#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <mutex>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "network/tcp_protocol.hpp"

namespace perfzero::network {

namespace {

using Clock = std::chrono::steady_clock;

class Socket {
 public:
  explicit Socket(int fd) : fd_(fd) {}
  Socket(const Socket&) = delete;
  Socket& operator=(const Socket&) = delete;
  ~Socket() {
    if (fd_ >= 0) ::close(fd_);
  }
  int fd() const { return fd_; }

 private:
  int fd_;
};

// One stream: connect, ask, move bytes; what arrived and over how long.
Throughput one_stream(const Endpoint& server, bool upload, double runtime, std::size_t buffer_bytes) {
  Throughput t;
  const Socket s(connect_to(server.host, server.port, t.error));
  if (s.fd() < 0) return t;
  Request r;
  r.mode = upload ? Mode::sink : Mode::source;
  r.duration_ms = static_cast<std::uint32_t>(runtime * 1000);
  if (!write_all(s.fd(), &r, sizeof r)) {
    t.error = "the server closed the connection";
    return t;
  }
  std::vector<char> buffer(buffer_bytes, 'z');
  if (upload) {
    const auto stop =
        Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(runtime));
    while (Clock::now() < stop) {
      if (!write_all(s.fd(), buffer.data(), buffer.size())) {
        t.error = "the server went away while receiving";
        return t;
      }
    }
    ::shutdown(s.fd(), SHUT_WR);
    SinkReport report;
    if (!read_all(s.fd(), &report, sizeof report)) {
      t.error = "the server did not say what it received";
      return t;
    }
    t.bytes = report.bytes;
    t.seconds = static_cast<double>(report.nanoseconds) / 1e9;
    return t;
  }
  Clock::time_point first;
  Clock::time_point last;
  for (;;) {
    const ssize_t n = ::recv(s.fd(), buffer.data(), buffer.size(), 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    last = Clock::now();
    if (t.bytes == 0) first = last;
    t.bytes += static_cast<std::uint64_t>(n);
  }
  t.seconds = std::chrono::duration<double>(last - first).count();
  return t;
}

}  // namespace

Throughput measure_throughput(const Endpoint& server, bool upload, int streams, double runtime,
                              std::size_t buffer_bytes) {
  std::vector<Throughput> each(static_cast<std::size_t>(streams));
  std::vector<std::thread> threads;
  threads.reserve(static_cast<std::size_t>(streams));
  for (int i = 0; i < streams; ++i) {
    threads.emplace_back(
        [&, i] { each[static_cast<std::size_t>(i)] = one_stream(server, upload, runtime, buffer_bytes); });
  }
  for (auto& t : threads) t.join();
  Throughput total;
  for (const auto& t : each) {
    if (!t.error.empty() && total.error.empty()) total.error = t.error;
    total.bytes += t.bytes;
    total.seconds = std::max(total.seconds, t.seconds);
  }
  return total;
}

RoundTrips measure_round_trips(const Endpoint& server, std::size_t message_bytes, double runtime, int warmup,
                               bench::LatencyHistogram& latency) {
  RoundTrips out;
  latency.clear();
  const Socket s(connect_to(server.host, server.port, out.error));
  if (s.fd() < 0) return out;
  Request r;
  r.mode = Mode::echo;
  r.message_bytes = static_cast<std::uint32_t>(message_bytes);
  std::vector<char> message(std::max<std::size_t>(1, message_bytes), 'r');
  if (!write_all(s.fd(), &r, sizeof r)) {
    out.error = "the server closed the connection";
    return out;
  }
  auto round_trip = [&]() -> bool {
    return write_all(s.fd(), message.data(), message.size()) && read_all(s.fd(), message.data(), message.size());
  };
  for (int i = 0; i < warmup; ++i) {
    if (!round_trip()) {
      out.error = "the server went away";
      return out;
    }
  }
  const auto start = Clock::now();
  const auto stop = start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(runtime));
  auto now = start;
  while (now < stop) {
    const auto sent = now;
    if (!round_trip()) {
      out.error = "the server went away";
      return out;
    }
    now = Clock::now();
    latency.add(static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(now - sent).count()));
    ++out.count;
  }
  out.seconds = std::chrono::duration<double>(now - start).count();
  return out;
}

void send_quit(const Endpoint& server) {
  std::string error;
  const Socket s(connect_to(server.host, server.port, error));
  if (s.fd() < 0) return;
  Request r;
  r.mode = Mode::quit;
  write_all(s.fd(), &r, sizeof r);
}

}  // namespace perfzero::network
