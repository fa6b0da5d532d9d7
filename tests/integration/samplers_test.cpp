// Samplers on the real binary: their output reaches the reports under perfzero_cpp.samplers
// (load_test.cpp: a trial that shared the CPUs with a busy process is flagged).
#include <gtest/gtest.h>

#include <algorithm>

#include "../unit/temp_dir.hpp"
#include "perfzero_runner.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::testing::samplers_test {
namespace {

TEST(Samplers, EverySamplerReportsUnderItsNameAndProcessInfoStaysPerfZeros) {
  TempDir dir;
  const auto f = run_perfzero({"--benchmark_methods=sanity.Sanity.benchmark_noop", "--output_dir=run"}, dir.path());
  ASSERT_EQ(f.exit_code, 0) << f.err;
  const auto trial = dir.path() / "run" / "sanity.Sanity.benchmark_noop" / "trial_1";
  const auto r = read_json(trial / "perfzero_summary.json");
  const auto& samplers = r["perfzero_cpp"]["samplers"];
  EXPECT_TRUE(samplers.contains("process_tree")) << samplers.dump();
  EXPECT_TRUE(samplers.contains("host_load")) << samplers.dump();
  // A noop is too short for the host's tick-based load over its own window: it is judged by how
  // long it waited for a CPU, and by the host's load since the reading taken before the run's first
  // trial.
  const auto& load = samplers["host_load"];
  EXPECT_EQ(load["judged"], true) << load.dump();
  EXPECT_EQ(load["judged_by"], "recent host load and run queue") << load.dump();
  ASSERT_TRUE(load["run_queue_seconds"].is_number()) << load.dump();
  const bool waited =
      load["run_queue_seconds"].get<double>() > std::max(0.001, 0.1 * r["benchmark_result"]["wall_time"].get<double>());
  if (waited) {
    EXPECT_EQ(load["busy"], true) << load.dump();
  }
  EXPECT_EQ(r["perfzero_cpp"]["flags"].empty(), load["busy"] == false) << r["perfzero_cpp"]["flags"];
  EXPECT_TRUE(std::filesystem::exists(trial / "process_info.log"));
  // A noop may end before the monitor's first host-load sample: an empty series writes no file (its
  // summary is in the report), and a file that is written holds at least one sample.
  if (std::filesystem::exists(trial / "sampler_host_load.log")) {
    EXPECT_NE(slurp(trial / "sampler_host_load.log"), "");
  }
  EXPECT_FALSE(std::filesystem::exists(trial / "sampler_.log"));  // a sampler that did not start writes nothing
}

}  // namespace
}  // namespace perfzero::testing::samplers_test
