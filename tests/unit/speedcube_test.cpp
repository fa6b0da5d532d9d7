#include <gtest/gtest.h>

#include <cmath>
#include <numeric>
#include <vector>

#include "speedcube/philox.hpp"
#include "speedcube/speedcube.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::speedcube::speedcube_test {
namespace {

TEST(Philox, MatchesRandom123KnownAnswer) {
  // Random123's kat_vectors: philox4x32 10 rounds, counter 0, key 0.
  const PhiloxWords w = philox4x32_10(0, 0);
  EXPECT_EQ(w.w0, 0x6627e8d5U);
  EXPECT_EQ(w.w1, 0xe169c58dU);
  EXPECT_EQ(w.w2, 0xbc57ac4cU);
  EXPECT_EQ(w.w3, 0x9b00dbd8U);
}

Problem small(int threads) {
  Problem p;
  p.n = 1600;
  p.chunk = 400;
  p.seed = 7;
  p.threads = threads;
  return p;
}

TEST(SpeedCube, FusedMeanIsElevenWithinTheBound) {
  const Problem p = small(1);
  const Sums s = run_fused(p);
  EXPECT_EQ(s.all_count, p.n * p.n);
  EXPECT_EQ(s.selected_count, (p.n / 2) * (p.n / 2));
  const double mean = s.selected / static_cast<double>(s.selected_count) + 1.0;
  EXPECT_NEAR(mean, 11.0, mean_error_bound(p.n));
  EXPECT_NEAR(s.all / static_cast<double>(s.all_count), 10.0, 6.0 / static_cast<double>(p.n));
}

TEST(SpeedCube, SameAnswerForAnyThreadCountAndBothModes) {
  const Sums one = run_fused(small(1));
  const Sums three = run_fused(small(3));
  EXPECT_EQ(one.selected, three.selected);  // bit for bit: per-chunk sums are added in chunk order
  EXPECT_EQ(one.all, three.all);
  const Problem p = small(2);
  std::vector<double> array(static_cast<std::size_t>(p.n * p.n));
  MaterializedTimes times;
  const Sums held = run_materialized(p, array.data(), times);
  EXPECT_EQ(held.selected_count, one.selected_count);
  EXPECT_NEAR(held.selected, one.selected, 1e-6 * std::fabs(one.selected));
  EXPECT_NEAR(held.all, one.all, 1e-6 * std::fabs(one.all));
  EXPECT_GT(times.reduce_seconds, 0.0);
}

// What the cross-rank cube (mpi.SpeedCube) relies on: slabs computed apart, their chunks' sums put
// side by side in chunk order, give one host's answer bit for bit.
TEST(SpeedCube, SlabsAddedInChunkOrderGiveTheWholeAnswerBitForBit) {
  const Problem p = small(2);
  const Sums whole = run_fused(p);
  ASSERT_EQ(chunk_count(p), 16);
  for (const std::int64_t ranks : {1, 3, 5, 16}) {
    std::vector<Sums> chunks;
    for (std::int64_t r = 0; r < ranks; ++r) {
      const ChunkRange slab{16 * r / ranks, 16 * (r + 1) / ranks};
      const std::vector<Sums> mine = run_fused_chunks(small(1), slab);
      ASSERT_EQ(static_cast<std::int64_t>(mine.size()), slab.last - slab.first);
      chunks.insert(chunks.end(), mine.begin(), mine.end());
    }
    const Sums joined = add_in_chunk_order(chunks);
    EXPECT_EQ(joined.selected, whole.selected) << ranks << " ranks";
    EXPECT_EQ(joined.all, whole.all) << ranks << " ranks";
    EXPECT_EQ(joined.all_count, whole.all_count);
    EXPECT_EQ(joined.selected_count, whole.selected_count);
  }
  EXPECT_TRUE(run_fused_chunks(p, ChunkRange{5, 5}).empty()) << "a rank with no chunks";
}

TEST(SpeedCube, PointsDependOnTheirIndexOnly) {
  const Problem p = small(1);
  std::vector<double> row(static_cast<std::size_t>(p.n));
  generate_row_segment(p, 5, 0, p.n, row.data());
  std::vector<double> tail(8);
  generate_row_segment(p, 5, 40, 8, tail.data());
  for (std::size_t i = 0; i < 8; ++i) EXPECT_EQ(tail[i], row[40 + i]);
  // Moments of one long row: N(10, 1).
  const double mean = std::accumulate(row.begin(), row.end(), 0.0) / static_cast<double>(row.size());
  double var = 0;
  for (double x : row) var += (x - mean) * (x - mean);
  var /= static_cast<double>(row.size() - 1);
  EXPECT_NEAR(mean, 10.0, 0.15);
  EXPECT_NEAR(var, 1.0, 0.15);
}

TEST(SpeedCube, RejectsShapesItCannotChunk) {
  Problem p = small(1);
  p.chunk = 300;
  EXPECT_NE(validate(p), "");
  p.chunk = 404;
  EXPECT_NE(validate(p), "");
  EXPECT_EQ(validate(small(1)), "");
}

}  // namespace
}  // namespace perfzero::speedcube::speedcube_test
