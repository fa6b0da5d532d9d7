#include <gtest/gtest.h>

#include "stream/stream.hpp"

namespace perfzero::stream {
namespace {

TEST(Stream, ValidatesItsArraysAndReportsEveryKernel) {
  Settings s;
  s.n = 1 << 16;
  s.repetitions = 3;
  s.threads = 2;
  const Bandwidth bw = run_stream(s);
  EXPECT_EQ(bw.error, "");
  for (double v : {bw.copy, bw.scale, bw.add, bw.triad}) EXPECT_GT(v, 0.0);
}

}  // namespace
}  // namespace perfzero::stream
