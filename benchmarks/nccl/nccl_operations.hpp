#pragma once
// The six operations nccl-tests measures, each with its buffers, the data every rank puts in, the
// answer every rank must get back, and the size and bus-bandwidth factor exactly as nccl-tests'
// doc/PERFORMANCE.md defines them. Host-side arithmetic only (no CUDA): unit-tested without a GPU;
// nccl_launch.hpp issues them.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace perfzero::nccl {

enum class Operation { all_reduce, all_gather, reduce_scatter, alltoall, broadcast, sendrecv };

std::string name_of(Operation op);

struct Layout {
  std::size_t send_count = 0;    // float32 elements in each rank's send buffer
  std::size_t recv_count = 0;    // ... and receive buffer
  std::size_t chunk = 0;         // one rank's share, for the operations that split the data
  std::uint64_t size_bytes = 0;  // nccl-tests' "size": algbw = size / time
  double bus_factor = 1;         // busbw = algbw * bus_factor
  bool in_place = false;         // NCCL defines an in-place form (its docs, "In-place operations")
};

// `bytes` is nccl-tests' size (its -b/-e): the whole message, split among the ranks where the
// operation splits it.
Layout layout_of(Operation op, std::uint64_t bytes, int nranks);

// What rank `rank` puts in its send buffer: small whole numbers, so every float sum is exact.
std::vector<float> input_of(Operation op, const Layout& layout, int rank);
// Where the input and the result sit in the one buffer of the in-place form (elements).
std::size_t in_place_input_offset(Operation op, const Layout& layout, int rank);
std::size_t in_place_result_offset(Operation op, const Layout& layout, int rank);
std::size_t result_count(Operation op, const Layout& layout);
// The value element `i` of rank `rank`'s result must have.
float expected_of(Operation op, const Layout& layout, int rank, int nranks, std::size_t i);
// The first wrong element of `result` ("" when all are right) and how many are wrong.
struct CheckResult {
  std::int64_t wrong = 0;
  std::string first;
};
CheckResult check_result(Operation op, const Layout& layout, int rank, int nranks, const std::vector<float>& result);

}  // namespace perfzero::nccl
