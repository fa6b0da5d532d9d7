// Verdicts under load, on the real binary: a trial that shared the CPUs is flagged (long trials by
// the host's load, short ones by their run-queue wait), disturbed trials never decide `compare`,
// and `ab`'s interleaved pairs stay honest under a load that comes and goes. These tests start CPU
// hogs, or need the machine to themselves, so they run serially (tests/CMakeLists.txt).
#include <filesystem>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>

#include <fmt/format.h>

#include "../unit/temp_dir.hpp"
#include "cpu_hogs.hpp"
#include "perfzero_runner.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::testing::load_test {
namespace {

TEST(UnderLoad, ALongTrialThatSharedTheCpuWithABusyProcessIsFlagged) {
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
  EXPECT_EQ(load["judged_by"], "host load") << load.dump();
  EXPECT_GT(load["other_busy_cpus"].get<double>(), 0.5) << load.dump();
  EXPECT_EQ(load["busy"], true) << load.dump();
  EXPECT_EQ(r["perfzero_cpp"]["flags"], nlohmann::json::array({"host_busy"}));
  // 800 ms hold several monitor ticks: the series is written, one JSON object per sample.
  const std::string series =
      slurp(dir.path() / "run" / "sanity.Sanity.benchmark_sleep_ms_800_" / "trial_1" / "sampler_host_load.log");
  EXPECT_GE(std::count(series.begin(), series.end(), '\n'), 3) << series;
  const auto summary = read_json(dir.path() / "run" / "summary.json");
  EXPECT_EQ(summary["methods"][0]["trials_flagged"], 1);
  EXPECT_EQ(summary["methods"][0]["trials_disturbed"], 1);
  EXPECT_EQ(summary["disturbed_trials"]["disturbed"], 1);
  EXPECT_NE(slurp(dir.path() / "run" / "summary.md").find("host_busy"), std::string::npos);
  // The run's last line counts it and says what to do.
  EXPECT_NE(f.out.find("1 of 1 trials disturbed (host busy 1)"), std::string::npos) << f.out;
  EXPECT_NE(f.out.find("perfzero ab"), std::string::npos) << f.out;
}

// The host-busy threshold is a flag and a suite key (issue 37: 0.25 CPUs could not be changed). The
// same neighbour as above that flags the trial by default leaves it unflagged under a threshold no
// 2-CPU neighbour reaches; the flag wins over the suite's key; a bad value is one clear error.
TEST(UnderLoad, TheHostBusyThresholdIsAFlagAndASuiteKey) {
  TempDir dir;
  Spinner neighbour;
  const auto suite = dir.write("sleep.yaml", R"(
host_busy_threshold: 4096
methods:
  - method: sanity.Sanity.benchmark_sleep
    params: {ms: 600}
)");
  const auto trial = [&](const std::string& run) {
    return read_json(dir.path() / run / "sanity.Sanity.benchmark_sleep_ms_600_" / "trial_1" / "perfzero_summary.json");
  };
  const auto by_key = run_perfzero({"--config=" + suite.string(), "--output_dir=key"}, dir.path());
  ASSERT_EQ(by_key.exit_code, 0) << by_key.err;
  const auto key_load = trial("key")["perfzero_cpp"]["samplers"]["host_load"];
  EXPECT_EQ(key_load["threshold_cpus"], 4096.0) << key_load.dump();
  EXPECT_GT(key_load["other_busy_cpus"].get<double>(), 0.5) << key_load.dump();
  EXPECT_EQ(key_load["busy"], false) << key_load.dump();
  const auto by_flag =
      run_perfzero({"--config=" + suite.string(), "--output_dir=flag", "--host_busy_threshold=0.5"}, dir.path());
  ASSERT_EQ(by_flag.exit_code, 0) << by_flag.err;
  const auto flag_load = trial("flag")["perfzero_cpp"]["samplers"]["host_load"];
  EXPECT_EQ(flag_load["threshold_cpus"], 0.5) << flag_load.dump();
  EXPECT_EQ(flag_load["busy"], true) << flag_load.dump();
  const auto bad_flag = run_perfzero({"--config=" + suite.string(), "--host_busy_threshold=0"}, dir.path());
  EXPECT_EQ(bad_flag.exit_code, 2);
  EXPECT_NE(bad_flag.err.find("--host_busy_threshold: expected a number of CPUs more than 0"), std::string::npos)
      << bad_flag.err;
  const auto bad_key = run_perfzero(
      {"--config=" +
       dir.write("bad.yaml", "host_busy_threshold: -1\nmethods: [sanity.Sanity.benchmark_noop]\n").string()},
      dir.path());
  EXPECT_EQ(bad_key.exit_code, 2);
  EXPECT_NE(bad_key.err.find("bad.yaml:1:"), std::string::npos) << bad_key.err;
  EXPECT_NE(bad_key.err.find("host_busy_threshold"), std::string::npos) << bad_key.err;
  const auto other = dir.write("other.yaml", "host_busy_threshold: 1\nmethods: [sanity.Sanity.benchmark_noop]\n");
  const auto two = run_perfzero({"--config=" + suite.string(), "--config=" + other.string()}, dir.path());
  EXPECT_EQ(two.exit_code, 2);
  EXPECT_NE(two.err.find("one run has one threshold"), std::string::npos) << two.err;
}

// ab takes the suites' host_busy_threshold too (it used --host_busy_threshold only): each side's trials
// are judged by the key, and the flag still wins.
TEST(UnderLoad, AbJudgesItsSidesByTheSuitesHostBusyThreshold) {
  TempDir dir;
  const auto suite = dir.write("sleep.yaml", R"(
host_busy_threshold: 4096
methods:
  - method: sanity.Sanity.benchmark_sleep
    params: {ms: 100}
)");
  const auto thresholds = [&](const std::string& out) {
    std::set<double> seen;
    for (const auto& e : std::filesystem::recursive_directory_iterator(dir.path() / out)) {
      if (e.path().filename() != "perfzero_summary.json") continue;
      const auto load = read_json(e.path())["perfzero_cpp"]["samplers"]["host_load"];
      if (load.contains("threshold_cpus")) seen.insert(load["threshold_cpus"].get<double>());
    }
    return seen;
  };
  for (const auto& [out, extra, expected] :
       {std::tuple{"key", "", 4096.0}, std::tuple{"flag", "--host_busy_threshold=0.5", 0.5}}) {
    std::vector<std::string> args = {"ab",
                                     "--config=" + suite.string(),
                                     "--param",
                                     "ms=100,100",
                                     "--max_trials=3",
                                     "--warmup_trials=0",
                                     std::string("--output_dir=") + out};
    if (*extra != '\0') args.emplace_back(extra);
    const auto f = run_perfzero(args, dir.path());
    ASSERT_NE(f.exit_code, 2) << f.err;
    EXPECT_EQ(thresholds(out), std::set<double>{expected}) << out << "\n" << f.err;
  }
}

// A command far shorter than the host-load sampler's period is judged by how long it waited for a
// CPU (its processes' run_delay, read by perfzero-launch before it reaps them) and by the host's load
// over the last 0.2 s or more (a neighbour on a hyperthread sibling slows it without a wait).
TEST(UnderLoad, AShortTrialOnABusyHostIsFlaggedByItsRunQueueWaitOrTheRecentLoad) {
  TempDir dir;
  const auto suite = dir.write("s.yaml", R"(
defaults: {trials: 30}
methods:
  - {name: spin, command: [/bin/sh, -c, "i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done"], output: none}
)");
  Hogs hogs;
  const auto f = run_perfzero({"--config=" + suite.string(), "--output_dir=run"}, dir.path());
  ASSERT_EQ(f.exit_code, 0) << f.err;
  int flagged = 0;
  int waited = 0;
  for (int t = 1; t <= 30; ++t) {
    const auto r = read_json(dir.path() / "run" / "spin" / fmt::format("trial_{}", t) / "perfzero_summary.json");
    const auto& load = r["perfzero_cpp"]["samplers"]["host_load"];
    ASSERT_TRUE(load["run_queue_seconds"].is_number()) << load.dump();
    const double wall = r["benchmark_result"]["wall_time"].get<double>();
    if (wall >= 0.2) continue;  // judged by the load during the trial itself
    EXPECT_NE(load["judged_by"].get<std::string>().find("run queue"), std::string::npos) << load.dump();
    // Whatever else says, a trial that waited for a CPU more than a tenth of its time is busy.
    if (load["run_queue_seconds"].get<double>() > std::max(0.001, 0.1 * wall)) {
      ++waited;
      EXPECT_EQ(load["busy"], true) << load.dump();
    }
    // Once the run is a fifth of a second old, the recent load covers a whole window with the spinners.
    if (t > 10) {
      EXPECT_EQ(load["busy"], true) << "trial " << t << ": " << load.dump();
    }
    if (load["busy"] == true) ++flagged;
  }
  EXPECT_GE(flagged, 20) << f.out;
  EXPECT_GE(waited, 1) << "a shell loop against a spinner on every CPU waited at least once";
}

// Issue 19's first finding: an A/A comparison on a busy VM said "slower +108 %". The same suite run
// twice, with a hog on every CPU during the second run only: no slower, no faster.
TEST(UnderLoad, AnAaComparisonWithTheHostBusyDuringOneRunIsNeverSlowerOrFaster) {
  TempDir dir;
  const auto suite = dir.write("s.yaml", fmt::format(R"(
defaults: {{trials: 15, warmup_trials: 1}}
methods:
  - {{name: true, command: [/bin/true], output: none}}
  - {{name: spin, command: [/bin/sh, -c, "i=0; while [ $i -lt 5000 ]; do i=$((i+1)); done"], output: none}}
  - {{name: sleep, command: ["{}/harness/perfzero-worker-core", sanity.Sanity.benchmark_sleep, '{{"ms": 30}}']}}
)",
                                                     kBinDir.string()));
  const auto quiet = run_perfzero({"--config=" + suite.string(), "--output_dir=a"}, dir.path());
  ASSERT_EQ(quiet.exit_code, 0) << quiet.err;
  Finished busy;
  {
    Hogs hogs;
    busy = run_perfzero({"--config=" + suite.string(), "--output_dir=b"}, dir.path());
  }
  ASSERT_EQ(busy.exit_code, 0) << busy.err;
  EXPECT_NE(busy.out.find("trials disturbed"), std::string::npos) << busy.out;
  const auto f =
      run_perfzero({"compare", (dir.path() / "a").string(), (dir.path() / "b").string(), "--format=json"}, dir.path());
  // Undecided, not passed (issue 37: an unreliable comparison exited 0, so a busy runner's gate was open).
  EXPECT_EQ(f.exit_code, 5) << f.out << f.err;
  EXPECT_NE(f.err.find("gate: undecided (exit 5)"), std::string::npos) << f.err;
  const auto doc = nlohmann::json::parse(f.out);
  int disturbed = 0;
  for (const auto& r : doc["results"]) {
    EXPECT_NE(r["verdict"], "slower") << r.dump();
    EXPECT_NE(r["verdict"], "faster") << r.dump();
    disturbed += r["candidate"]["disturbed"].get<int>();
    // The hogs ran from before the busy run's first trial: each trial is flagged, the first ones
    // too (the host-load sampler takes a reading 0.2 s before the run's first trial).
    EXPECT_EQ(r["candidate"]["disturbed"], 15) << r.dump();
  }
  // The hogs did disturb the candidate: the test saw what it is about.
  EXPECT_GT(disturbed, 0) << f.out;
  EXPECT_GT(doc["counts"]["unreliable"].get<int>() + doc["counts"]["too noisy"].get<int>() +
                doc["counts"]["same"].get<int>() + doc["counts"]["equivalent"].get<int>() +
                doc["counts"]["below threshold"].get<int>(),
            0);
  // --use_flagged judges them anyway, and the table says so.
  const auto kept =
      run_perfzero({"compare", (dir.path() / "a").string(), (dir.path() / "b").string(), "--use_flagged"}, dir.path());
  EXPECT_NE(kept.out.find("--use_flagged: disturbed trials"), std::string::npos) << kept.out;
}

// One line per metric: its verdict, the interval and the medians, and the session's design line.
std::string verdicts(const nlohmann::json& doc) {
  const auto field = [](const nlohmann::json& j, const char* key) {
    return j.is_object() && j.contains(key) ? j[key].dump() : std::string("-");
  };
  std::string out = field(doc, "design") + "\n";
  for (const auto& r : doc["results"]) {
    out += fmt::format("{} {} [{}, {}] medians {} -> {}, disturbed {} and {}\n", field(r, "metric"),
                       field(r, "verdict"), field(r, "ci_low"), field(r, "ci_high"), field(r["baseline"], "median"),
                       field(r["candidate"], "median"), field(r["baseline"], "disturbed"),
                       field(r["candidate"], "disturbed"));
  }
  return out;
}

std::string spin_command(int iterations) {
  return fmt::format("/bin/sh -c 'i=0; while [ $i -lt {} ]; do i=$((i+1)); done'", iterations);
}

// `ab` A/A with hogs switched on and off at random: the pairs share the conditions, so the load
// never decides. A handful of sessions here; the false-alarm rate over 200 is a benchmark
// (benchmarks/harness_overhead/ab_false_alarms.py, docs/performance.md).
TEST(UnderLoad, AbAaSessionsWithAFlickeringLoadNeverSaySlowerOrFaster) {
  for (unsigned session = 1; session <= 4; ++session) {
    TempDir dir;
    FlickeringHogs load(session);
    // alpha 0.001: a correct design then fails this test about 0.4 % of the time (4 sessions); a load
    // that reached one side more than the other would show at any alpha.
    const auto f =
        run_perfzero({"ab", "--baseline", spin_command(4000), "--candidate", spin_command(4000), "--max_trials=40",
                      "--max_time=60s", "--alpha=0.001", "--format=json", "--output_dir=ab"},
                     dir.path());
    // Passed, or undecided when the budget ended it first (exit 5); never failed.
    ASSERT_TRUE(f.exit_code == 0 || f.exit_code == 5) << "session " << session << ": " << f.out << f.err;
    const auto doc = nlohmann::json::parse(f.out);
    for (const auto& r : doc["results"]) {
      if (!r["gated"].get<bool>()) continue;
      EXPECT_NE(r["verdict"], "slower") << "session " << session << ": " << r.dump();
      EXPECT_NE(r["verdict"], "faster") << "session " << session << ": " << r.dump();
    }
  }
}

// The planted change must stand well clear of the 5 % threshold: 10 % more loop was about 5-8 % of
// the wall time under this load (the shell's start is a fixed cost), and under ASan on CI a session
// ended `unknown` at 100 pairs with +4.9 % or with its interval reaching -0.9 %. 25 % more loop was
// +15 % here but, on CI's machine with 72 of 100 trials flagged busy, neither wall time nor task
// clock was `slower` after 100 pairs (2026-11-27). Twice the loop adds four times as much work,
// whatever the shell costs to start: +47 % on a quiet machine here.
TEST(UnderLoad, AbFindsAPlantedSlowdownWellAboveTheThresholdDespiteAFlickeringLoad) {
  TempDir dir;
  FlickeringHogs load(42);
  // alpha 0.01: the repeated confidence interval then misses the true change at most 1 % of the time.
  const auto f =
      run_perfzero({"ab", "--baseline", spin_command(4000), "--candidate", spin_command(8000), "--max_trials=100",
                    "--max_time=120s", "--alpha=0.01", "--format=json", "--output_dir=ab"},
                   dir.path());
  const auto doc = nlohmann::json::parse(f.out);
  // CI prints only part of a failing test's output: the verdicts first, without the trials' values.
  EXPECT_EQ(f.exit_code, 1) << verdicts(doc) << f.err;
  bool found = false;
  for (const auto& r : doc["results"]) {
    if (r["metric"] == "wall_time") {
      EXPECT_EQ(r["verdict"], "slower") << verdicts(doc);
      // The interval, not the estimate: a session that stops early does so because its estimate is
      // large (CI once stopped after 16 pairs at +17.9 % for a change near 8 %, interval +0.2 % to
      // +55 %). The true change is a little under 100 %, less the fixed cost of starting the shell.
      EXPECT_LE(r["ci_low"].get<double>(), 1.0) << verdicts(doc);
      EXPECT_GE(r["ci_high"].get<double>(), 0.10) << verdicts(doc);
      found = true;
    }
  }
  EXPECT_TRUE(found) << f.out;
}

// --benchmark_num_trials=auto: a quiet method stops once the interval of its median is narrow enough;
// a noisy one runs to --max_trials; the summary says why each stopped. Its undisturbed trials are its
// measurements: beside other work (a CPU hog) they are flagged host_busy, and then the test holds the
// summary to what it must say instead (the noise judged on the undisturbed ones, the rule that stopped).
TEST(QuietMachine, AutoTrialsStopWhenTheNoiseIsLowOrALimitIsReached) {
  TempDir dir;
  const auto suite = dir.write("s.yaml", R"yaml(
methods:
  - {name: steady, command: [/bin/sleep, "0.1"], output: none}
  - {name: jumpy, command: [/bin/sh, -c, "sleep 0.0$((PERFZERO_TRIAL % 2 * 5 + 1))"], output: none}
)yaml");
  const auto f = run_perfzero({"--config=" + suite.string(), "--benchmark_num_trials=auto", "--max_trials=12",
                               "--max_noise=5", "--min_time=0.2s", "--output_dir=run", "--interleave"},
                              dir.path());
  ASSERT_EQ(f.exit_code, 0) << f.err;
  const auto summary = read_json(dir.path() / "run" / "summary.json");
  for (const auto& m : summary["methods"]) {
    const auto& a = m["trials_auto"];
    ASSERT_TRUE(a.is_object()) << m.dump();
    EXPECT_EQ(a["max_trials"], 12);
    EXPECT_EQ(a["metric"], "wall_time");
    if (m["name"] == "steady" && m["trials_disturbed"].get<int>() == 0) {
      EXPECT_LT(m["trials_run"].get<int>(), 12) << m.dump();
      EXPECT_GE(m["trials_run"].get<int>(), 6);
      EXPECT_NE(a["stopped"].get<std::string>().find("noise"), std::string::npos) << a.dump();
      EXPECT_LE(a["noise"].get<double>(), 0.05);
      EXPECT_NE(f.out.find("steady: enough trials: noise"), std::string::npos) << f.out;
    } else if (m["name"] == "steady") {
      // Not a quiet machine (a CPU hog beside the test): disturbed trials are not measurements, so
      // the noise is judged on the rest, and the summary says which rule stopped it.
      EXPECT_EQ(a["trials_measured"].get<int>(), m["trials_run"].get<int>() - m["trials_disturbed"].get<int>())
          << m.dump();
      const std::string stopped = a["stopped"].get<std::string>();
      if (m["trials_run"].get<int>() < 12) {
        EXPECT_NE(stopped.find("noise"), std::string::npos) << a.dump();
        EXPECT_LE(a["noise"].get<double>(), 0.05) << a.dump();
      } else {
        EXPECT_NE(stopped.find("max_trials 12 reached"), std::string::npos) << a.dump();
      }
    } else {
      EXPECT_EQ(m["trials_run"], 12) << m.dump();
      EXPECT_NE(a["stopped"].get<std::string>().find("max_trials 12 reached"), std::string::npos) << a.dump();
    }
  }
  // The plan in run.json carries the settings, so a reader (and --resume) knows the case was auto.
  const auto run = read_json(dir.path() / "run" / "run.json");
  EXPECT_EQ(run["plan"][0]["trials_auto"]["max_noise"], 0.05) << run["plan"].dump();
  const auto bad =
      run_perfzero({"--config=" + suite.string(), "--benchmark_num_trials=3", "--max_noise=5"}, dir.path());
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("go with --benchmark_num_trials=auto"), std::string::npos) << bad.err;
}

}  // namespace
}  // namespace perfzero::testing::load_test
