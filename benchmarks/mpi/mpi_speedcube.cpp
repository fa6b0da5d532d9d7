// mpi.SpeedCube.*: the speed cube (speedcube/speedcube.hpp) across ranks, the seeds' many-worker
// experiment. Each rank computes its slab of chunks with the one-host family's fused kernel and the
// same Philox points; one MPI_Allreduce then gives every rank every chunk's sums, which are added in
// chunk order, so the mean is bit for bit the one a single host computes for the same n, chunk and
// seed (speedcube.SpeedCube.benchmark_fused), whatever the number of ranks.
#include <mpi.h>

#include <cstdint>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "mpi/mpi_session.hpp"
#include "perfzero/benchmark.hpp"
#include "speedcube/speedcube.hpp"
#include "speedcube/speedcube_result.hpp"

namespace perfzero::mpi {

namespace {

using speedcube::ChunkRange;
using speedcube::Sums;

// Rank r of `ranks` takes chunks [r*C/ranks, (r+1)*C/ranks): contiguous row-major chunks, a slab.
ChunkRange slab_of(std::int64_t chunks, int rank, int ranks) {
  return {chunks * rank / ranks, chunks * (rank + 1) / ranks};
}

// Every chunk's four sums in one array of doubles (counts included: they stay below 2^53), zero
// outside this rank's slab. Summed over ranks, each element is one rank's value plus zeros: exact.
constexpr std::size_t kFields = 4;

std::vector<double> pack(const std::vector<Sums>& mine, ChunkRange slab, std::int64_t chunks) {
  std::vector<double> all(static_cast<std::size_t>(chunks) * kFields, 0.0);
  for (std::size_t i = 0; i < mine.size(); ++i) {
    double* at = &all[(static_cast<std::size_t>(slab.first) + i) * kFields];
    at[0] = mine[i].selected;
    at[1] = mine[i].all;
    at[2] = static_cast<double>(mine[i].selected_count);
    at[3] = static_cast<double>(mine[i].all_count);
  }
  return all;
}

std::vector<Sums> unpack(const std::vector<double>& all) {
  std::vector<Sums> chunks(all.size() / kFields);
  for (std::size_t c = 0; c < chunks.size(); ++c) {
    const double* at = &all[c * kFields];
    chunks[c] = Sums{at[0], at[1], static_cast<std::int64_t>(at[2]), static_cast<std::int64_t>(at[3])};
  }
  return chunks;
}

struct Repetition {
  Sums sums;
  double seconds = 0;       // the slowest rank's, slab and allreduce together
  double slab_seconds = 0;  // the slowest rank's slab alone
};

Repetition run_once(const speedcube::Problem& p, ChunkRange slab, std::int64_t chunks) {
  MPI_Barrier(MPI_COMM_WORLD);
  const double start = MPI_Wtime();
  std::vector<double> all = pack(speedcube::run_fused_chunks(p, slab), slab, chunks);
  const double slab_done = MPI_Wtime();
  MPI_Allreduce(MPI_IN_PLACE, all.data(), static_cast<int>(all.size()), MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  const double mine[2] = {MPI_Wtime() - start, slab_done - start};
  double slowest[2] = {0, 0};
  MPI_Allreduce(mine, slowest, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return {speedcube::add_in_chunk_order(unpack(all)), slowest[0], slowest[1]};
}

void fused(Context& ctx) {
  speedcube::Problem p;
  p.n = ctx.int_param("n");
  p.chunk = ctx.int_param("chunk");
  p.seed = static_cast<std::uint64_t>(ctx.int_param("seed"));
  p.threads = params::threads_from(ctx);
  const std::int64_t repetitions = ctx.int_param("repetitions");
  if (auto problem = speedcube::validate(p); !problem.empty()) return ctx.fail(problem);
  if (repetitions < 1 || repetitions > 1000) return ctx.fail("repetitions must be from 1 to 1000");
  const std::int64_t chunks = speedcube::chunk_count(p);
  if (chunks * static_cast<std::int64_t>(kFields) > (std::int64_t{1} << 30)) {
    return ctx.fail(fmt::format("{} chunks are too many for one allreduce; use a larger chunk", chunks));
  }
  Session mpi;
  const ChunkRange slab = slab_of(chunks, mpi.rank(), mpi.size());
  speedcube::Problem warm = p;
  warm.n = p.chunk;  // one chunk on every rank: code, caches and threads warmed, untimed
  speedcube::run_fused(warm);
  RepetitionSeries seconds{.name = "run"};
  RepetitionSeries slab_seconds{.name = "slab"};
  Sums first;
  for (std::int64_t r = 0; r < repetitions; ++r) {
    const Repetition rep = run_once(p, slab, chunks);
    // Counter-based points added in chunk order: every repetition must give the same bits.
    if (r == 0) first = rep.sums;
    if (rep.sums.selected != first.selected || rep.sums.all != first.all) {
      return ctx.fail(fmt::format("two repetitions gave different sums: {} and {}", first.all, rep.sums.all));
    }
    seconds.values.push_back(rep.seconds);
    slab_seconds.values.push_back(rep.slab_seconds);
  }
  seconds.stopped_by = slab_seconds.stopped_by = StopReason::min_repetitions_and_time;
  ctx.record_repetitions(seconds);
  ctx.record_repetitions(slab_seconds);
  if (!speedcube::report_result(ctx, p, first, seconds.median())) return;
  // What the exchange cost on top of the slowest slab: the price of spreading the cube.
  ctx.report("exchange_seconds", seconds.median() - slab_seconds.median(), "s", Direction::lower_is_better);
  ctx.set_extra("ranks", std::int64_t{mpi.size()});
  ctx.set_extra("chunks", chunks);
  ctx.set_extra("chunks_on_rank_0", slab_of(chunks, 0, mpi.size()).last);
  ctx.set_extra("sums_added", std::string("in chunk order: the same bits as one host's speedcube.SpeedCube"));
}

std::vector<ParamSpec> fused_params() {
  return {{"n", ParamType::integer, std::int64_t{20000}, "array side (N x N points), as speedcube.SpeedCube"},
          {"chunk", ParamType::integer, std::int64_t{2000}, "chunk side (C x C); a multiple of 16 that divides n"},
          {"seed", ParamType::integer, std::int64_t{42}, "Philox key"},
          params::threads(),
          {"repetitions", ParamType::integer, std::int64_t{3},
           "timed runs of the whole problem on every rank (a fixed count, so ranks agree); the median counts"}};
}

const Registration kFused{MethodInfo{
    "mpi", "SpeedCube", "benchmark_fused",
    "the speed cube across ranks: each rank its slab of chunks, one MPI_Allreduce, the one-host mean bit for bit",
    fused_params(), fused}};

}  // namespace

}  // namespace perfzero::mpi
