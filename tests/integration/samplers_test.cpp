// Samplers on the real binary: their output reaches the reports under perfzero_cpp.samplers, and
// a trial that shared the CPUs with a busy process is flagged.
#include <gtest/gtest.h>

#include <algorithm>

#include "../unit/temp_dir.hpp"
#include "perfzero_runner.hpp"

namespace perfzero::testing {
namespace {

// A process that keeps one CPU busy until destroyed: the noisy neighbour.
class Spinner {
 public:
  Spinner() {
    pid_ = ::fork();
    if (pid_ == 0) {
      ::execl("/bin/sh", "sh", "-c", "while :; do :; done", static_cast<char*>(nullptr));
      ::_exit(127);
    }
  }
  ~Spinner() {
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
  }
  Spinner(const Spinner&) = delete;
  Spinner& operator=(const Spinner&) = delete;

 private:
  pid_t pid_ = -1;
};

TEST(Samplers, EverySamplerReportsUnderItsNameAndProcessInfoStaysPerfZeros) {
  TempDir dir;
  const auto f = run_perfzero({"--benchmark_methods=sanity.Sanity.benchmark_noop", "--output_dir=run"}, dir.path());
  ASSERT_EQ(f.exit_code, 0) << f.err;
  const auto trial = dir.path() / "run" / "sanity.Sanity.benchmark_noop" / "trial_1";
  const auto r = read_json(trial / "perfzero_summary.json");
  const auto& samplers = r["perfzero_cpp"]["samplers"];
  EXPECT_TRUE(samplers.contains("process_tree")) << samplers.dump();
  EXPECT_TRUE(samplers.contains("host_load")) << samplers.dump();
  EXPECT_EQ(samplers["host_load"]["judged"], false) << "a noop is too short to judge";
  EXPECT_TRUE(r["perfzero_cpp"]["flags"].empty());
  EXPECT_TRUE(std::filesystem::exists(trial / "process_info.log"));
  // A noop may end before the monitor's first host-load sample: an empty series writes no file (its
  // summary is in the report), and a file that is written holds at least one sample.
  if (std::filesystem::exists(trial / "sampler_host_load.log")) {
    EXPECT_NE(slurp(trial / "sampler_host_load.log"), "");
  }
  EXPECT_FALSE(std::filesystem::exists(trial / "sampler_.log"));  // a sampler that did not start writes nothing
}

TEST(Samplers, ATrialThatSharedTheCpuWithABusyProcessIsFlagged) {
  TempDir dir;
  Spinner neighbour;
  const auto f = run_perfzero({"--config=" + dir.write("sleep.yaml", R"(
methods:
  - method: sanity.Sanity.benchmark_sleep
    params: {ms: 800}
)")
                                                 .string(),
                               "--output_dir=run"},
                              dir.path());
  ASSERT_EQ(f.exit_code, 0) << f.err;
  const auto r =
      read_json(dir.path() / "run" / "sanity.Sanity.benchmark_sleep_ms_800_" / "trial_1" / "perfzero_summary.json");
  const auto& load = r["perfzero_cpp"]["samplers"]["host_load"];
  EXPECT_EQ(load["judged"], true) << load.dump();
  EXPECT_GT(load["other_busy_cpus"].get<double>(), 0.5) << load.dump();
  EXPECT_EQ(load["busy"], true) << load.dump();
  EXPECT_EQ(r["perfzero_cpp"]["flags"], nlohmann::json::array({"host_busy"}));
  // 800 ms hold several monitor ticks: the series is written, one JSON object per sample.
  const std::string series =
      slurp(dir.path() / "run" / "sanity.Sanity.benchmark_sleep_ms_800_" / "trial_1" / "sampler_host_load.log");
  EXPECT_GE(std::count(series.begin(), series.end(), '\n'), 3) << series;
  const auto summary = read_json(dir.path() / "run" / "summary.json");
  EXPECT_EQ(summary["methods"][0]["trials_flagged"], 1);
  EXPECT_NE(slurp(dir.path() / "run" / "summary.md").find("host_busy"), std::string::npos);
}

}  // namespace
}  // namespace perfzero::testing
