// The results record on the real binary: the journal survives a kill -9, --resume reads runs of
// this version and of schema 1.0.0, and --report chooses the outputs.
#include <gtest/gtest.h>

#include "../unit/temp_dir.hpp"
#include "perfzero_runner.hpp"

namespace perfzero::testing {
namespace {

std::vector<nlohmann::json> journal_trials(const std::filesystem::path& run) {
  std::vector<nlohmann::json> out;
  std::ifstream in(run / "journal.ndjson");
  std::string line;
  while (std::getline(in, line)) {
    const auto event = nlohmann::json::parse(line, nullptr, false);
    if (!event.is_discarded() && event["event"] == "trial") out.push_back(event);
  }
  return out;
}

bool wait_for(const std::function<bool()>& condition, std::chrono::seconds limit) {
  const auto end = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < end) {
    if (condition()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return false;
}

TEST(Journal, AKillNineLosesAtMostTheRunningTrialAndResumeKeepsTheRest) {
  TempDir dir;
  const auto out = dir.path() / "run";
  const auto suite = dir.write("kill.yaml", R"(
methods:
  - method: sanity.Sanity.benchmark_noop
    trials: 3
  - method: sanity.Sanity.benchmark_sleep
    params: {ms: 30000}
)");
  RunningPerfzero running({"--config=" + suite.string(), "--output_dir=" + out.string()}, dir.path());
  const auto sleep_dir = out / "sanity.Sanity.benchmark_sleep_ms_30000_" / "trial_1";
  ASSERT_TRUE(wait_for([&] { return !processes_started_under(sleep_dir).empty(); }, std::chrono::seconds(30)));
  running.signal(SIGKILL);
  running.wait();
  // perfzero-launch ends the method's tree when its harness dies (PR_SET_PDEATHSIG).
  EXPECT_TRUE(wait_for([&] { return processes_started_under(out).empty(); }, std::chrono::seconds(5)))
      << "a process of the killed run outlived its harness";

  const auto trials = journal_trials(out);
  ASSERT_EQ(trials.size(), 3U) << "every finished trial is in the journal";
  EXPECT_EQ(trials[2]["trial"]["outcome"], "succeeded");
  EXPECT_EQ(read_json(out / "run.json")["status"], "running");

  const auto again = run_perfzero({"--benchmark_methods=sanity.Sanity.benchmark_noop", "--benchmark_num_trials=3",
                                   "--output_dir=" + out.string(), "--resume", "--force_resume"},
                                  dir.path() / "second");
  EXPECT_EQ(again.exit_code, 0) << again.err;
  EXPECT_NE(again.out.find("trial 3/3  succeeded  (already reported"), std::string::npos) << again.out;
  EXPECT_EQ(read_json(out / "run.json")["status"], "completed");
}

TEST(Resume, ContinuesARunWrittenBySchema100) {
  TempDir dir;
  const auto out = dir.path() / "old";
  std::filesystem::copy(kSourceDir / "tests/fixtures/runs/v1.0.0", out, std::filesystem::copy_options::recursive);
  const auto f = run_perfzero({"--benchmark_methods=sanity.Sanity.benchmark_exit_code,sanity.Sanity.benchmark_noop",
                               "--output_dir=" + out.string(), "--resume"},
                              dir.path());
  EXPECT_EQ(f.exit_code, 1) << f.err;  // benchmark_exit_code failed in the old run and stays failed
  EXPECT_NE(f.out.find("sanity.Sanity.benchmark_exit_code trial 1/1  failed  (already reported"), std::string::npos)
      << f.out;
  EXPECT_NE(f.out.find("sanity.Sanity.benchmark_noop trial 1/1  succeeded"), std::string::npos) << f.out;
  const auto summary = read_json(out / "summary.json");
  EXPECT_EQ(summary["execution_id"], "v1-fixture");
  EXPECT_EQ(summary["schema_version"], "1.11.0");
  EXPECT_EQ(summary["methods"][0]["trials"][0]["resumed"], true);
  EXPECT_EQ(summary["methods"][0]["trials"][0]["exit_code"], 3);
}

TEST(Reports, TheReportFlagChoosesTheOutputs) {
  TempDir dir;
  const auto f = run_perfzero(
      {"--benchmark_methods=sanity.Sanity.benchmark_noop", "--output_dir=run", "--report=json,md"}, dir.path());
  ASSERT_EQ(f.exit_code, 0) << f.err;
  const auto run = dir.path() / "run";
  EXPECT_TRUE(std::filesystem::exists(run / "summary.json"));
  EXPECT_TRUE(std::filesystem::exists(run / "summary.md"));
  EXPECT_FALSE(std::filesystem::exists(run / "summary.csv"));
  EXPECT_FALSE(std::filesystem::exists(run / "sanity.Sanity.benchmark_noop" / "trial_1" / "perfzero_summary.json"));
  EXPECT_FALSE(std::filesystem::exists(run / "sanity.Sanity.benchmark_noop" / "trial_1" / "process_info.log"));
  EXPECT_TRUE(std::filesystem::exists(run / "journal.ndjson")) << "the journal is the record, not an output";
  EXPECT_TRUE(read_json(run / "summary.json")["methods"][0]["trials"][0]["report"].is_null());

  const auto bad = run_perfzero(
      {"--benchmark_methods=sanity.Sanity.benchmark_noop", "--output_dir=bad", "--report=json,mdd"}, dir.path());
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("unknown report 'mdd'"), std::string::npos) << bad.err;
  EXPECT_NE(bad.err.find("did you mean 'md'"), std::string::npos) << bad.err;
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "bad" / "run.json")) << "nothing is written for a usage error";
}

}  // namespace
}  // namespace perfzero::testing

namespace perfzero::testing {
namespace {

TEST(Reports, TheCpuPeakAMethodMeasuredJoinsTheRunsSystemInfo) {
  TempDir dir;
  const auto suite = dir.write("peak.yaml", R"(
methods:
  - method: onednn.Matmul.benchmark_matmul_fp32
    params: {m: 256, n: 256, k: 256}
  - sanity.Sanity.benchmark_noop
)");
  const auto f = run_perfzero({"--config=" + suite.string(), "--output_dir=run"}, dir.path());
  ASSERT_EQ(f.exit_code, 0) << f.err;
  const auto run = dir.path() / "run";
  ASSERT_TRUE(std::filesystem::exists(run / "run_facts" / "cpu_peak.json"))
      << "the matmul measured the peak once for the run";
  const auto manifest = read_json(run / "run.json");
  EXPECT_GT(manifest["run"]["system"]["cpu_peak"]["threads"].get<int>(), 0) << manifest["run"]["system"].dump();
  const auto later = read_json(run / "sanity.Sanity.benchmark_noop" / "trial_1" / "perfzero_summary.json");
  EXPECT_TRUE(later["perfzero_cpp"]["system"].contains("cpu_peak"));
}

// Any method can leave a once-per-run fact about the machine; the next trials' reports and run.json
// carry it, and one that would replace what perfzero itself recorded is left out, with a word.
TEST(Reports, ARunFactAnyMethodLeavesJoinsTheSystemInfoButNeverReplacesIt) {
  TempDir dir;
  const auto suite = dir.write("facts.yaml", R"(
methods:
  - name: records
    output: none
    command: [/bin/sh, -c, 'mkdir -p "$PERFZERO_RUN_DIR/run_facts" && cd "$PERFZERO_RUN_DIR/run_facts" &&
              echo "{\"watts\": 350}" > site_power.json && echo "{\"x\": 1}" > cpu_vendor.json']
  - sanity.Sanity.benchmark_noop
)");
  const auto f = run_perfzero({"--config=" + suite.string(), "--output_dir=run"}, dir.path());
  ASSERT_EQ(f.exit_code, 0) << f.err;
  const auto manifest = read_json(dir.path() / "run" / "run.json");
  EXPECT_EQ(manifest["run"]["system"]["site_power"]["watts"], 350) << manifest["run"]["system"].dump();
  EXPECT_FALSE(manifest["run"]["system"]["cpu_vendor"].is_object()) << "perfzero's own cpu_vendor stays";
  const auto later =
      read_json(dir.path() / "run" / "sanity.Sanity.benchmark_noop" / "trial_1" / "perfzero_summary.json");
  EXPECT_EQ(later["perfzero_cpp"]["system"]["site_power"]["watts"], 350);
  EXPECT_NE((f.out + f.err).find("cpu_vendor.json left out: the system info already has 'cpu_vendor'"),
            std::string::npos)
      << f.out << f.err;
}

}  // namespace
}  // namespace perfzero::testing
