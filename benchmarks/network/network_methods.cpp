// network.Tcp.*: TCP between the two first ranks of a multi-host method (launch: {engine: slurm|mpirun,
// nodes: 2}, docs/multi-host.md): rank 1 serves, rank 0 measures and reports. Rank 1 publishes where
// it listens in the trial directory (network_server.json), which every host sees, as the reports
// need anyway; other ranks take no part.
#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "common/latency_report.hpp"
#include "common/rank_env.hpp"
#include "network/tcp_client.hpp"
#include "network/tcp_protocol.hpp"
#include "network/tcp_server.hpp"
#include "perfzero/benchmark.hpp"

namespace perfzero::network {

namespace {

using bench::env_number;
using bench::trial_dir;

using namespace std::chrono_literals;

constexpr const char* kServerFile = "network_server.json";
constexpr auto kServerWait = 60s;

// The address other hosts reach this one at: what its name resolves to (the cluster's /etc/hosts
// or DNS), IPv4 first.
std::string own_address() {
  char name[256] = "";
  ::gethostname(name, sizeof name - 1);
  addrinfo hints{};
  hints.ai_family = AF_INET;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  if (::getaddrinfo(name, nullptr, &hints, &found) != 0 || found == nullptr) return "127.0.0.1";
  char text[INET_ADDRSTRLEN] = "";
  ::inet_ntop(AF_INET, &reinterpret_cast<sockaddr_in*>(found->ai_addr)->sin_addr, text, sizeof text);
  ::freeaddrinfo(found);
  return text;
}

void publish(const Endpoint& where) {
  const auto path = trial_dir() / kServerFile;
  const auto tmp = trial_dir() / fmt::format(".{}.{}", kServerFile, ::getpid());
  {
    std::ofstream out(tmp);
    out << nlohmann::json{{"host", where.host}, {"port", where.port}}.dump();
  }
  std::filesystem::rename(tmp, path);
}

// Rank 1's endpoint, once it is published and answers; nothing after kServerWait.
std::optional<Endpoint> wait_for_server() {
  const auto give_up = std::chrono::steady_clock::now() + kServerWait;
  while (std::chrono::steady_clock::now() < give_up) {
    std::ifstream in(trial_dir() / kServerFile);
    std::stringstream text;
    text << in.rdbuf();
    const auto j = nlohmann::json::parse(text.str(), nullptr, false);
    if (j.is_object() && j.value("host", "").size() > 0 && j.value("port", 0) > 0) {
      Endpoint e{j["host"].get<std::string>(), j["port"].get<int>()};
      std::string error;
      // A file an earlier attempt left names a port nobody listens on: read it again.
      if (const int fd = connect_to(e.host, e.port, error); fd >= 0) {
        ::close(fd);
        return e;
      }
    }
    std::this_thread::sleep_for(50ms);
  }
  return std::nullopt;
}

// The common part: which rank does what. Returns the endpoint on rank 0, nothing on the others
// (rank 1 has served by then); the context says why when it cannot go on.
std::optional<Endpoint> take_part(Context& ctx, double runtime) {
  const long rank = env_number("PERFZERO_RANK", 0);
  const long world = env_number("PERFZERO_WORLD_SIZE", 1);
  if (world < 2) {
    ctx.skip("needs two ranks, one on each of two hosts: launch: {engine: slurm, nodes: 2} (or mpirun with two hosts)");
    return std::nullopt;
  }
  if (rank == 1) {
    Server server;
    std::string error;
    std::string address = ctx.string_param("server_address");
    if (address.empty()) address = own_address();
    if (!server.listen(address, error)) {
      ctx.fail("rank 1: " + error);
      return std::nullopt;
    }
    publish({address, server.port()});
    server.serve(std::chrono::seconds(static_cast<long>(runtime) + 120));
    return std::nullopt;
  }
  if (rank != 0) return std::nullopt;
  auto server = wait_for_server();
  if (!server) {
    ctx.fail(
        fmt::format("rank 1's server did not answer within {} s (its address in {}; set server_address if its "
                    "host name resolves to an address rank 0 cannot reach)",
                    kServerWait.count(), (trial_dir() / kServerFile).string()));
  }
  return server;
}

void throughput(Context& ctx) {
  const double runtime = ctx.number_param("runtime");
  const std::int64_t streams = ctx.int_param("streams");
  const std::string direction = ctx.string_param("direction");
  const std::int64_t buffer = ctx.int_param("buffer_bytes");
  if (!(runtime > 0) || runtime > 3600) return ctx.fail("runtime must be above 0 and at most 3600 s");
  if (streams < 1 || streams > 128) return ctx.fail("streams must be from 1 to 128");
  if (direction != "upload" && direction != "download") {
    return ctx.fail("direction must be upload (rank 0 sends to rank 1) or download (rank 1 sends to rank 0)");
  }
  if (buffer < 1024 || buffer > (64 << 20)) return ctx.fail("buffer_bytes must be from 1 KiB to 64 MiB");
  const auto server = take_part(ctx, runtime);
  if (!server) return;
  const Throughput t = measure_throughput(*server, direction == "upload", static_cast<int>(streams), runtime,
                                          static_cast<std::size_t>(buffer));
  send_quit(*server);
  if (!t.error.empty()) return ctx.fail(t.error);
  if (t.bytes == 0 || !(t.seconds > 0)) return ctx.fail("no data arrived");
  ctx.report("throughput", static_cast<double>(t.bytes) * 8 / t.seconds / 1e9, "Gbit/s", Direction::higher_is_better);
  ctx.set_extra("bytes", static_cast<std::int64_t>(t.bytes));
  ctx.set_extra("seconds", t.seconds);
  ctx.set_extra("streams", streams);
  ctx.set_extra("direction", direction);
  ctx.set_extra("server", fmt::format("{}:{}", server->host, server->port));
  ctx.set_extra("measured_at", std::string(direction == "upload" ? "rank 1, where the bytes arrived" : "rank 0"));
}

void latency(Context& ctx) {
  const double runtime = ctx.number_param("runtime");
  const std::int64_t message = ctx.int_param("message_bytes");
  if (!(runtime > 0) || runtime > 3600) return ctx.fail("runtime must be above 0 and at most 3600 s");
  if (message < 1 || message > (1 << 20)) return ctx.fail("message_bytes must be from 1 to 1 MiB");
  const auto server = take_part(ctx, runtime);
  if (!server) return;
  bench::LatencyHistogram h;
  const RoundTrips r = measure_round_trips(*server, static_cast<std::size_t>(message), runtime, 100, h);
  send_quit(*server);
  if (!r.error.empty()) return ctx.fail(r.error);
  if (r.count == 0) return ctx.fail("no round trip completed");
  bench::report_latency(ctx, h);
  ctx.report("transactions_per_second", static_cast<double>(r.count) / r.seconds, "1/s", Direction::higher_is_better);
  ctx.set_extra("round_trips", static_cast<std::int64_t>(r.count));
  ctx.set_extra("message_bytes", message);
  ctx.set_extra("server", fmt::format("{}:{}", server->host, server->port));
  ctx.set_extra("latency", std::string("a whole round trip (request and response), as netperf's TCP_RR"));
}

ParamSpec server_address() {
  return {"server_address", ParamType::string, std::string(),
          "where rank 1 listens (default: the address its host name resolves to)"};
}

const Registration kThroughput{
    MethodInfo{"network",
               "Tcp",
               "benchmark_throughput",
               "TCP throughput between rank 0 and rank 1 over one or several streams",
               {{"streams", ParamType::integer, std::int64_t{1}, "parallel TCP connections"},
                {"direction", ParamType::string, std::string("upload"), "upload (rank 0 to rank 1) or download"},
                {"runtime", ParamType::number, 5.0, "seconds of sending"},
                {"buffer_bytes", ParamType::integer, std::int64_t{128} << 10, "bytes per send or receive call"},
                server_address()},
               throughput}};

const Registration kLatency{
    MethodInfo{"network",
               "Tcp",
               "benchmark_latency",
               "TCP request/response round trips between rank 0 and rank 1",
               {{"message_bytes", ParamType::integer, std::int64_t{1}, "bytes each way per round trip"},
                {"runtime", ParamType::number, 5.0, "seconds of round trips (after 100 unmeasured)"},
                server_address()},
               latency}};

}  // namespace

}  // namespace perfzero::network
