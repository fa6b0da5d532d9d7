#include "network/tcp_server.hpp"

#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "network/tcp_protocol.hpp"

namespace perfzero::network {

namespace {

using Clock = std::chrono::steady_clock;
constexpr std::size_t kBuffer = 256 << 10;

void sink(int fd) {
  std::vector<char> buffer(kBuffer);
  std::uint64_t bytes = 0;
  Clock::time_point first;
  Clock::time_point last;
  for (;;) {
    const ssize_t n = ::recv(fd, buffer.data(), buffer.size(), 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    last = Clock::now();
    if (bytes == 0) first = last;
    bytes += static_cast<std::uint64_t>(n);
  }
  // The client shut its side: what arrived, and over how long, from the first byte to the last.
  SinkReport report{
      bytes, static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(last - first).count())};
  write_all(fd, &report, sizeof report);
}

void source(int fd, std::uint32_t duration_ms) {
  std::vector<char> buffer(kBuffer, 'p');
  const auto stop = Clock::now() + std::chrono::milliseconds(duration_ms);
  while (Clock::now() < stop) {
    if (!write_all(fd, buffer.data(), buffer.size())) return;
  }
}

void echo(int fd, std::uint32_t message_bytes) {
  std::vector<char> message(std::max<std::uint32_t>(1, message_bytes));
  while (read_all(fd, message.data(), message.size())) {
    if (!write_all(fd, message.data(), message.size())) return;
  }
}

}  // namespace

Server::~Server() {
  if (fd_ >= 0) ::close(fd_);
}

bool Server::listen(const std::string& address, std::string& error) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE;
  addrinfo* found = nullptr;
  const int rc = ::getaddrinfo(address.empty() ? nullptr : address.c_str(), "0", &hints, &found);
  if (rc != 0) {
    error = fmt::format("cannot resolve {}: {}", address, ::gai_strerror(rc));
    return false;
  }
  for (addrinfo* a = found; a != nullptr && fd_ < 0; a = a->ai_next) {
    fd_ = ::socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
    if (fd_ < 0) continue;
    if (::bind(fd_, a->ai_addr, a->ai_addrlen) != 0 || ::listen(fd_, 64) != 0) {
      error = fmt::format("cannot listen on {}: {}", address, std::strerror(errno));
      ::close(fd_);
      fd_ = -1;
    }
  }
  ::freeaddrinfo(found);
  if (fd_ < 0) return false;
  sockaddr_storage bound{};
  socklen_t length = sizeof bound;
  ::getsockname(fd_, reinterpret_cast<sockaddr*>(&bound), &length);
  port_ = ntohs(bound.ss_family == AF_INET6 ? reinterpret_cast<sockaddr_in6*>(&bound)->sin6_port
                                            : reinterpret_cast<sockaddr_in*>(&bound)->sin_port);
  return true;
}

void Server::serve(std::chrono::seconds idle_limit) {
  std::atomic<bool> quit{false};
  std::vector<std::thread> connections;
  auto give_up = Clock::now() + idle_limit;
  while (!quit && Clock::now() < give_up) {
    pollfd p{fd_, POLLIN, 0};
    if (::poll(&p, 1, 200) <= 0) continue;
    const int fd = ::accept4(fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd < 0) continue;
    give_up = Clock::now() + idle_limit;
    const int one = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    connections.emplace_back([fd, &quit] {
      Request r;
      if (read_all(fd, &r, sizeof r) && r.magic == Request{}.magic) {
        switch (r.mode) {
          case Mode::sink:
            sink(fd);
            break;
          case Mode::source:
            source(fd, r.duration_ms);
            break;
          case Mode::echo:
            echo(fd, r.message_bytes);
            break;
          case Mode::quit:
            quit = true;
            break;
        }
      }
      ::close(fd);
    });
  }
  for (auto& t : connections) t.join();
}

}  // namespace perfzero::network
