#include "nccl/nccl_operations.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace perfzero::nccl {

namespace {

float pattern(int rank, std::size_t i) { return static_cast<float>(rank + 1 + static_cast<int>(i % 7)); }
// 1 + 2 + ... + n: what the ranks' `rank + 1` parts of pattern() sum to.
int sum_of_ranks(int n) { return n * (n + 1) / 2; }
float reduced(int n, std::size_t i) { return static_cast<float>(sum_of_ranks(n) + n * static_cast<int>(i % 7)); }
// alltoall: what rank `from` of n sends to rank `to`, element i of that chunk: a different number for
// every (from, to), exact in a float up to about 4000 ranks.
float addressed(int from, int to, int n, std::size_t i) {
  return static_cast<float>(from * n + to + static_cast<int>(i % 7) * n * n);
}

// The ranks an alltoall layout is for: one chunk per peer.
int peers_of(const Layout& layout) { return static_cast<int>(layout.send_count / layout.chunk); }

}  // namespace

std::string name_of(Operation op) {
  switch (op) {
    case Operation::all_reduce:
      return "all_reduce";
    case Operation::all_gather:
      return "all_gather";
    case Operation::reduce_scatter:
      return "reduce_scatter";
    case Operation::alltoall:
      return "alltoall";
    case Operation::broadcast:
      return "broadcast";
    case Operation::sendrecv:
      return "sendrecv";
  }
  return "?";
}

Layout layout_of(Operation op, std::uint64_t bytes, int nranks) {
  const auto n = static_cast<std::size_t>(nranks);
  const double nd = nranks;
  const std::size_t total = std::max<std::uint64_t>(1, bytes / sizeof(float));
  Layout l;
  l.chunk = std::max<std::size_t>(1, total / n);
  switch (op) {
    case Operation::all_reduce:
      l.send_count = l.recv_count = total;
      l.size_bytes = total * sizeof(float);
      l.bus_factor = 2 * (nd - 1) / nd;
      l.in_place = true;
      break;
    case Operation::all_gather:
      l.send_count = l.chunk;
      l.recv_count = l.chunk * n;
      l.size_bytes = l.recv_count * sizeof(float);
      l.bus_factor = (nd - 1) / nd;
      l.in_place = true;
      break;
    case Operation::reduce_scatter:
      l.send_count = l.chunk * n;
      l.recv_count = l.chunk;
      l.size_bytes = l.send_count * sizeof(float);
      l.bus_factor = (nd - 1) / nd;
      l.in_place = true;
      break;
    case Operation::alltoall:
      l.send_count = l.recv_count = l.chunk * n;
      l.size_bytes = l.send_count * sizeof(float);
      l.bus_factor = (nd - 1) / nd;
      break;
    case Operation::broadcast:
      l.send_count = l.recv_count = total;
      l.size_bytes = total * sizeof(float);
      l.bus_factor = 1;
      l.in_place = true;
      break;
    case Operation::sendrecv:
      l.send_count = l.recv_count = total;
      l.size_bytes = total * sizeof(float);
      l.bus_factor = 1;
      break;
  }
  return l;
}

std::vector<float> input_of(Operation op, const Layout& layout, int rank) {
  std::vector<float> in(layout.send_count);
  for (std::size_t i = 0; i < in.size(); ++i) {
    switch (op) {
      case Operation::alltoall:
        in[i] = addressed(rank, static_cast<int>(i / layout.chunk), peers_of(layout), i % layout.chunk);
        break;
      case Operation::broadcast:
        in[i] = rank == 0 ? pattern(0, i) : 0.0F;
        break;
      default:
        in[i] = pattern(rank, i);
    }
  }
  return in;
}

std::size_t in_place_input_offset(Operation op, const Layout& layout, int rank) {
  return op == Operation::all_gather ? static_cast<std::size_t>(rank) * layout.chunk : 0;
}

std::size_t in_place_result_offset(Operation op, const Layout& layout, int rank) {
  return op == Operation::reduce_scatter ? static_cast<std::size_t>(rank) * layout.chunk : 0;
}

std::size_t result_count(Operation /*op*/, const Layout& layout) { return layout.recv_count; }

float expected_of(Operation op, const Layout& layout, int rank, int nranks, std::size_t i) {
  switch (op) {
    case Operation::all_reduce:
      return reduced(nranks, i);
    case Operation::all_gather:
      return pattern(static_cast<int>(i / layout.chunk), i % layout.chunk);
    case Operation::reduce_scatter:
      return reduced(nranks, static_cast<std::size_t>(rank) * layout.chunk + i);
    case Operation::alltoall:
      return addressed(static_cast<int>(i / layout.chunk), rank, nranks, i % layout.chunk);
    case Operation::broadcast:
      return pattern(0, i);
    case Operation::sendrecv:
      return pattern((rank - 1 + nranks) % nranks, i);
  }
  return 0;
}

CheckResult check_result(Operation op, const Layout& layout, int rank, int nranks, const std::vector<float>& result) {
  CheckResult r;
  for (std::size_t i = 0; i < result.size(); ++i) {
    const float want = expected_of(op, layout, rank, nranks, i);
    if (result[i] == want) continue;
    if (r.wrong++ == 0) r.first = fmt::format("rank {}: element {} is {}, expected {}", rank, i, result[i], want);
  }
  return r;
}

}  // namespace perfzero::nccl
