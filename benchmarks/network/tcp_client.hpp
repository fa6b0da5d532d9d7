#pragma once
// Rank 0's side of the network family (tcp_protocol.hpp): throughput over one or several streams in
// either direction, and request/response round trips.
#include <cstdint>
#include <string>

#include "common/latency_histogram.hpp"

namespace perfzero::network {

struct Endpoint {
  std::string host;
  int port = 0;
};

struct Throughput {
  std::uint64_t bytes = 0;  // received, summed over the streams
  double seconds = 0;       // the longest stream's, first byte to last where the bytes arrived
  std::string error;
};

// upload: rank 0 sends and rank 1 counts; download: rank 1 sends and rank 0 counts.
Throughput measure_throughput(const Endpoint& server, bool upload, int streams, double runtime_seconds,
                              std::size_t buffer_bytes);

struct RoundTrips {
  std::uint64_t count = 0;
  double seconds = 0;
  std::string error;
};

// One connection, one message of `message_bytes` out and back at a time, for `runtime_seconds`
// after `warmup` round trips; each round trip's time goes into `latency`.
RoundTrips measure_round_trips(const Endpoint& server, std::size_t message_bytes, double runtime_seconds, int warmup,
                               bench::LatencyHistogram& latency);

// Tells the server to stop.
void send_quit(const Endpoint& server);

}  // namespace perfzero::network
