// The mpi family: MPI collectives and point-to-point between ranks, measured as nccl-tests measures
// NCCL's (algorithm and bus bandwidth, the same factors), every message checked for the right answer.
// Launched on several ranks (launch: {engine: mpirun}, docs/multi-host.md); rank 0 reports for the
// trial, every rank times and checks, and the slowest rank's time is the one reported.
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "mpi/mpi_session.hpp"
#include "perfzero/benchmark.hpp"

namespace perfzero::mpi {

namespace {

// Small whole numbers, so float sums over any realistic number of ranks are exact.
float pattern(int rank, std::size_t i) { return static_cast<float>(rank + 1 + static_cast<int>(i % 7)); }

// 1 + 2 + ... + n: what the ranks' `rank + 1` parts of pattern() sum to (n(n+1) is even: exact).
int sum_of_ranks(int n) { return n * (n + 1) / 2; }

// The first wrong element on any rank, agreed by all: "" when every rank's buffer is right.
std::string agree_on_check(const Session& mpi, const std::string& mine) {
  int bad = mine.empty() ? mpi.size() : mpi.rank();
  int first_bad = 0;
  MPI_Allreduce(&bad, &first_bad, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (first_bad == mpi.size()) return "";
  return fmt::format("rank {} received a wrong result{}", first_bad, mpi.rank() == first_bad ? ": " + mine : "");
}

std::string check(const std::vector<float>& got, const std::function<float(std::size_t)>& expected) {
  for (std::size_t i = 0; i < got.size(); ++i) {
    const float want = expected(i);
    if (got[i] != want) return fmt::format("element {} is {}, expected {}", i, got[i], want);
  }
  return "";
}

struct Collective {
  // Fills the buffers for one run, runs it once, and checks what this rank received ("" when right).
  std::function<void()> prepare;
  std::function<void()> run;
  std::function<std::string()> verify;
  double bus_factor = 1;    // nccl-tests: busbw = algbw * factor
  std::uint64_t bytes = 0;  // the size nccl-tests reports for this operation
};

struct Buffers {
  std::vector<float> send;
  std::vector<float> recv;
};

// What every operation is built from: the ranks, this rank, and the message in elements.
struct Shape {
  int n = 1;   // ranks
  int me = 0;  // this rank
  double nd = 1;
  std::size_t total = 0;  // elements of the whole message
  std::size_t chunk = 1;  // elements per rank's chunk, so every operation divides evenly among the ranks
  bool in_place = false;
};

int ints(std::size_t c) { return static_cast<int>(c); }

Collective make_allreduce(const Shape& s, Buffers& b) {
  const int n = s.n;
  const int me = s.me;
  const std::size_t total = s.total;
  const bool in_place = s.in_place;
  Collective c;
  b.send.assign(total, 0);
  b.recv.assign(total, 0);
  c.bytes = total * sizeof(float);
  c.bus_factor = n > 1 ? 2.0 * (s.nd - 1) / s.nd : 0;
  c.prepare = [&b, me] {
    for (std::size_t i = 0; i < b.send.size(); ++i) b.send[i] = b.recv[i] = pattern(me, i);
  };
  c.run = [&b, in_place, total] {
    MPI_Allreduce(in_place ? MPI_IN_PLACE : b.send.data(), b.recv.data(), ints(total), MPI_FLOAT, MPI_SUM,
                  MPI_COMM_WORLD);
  };
  c.verify = [&b, n] {
    return check(b.recv,
                 [n](std::size_t i) { return static_cast<float>(sum_of_ranks(n) + n * static_cast<int>(i % 7)); });
  };
  return c;
}

Collective make_allgather(const Shape& s, Buffers& b) {
  const int me = s.me;
  const std::size_t chunk = s.chunk;
  const bool in_place = s.in_place;
  Collective c;
  b.send.assign(chunk, 0);
  b.recv.assign(chunk * static_cast<std::size_t>(s.n), 0);
  c.bytes = chunk * static_cast<std::size_t>(s.n) * sizeof(float);
  c.bus_factor = (s.nd - 1) / s.nd;
  c.prepare = [&b, me, chunk] {
    for (std::size_t i = 0; i < chunk; ++i) {
      b.send[i] = pattern(me, i);
      b.recv[static_cast<std::size_t>(me) * chunk + i] = pattern(me, i);
    }
  };
  c.run = [&b, in_place, chunk] {
    MPI_Allgather(in_place ? MPI_IN_PLACE : b.send.data(), ints(chunk), MPI_FLOAT, b.recv.data(), ints(chunk),
                  MPI_FLOAT, MPI_COMM_WORLD);
  };
  c.verify = [&b, chunk] {
    return check(b.recv, [chunk](std::size_t i) { return pattern(static_cast<int>(i / chunk), i % chunk); });
  };
  return c;
}

Collective make_reduce_scatter(const Shape& s, Buffers& b) {
  const int n = s.n;
  const int me = s.me;
  const std::size_t chunk = s.chunk;
  const bool in_place = s.in_place;
  Collective c;
  b.send.assign(chunk * static_cast<std::size_t>(n), 0);
  b.recv.assign(chunk, 0);
  c.bytes = chunk * static_cast<std::size_t>(n) * sizeof(float);
  c.bus_factor = (s.nd - 1) / s.nd;
  c.prepare = [&b, me] {
    for (std::size_t i = 0; i < b.send.size(); ++i) b.send[i] = pattern(me, i);
  };
  // In place, the result is the first chunk of the send buffer.
  c.run = [&b, in_place, chunk] {
    MPI_Reduce_scatter_block(in_place ? MPI_IN_PLACE : b.send.data(), in_place ? b.send.data() : b.recv.data(),
                             ints(chunk), MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
  };
  c.verify = [&b, n, me, chunk, in_place] {
    const std::vector<float> got =
        in_place ? std::vector<float>(b.send.begin(), b.send.begin() + static_cast<long>(chunk)) : b.recv;
    return check(got, [n, me, chunk](std::size_t i) {
      return static_cast<float>(sum_of_ranks(n) + n * static_cast<int>((static_cast<std::size_t>(me) * chunk + i) % 7));
    });
  };
  return c;
}

Collective make_alltoall(const Shape& s, Buffers& b) {
  const int n = s.n;
  const int me = s.me;
  const std::size_t chunk = s.chunk;
  const bool in_place = s.in_place;
  Collective c;
  b.send.assign(chunk * static_cast<std::size_t>(n), 0);
  b.recv.assign(chunk * static_cast<std::size_t>(n), 0);
  c.bytes = chunk * static_cast<std::size_t>(n) * sizeof(float);
  c.bus_factor = (s.nd - 1) / s.nd;
  // To rank d goes 100*me + d + (i % 7): whole numbers below 2^24 for up to ~160000 ranks.
  c.prepare = [&b, me, n, chunk] {
    for (int d = 0; d < n; ++d) {
      for (std::size_t i = 0; i < chunk; ++i) {
        const float v = static_cast<float>(100 * me + d + static_cast<int>(i % 7));
        b.send[static_cast<std::size_t>(d) * chunk + i] = v;
        b.recv[static_cast<std::size_t>(d) * chunk + i] = v;
      }
    }
  };
  c.run = [&b, in_place, chunk] {
    MPI_Alltoall(in_place ? MPI_IN_PLACE : b.send.data(), ints(chunk), MPI_FLOAT, b.recv.data(), ints(chunk), MPI_FLOAT,
                 MPI_COMM_WORLD);
  };
  c.verify = [&b, me, chunk] {
    return check(b.recv, [me, chunk](std::size_t i) {
      return static_cast<float>(100 * static_cast<int>(i / chunk) + me + static_cast<int>((i % chunk) % 7));
    });
  };
  return c;
}

Collective make_broadcast(const Shape& s, Buffers& b) {
  const int me = s.me;
  const std::size_t total = s.total;
  Collective c;
  b.recv.assign(total, 0);
  c.bytes = total * sizeof(float);
  c.bus_factor = 1;
  c.prepare = [&b, me] {
    for (std::size_t i = 0; i < b.recv.size(); ++i) b.recv[i] = me == 0 ? pattern(0, i) : 0.0F;
  };
  c.run = [&b, total] { MPI_Bcast(b.recv.data(), ints(total), MPI_FLOAT, 0, MPI_COMM_WORLD); };
  c.verify = [&b] { return check(b.recv, [](std::size_t i) { return pattern(0, i); }); };
  return c;
}

// The operation named `op` over a message of `total` elements, its buffers sized in `b`.
Collective make_collective(const std::string& op, const Session& mpi, std::size_t total, bool in_place, Buffers& b) {
  Shape s;
  s.n = mpi.size();
  s.me = mpi.rank();
  s.nd = s.n;
  s.total = total;
  s.chunk = std::max<std::size_t>(1, total / static_cast<std::size_t>(s.n));
  s.in_place = in_place;
  if (op == "allreduce") return make_allreduce(s, b);
  if (op == "allgather") return make_allgather(s, b);
  if (op == "reduce_scatter") return make_reduce_scatter(s, b);
  if (op == "alltoall") return make_alltoall(s, b);
  return make_broadcast(s, b);
}

// The slowest rank's time for one operation, averaged over `iters` back to back after `warmups`.
double time_operation(const std::function<void()>& run, int warmups, int iters) {
  for (int i = 0; i < warmups; ++i) run();
  MPI_Barrier(MPI_COMM_WORLD);
  const double start = MPI_Wtime();
  for (int i = 0; i < iters; ++i) run();
  const double mine = (MPI_Wtime() - start) / iters;
  double slowest = 0;
  MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return slowest;
}

void collective_method(Context& ctx, const std::string& op) {
  const std::int64_t bytes = ctx.int_param("bytes");
  const int iters = static_cast<int>(ctx.int_param("iters"));
  const int warmups = static_cast<int>(ctx.int_param("warmup_iters"));
  const bool in_place = ctx.bool_param("in_place");
  if (bytes < 4 || bytes > (std::int64_t{1} << 32)) return ctx.fail("bytes must be from 4 to 4 GiB");
  if (iters < 1 || warmups < 0) return ctx.fail("iters must be at least 1 and warmup_iters at least 0");
  if (in_place && op == "broadcast") return ctx.fail("broadcast has no in-place form (its root's buffer is the data)");
  Session mpi;
  Buffers buffers;
  const auto total = static_cast<std::size_t>(bytes) / sizeof(float);
  const Collective c = make_collective(op, mpi, total, in_place, buffers);
  // Checked first, on the data each rank put in: a wrong answer is a failure, not a figure.
  c.prepare();
  c.run();
  if (const std::string wrong = agree_on_check(mpi, c.verify()); !wrong.empty()) return ctx.fail(wrong);
  c.prepare();
  const double seconds = time_operation(c.run, warmups, iters);
  const double algbw = static_cast<double>(c.bytes) / seconds / 1e9;
  ctx.report("time_us", seconds * 1e6, "us", Direction::lower_is_better);
  ctx.report("algbw", algbw, "GB/s", Direction::higher_is_better);
  ctx.report("busbw", algbw * c.bus_factor, "GB/s", Direction::higher_is_better);
  ctx.set_extra("ranks", std::int64_t{mpi.size()});
  ctx.set_extra("bytes", static_cast<std::int64_t>(c.bytes));
  ctx.set_extra("bus_factor", c.bus_factor);
  ctx.set_extra("in_place", in_place);
  ctx.set_extra("dtype", std::string("float32"));
  ctx.set_extra("checked", std::string("every element, on every rank, before timing"));
}

// Ping-pong between rank 0 and the last rank (on another host when there are several: launch maps
// ranks host by host). Latency is half a round trip; bandwidth streams a window of messages one way.
void p2p_method(Context& ctx, bool bandwidth) {
  const std::int64_t bytes = ctx.int_param("bytes");
  const int iters = static_cast<int>(ctx.int_param("iters"));
  if (bytes < 1 || bytes > (std::int64_t{1} << 30)) return ctx.fail("bytes must be from 1 to 1 GiB");
  if (iters < 1) return ctx.fail("iters must be at least 1");
  Session mpi;
  if (mpi.size() < 2) {
    return ctx.skip(
        fmt::format("needs 2 or more ranks, got {} (launch: {{engine: mpirun, tasks_per_node: 2}})", mpi.size()));
  }
  const int peer = mpi.size() - 1;
  const int me = mpi.rank();
  std::vector<char> buffer(static_cast<std::size_t>(bytes), static_cast<char>(me + 1));
  const int count = static_cast<int>(bytes);
  constexpr int kWindow = 64;
  auto once = [&] {
    if (!bandwidth) {
      if (me == 0) {
        MPI_Send(buffer.data(), count, MPI_CHAR, peer, 0, MPI_COMM_WORLD);
        MPI_Recv(buffer.data(), count, MPI_CHAR, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      } else if (me == peer) {
        MPI_Recv(buffer.data(), count, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(buffer.data(), count, MPI_CHAR, 0, 0, MPI_COMM_WORLD);
      }
      return;
    }
    std::vector<MPI_Request> requests(kWindow);
    char ack = 0;
    if (me == 0) {
      for (auto& r : requests) MPI_Isend(buffer.data(), count, MPI_CHAR, peer, 1, MPI_COMM_WORLD, &r);
      MPI_Waitall(kWindow, requests.data(), MPI_STATUSES_IGNORE);
      MPI_Recv(&ack, 1, MPI_CHAR, peer, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (me == peer) {
      for (auto& r : requests) MPI_Irecv(buffer.data(), count, MPI_CHAR, 0, 1, MPI_COMM_WORLD, &r);
      MPI_Waitall(kWindow, requests.data(), MPI_STATUSES_IGNORE);
      MPI_Send(&ack, 1, MPI_CHAR, 0, 2, MPI_COMM_WORLD);
    }
  };
  // What arrived is rank 0's bytes: checked once before timing.
  once();
  // Both ways end with rank 0's bytes (1) on both ranks that took part.
  std::string wrong;
  if ((me == 0 || me == peer) && std::any_of(buffer.begin(), buffer.end(), [](char c) { return c != 1; })) {
    wrong = "the message arrived changed";
  }
  if (const std::string bad = agree_on_check(mpi, wrong); !bad.empty()) return ctx.fail(bad);
  const double seconds = time_operation(once, 2, iters);
  if (bandwidth) {
    ctx.report("bandwidth", static_cast<double>(bytes) * kWindow / seconds / 1e9, "GB/s", Direction::higher_is_better);
  } else {
    ctx.report("latency_us", seconds / 2 * 1e6, "us", Direction::lower_is_better);
  }
  ctx.set_extra("ranks", std::int64_t{mpi.size()});
  ctx.set_extra("peer_rank", std::int64_t{peer});
  ctx.set_extra("bytes", bytes);
}

std::vector<ParamSpec> collective_params() {
  return {{"bytes", ParamType::integer, std::int64_t{1} << 20, "message size in bytes (float32 elements)"},
          {"iters", ParamType::integer, std::int64_t{20}, "timed operations, back to back"},
          {"warmup_iters", ParamType::integer, std::int64_t{5}, "untimed operations first"},
          {"in_place", ParamType::boolean, false, "MPI_IN_PLACE: the result overwrites the input"}};
}

std::vector<ParamSpec> p2p_params(std::int64_t default_bytes) {
  return {{"bytes", ParamType::integer, default_bytes, "message size in bytes"},
          {"iters", ParamType::integer, std::int64_t{20},
           "timed round trips (latency) or windows of 64 messages (bandwidth)"}};
}

// Methods are plain functions (perfzero::MethodFunction): one per operation.
void allreduce(Context& ctx) { collective_method(ctx, "allreduce"); }
void allgather(Context& ctx) { collective_method(ctx, "allgather"); }
void reduce_scatter(Context& ctx) { collective_method(ctx, "reduce_scatter"); }
void alltoall(Context& ctx) { collective_method(ctx, "alltoall"); }
void broadcast(Context& ctx) { collective_method(ctx, "broadcast"); }
void latency(Context& ctx) { p2p_method(ctx, false); }
void bandwidth(Context& ctx) { p2p_method(ctx, true); }

MethodInfo collective(const std::string& op, const char* description, MethodFunction run) {
  return MethodInfo{"mpi", "Collectives", "benchmark_" + op, description, collective_params(), run};
}

const Registration kAllreduce{collective(
    "allreduce", "MPI_Allreduce (sum, float32): algbw and busbw (2(n-1)/n, as nccl-tests), checked", allreduce)};
const Registration kAllgather{
    collective("allgather", "MPI_Allgather (float32): algbw and busbw ((n-1)/n, as nccl-tests), checked", allgather)};
const Registration kReduceScatter{collective(
    "reduce_scatter", "MPI_Reduce_scatter_block (sum, float32): algbw and busbw ((n-1)/n, as nccl-tests), checked",
    reduce_scatter)};
const Registration kAlltoall{
    collective("alltoall", "MPI_Alltoall (float32): algbw and busbw ((n-1)/n, as nccl-tests), checked", alltoall)};
const Registration kBroadcast{collective(
    "broadcast", "MPI_Bcast from rank 0 (float32): algbw and busbw (factor 1, as nccl-tests), checked", broadcast)};
const Registration kLatency{MethodInfo{"mpi", "PointToPoint", "benchmark_latency",
                                       "ping-pong between rank 0 and the last rank: half a round trip", p2p_params(8),
                                       latency}};
const Registration kBandwidth{MethodInfo{"mpi", "PointToPoint", "benchmark_bandwidth",
                                         "a window of 64 messages from rank 0 to the last rank, then an ack",
                                         p2p_params(std::int64_t{1} << 22), bandwidth}};

}  // namespace

}  // namespace perfzero::mpi
