// The process-tree sampler on real processes: a shell that starts a child, sampled on the
// monitor's clock, as the runner uses it.
#include "samplers/process_tree_sampler.hpp"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "samplers/monitor.hpp"

namespace perfzero::samplers {
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
    Monitor monitor;
    monitor.begin(std::chrono::milliseconds(10), {&sampler});
    std::this_thread::sleep_for(std::chrono::milliseconds(400));
    const double cpu = monitor.end();
    EXPECT_GE(cpu, 0.0);
  }
  ::waitpid(root, nullptr, 0);
  const TreeResult& r = sampler.result();
  EXPECT_GE(r.samples.size(), 10U);
  EXPECT_GE(r.max_processes, 3) << "sh and both sleeps below the root";
  EXPECT_GT(r.max_rss_tree, 0U);
  const auto out = sampler.finish(TrialFacts{});
  EXPECT_EQ(out.summary["samples"], r.samples.size());
  EXPECT_EQ(out.series.columns.front(), "time");
  EXPECT_EQ(out.series.rows.size(), r.samples.size());
}

}  // namespace
}  // namespace perfzero::samplers
