#include <gtest/gtest.h>

#include "stream/stream.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::stream::stream_test {
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
}  // namespace perfzero::stream::stream_test
