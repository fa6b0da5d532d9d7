#pragma once
// The network family's wire protocol between its two ranks (network_methods.cpp): rank 1 serves, rank
// 0 measures. Each TCP connection starts with a request; the server answers as it says.
//   sink:   the client sends until it shuts its side; the server replies with what it received and
//           over how long (first byte to end), so throughput is measured where the bytes arrive;
//   source: the server sends for `duration_ms`, then closes; the client counts;
//   echo:   the server returns every `message_bytes` message as it arrives (request/response);
//   quit:   the server stops accepting and ends.
#include <cstdint>
#include <string>

namespace perfzero::network {

enum class Mode : std::uint32_t { sink = 1, source = 2, echo = 3, quit = 4 };

struct Request {
  std::uint32_t magic = 0x707a6e31;  // "pzn1"
  Mode mode = Mode::sink;
  std::uint32_t duration_ms = 0;
  std::uint32_t message_bytes = 0;
};

struct SinkReport {
  std::uint64_t bytes = 0;
  std::uint64_t nanoseconds = 0;
};

// Whole reads and writes, through EINTR and short transfers: false when the peer went away.
bool read_all(int fd, void* data, std::size_t size);
bool write_all(int fd, const void* data, std::size_t size);

// A connected, TCP_NODELAY socket to host:port, or -1 with `error` said.
int connect_to(const std::string& host, int port, std::string& error);

}  // namespace perfzero::network
