// run_program (common/program_output.hpp): the helper programs the Slurm executor asks.
#include "common/program_output.hpp"

#include <csignal>

#include <gtest/gtest.h>

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::program_output_test {
namespace {

using namespace std::chrono_literals;

TEST(RunProgram, OutputAndErrorAreKeptApartWithTheExitCode) {
  const auto r = files::run_program({"/bin/sh", "-c", "echo out; echo err >&2; exit 3"}, 10s);
  EXPECT_TRUE(r.started);
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_EQ(r.out, "out\n");
  EXPECT_EQ(r.err, "err\n");
  EXPECT_FALSE(r.ok());
  EXPECT_TRUE(files::run_program({"true"}, 10s).ok()) << "found on the PATH";
}

TEST(RunProgram, AProgramThatRunsOnIsKilledAtTheLimitAndOutputIsBounded) {
  const auto slow = files::run_program({"/bin/sleep", "30"}, 200ms);
  EXPECT_TRUE(slow.timed_out);
  EXPECT_EQ(slow.exit_code, -1);
  const auto big = files::run_program({"/bin/sh", "-c", "head -c 100000 /dev/zero"}, 10s, 1000);
  EXPECT_EQ(big.out.size(), 1000U);
  EXPECT_EQ(big.exit_code, 0) << "read to its end, not cut off";
}

TEST(RunProgram, AProgramThatClosesItsOutputAndRunsOnIsStillBoundedWithItsChildren) {
  const auto start = std::chrono::steady_clock::now();
  const auto r = files::run_program({"/bin/sh", "-c", "exec >/dev/null 2>&1; sleep 30 & sleep 30"}, 300ms);
  EXPECT_TRUE(r.timed_out);
  EXPECT_LT(std::chrono::steady_clock::now() - start, 10s);
  EXPECT_FALSE(r.ok());
}

TEST(RunProgram, AMissingProgramIsSaidAndBlockedSignalsAreNotInherited) {
  const auto missing = files::run_program({"/no/such/program"}, 1s);
  EXPECT_FALSE(missing.started);
  EXPECT_NE(missing.error.find("/no/such/program"), std::string::npos) << missing.error;
  // The harness blocks its stop signals; a helper must still be stoppable by them.
  sigset_t term;
  sigemptyset(&term);
  sigaddset(&term, SIGTERM);
  sigset_t before;
  pthread_sigmask(SIG_BLOCK, &term, &before);
  const auto r = files::run_program({"/bin/sh", "-c", "grep SigBlk /proc/self/status"}, 10s);
  pthread_sigmask(SIG_SETMASK, &before, nullptr);
  EXPECT_EQ(r.out, "SigBlk:\t0000000000000000\n");
}

}  // namespace
}  // namespace perfzero::program_output_test
