// The process-tree sampler on real processes: a shell that starts a child, sampled on the
// sample clock, as the runner uses it.
#include "samplers/process_tree_sampler.hpp"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>
#include <csignal>

#include <chrono>
#include <thread>

#include "samplers/sample_clock.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::samplers::process_tree_sampler_test {
namespace {

TEST(ProcessTreeSampler, SeesEveryProcessBelowTheRootAndItsMemory) {
  const pid_t root = ::fork();
  if (root == 0) {
    ::execl("/bin/sh", "sh", "-c", "sleep 0.6 & sleep 0.6; wait", static_cast<char*>(nullptr));
    ::_exit(127);
  }
  ProcessTreeSampler sampler;
  // This test process stands for perfzero-launch: the shell and what it starts are its tree.
  sampler.start(::getpid());
  {
    SampleClock sample_clock;
    sample_clock.begin(std::chrono::milliseconds(10), {&sampler});
    std::this_thread::sleep_for(std::chrono::milliseconds(400));
    // The clock thread's own CPU: reading a few processes' /proc files 40 times costs milliseconds,
    // so a clock that spun, or a figure of the wrong clock or unit, would be far above this.
    const double cpu = sample_clock.end();
    EXPECT_GT(cpu, 0.0);
    EXPECT_LT(cpu, 0.2);
  }
  ::waitpid(root, nullptr, 0);
  const TreeResult& r = sampler.result();
  // About 40 at 10 ms, but a loaded machine may run the monitor late. What is under test is that the
  // samples see the tree (below) and are kept, one row each: more than one, not a rate.
  EXPECT_GE(r.samples.size(), 2U);
  EXPECT_GE(r.max_processes, 3) << "sh and both sleeps below the root";
  EXPECT_GT(r.max_rss_tree, 0U);
  const auto out = sampler.finish(TrialFacts{});
  EXPECT_EQ(out.summary["samples"], r.samples.size());
  EXPECT_EQ(out.series.columns.front(), "time");
  EXPECT_EQ(out.series.rows.size(), r.samples.size());
}

// The runner hands every trial's sampler the launcher's kept /proc files: the sampler reads the
// root through them, leaves them open when it goes, and the next trial's sampler sees its own tree.
TEST(ProcessTreeSampler, ReadsTheRootThroughFilesKeptBetweenTrials) {
  procfs::ProcFileCache kept;
  for (int trial = 0; trial < 2; ++trial) {
    const pid_t child = ::fork();
    if (child == 0) {
      ::execl("/bin/sleep", "sleep", "0.3", static_cast<char*>(nullptr));
      ::_exit(127);
    }
    {
      ProcessTreeSampler sampler(kept);
      sampler.start(::getpid());
      sampler.sample(0.0);
      ::kill(child, SIGKILL);
      ::waitpid(child, nullptr, 0);
      EXPECT_EQ(sampler.result().max_processes, 1) << "trial " << trial << ": the child below the root";
      EXPECT_EQ(sampler.result().samples.size(), 1U);
    }
    EXPECT_EQ(kept.open_files(), 2U) << "the root's stat and children files, still open after the trial";
  }
}

}  // namespace
}  // namespace perfzero::samplers::process_tree_sampler_test
