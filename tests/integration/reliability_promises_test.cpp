// Promises of docs/reliability.md held on the real binaries: --resume ends what a killed run left
// running, a sync the disk refuses stops the run (exit 4), a kept trial's report that cannot be written
// again stops a resumed run, and the run ends with one syncfs, whose failure is exit 4 in one line. The
// disk's refusals come from an LD_PRELOAD shim (tests/fakes/failing_sync.c).
#include <gtest/gtest.h>

#include "../unit/temp_dir.hpp"
#include "perfzero_runner.hpp"
#include "promise_helpers.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::testing::reliability_promises_test {
namespace {

using namespace promises;  // NOLINT(google-build-using-namespace)

namespace fs = std::filesystem;
using std::chrono::seconds;

// docs/reliability.md, "No process outlives the harness": --resume SIGKILLs any process whose
// environment has PERFZERO_RUN_DIR= this run's directory. The leftover here is made as a real one is:
// the harness and its launcher both killed, so that nothing ended the method's tree.
TEST(ReliabilityPromises, ResumeEndsWhatAKilledRunLeftRunningBeforeItRunsTheTrialAgain) {
  TempDir dir;
  const EndsWhatItStarted cleanup(dir.path());
  const fs::path out = dir.path() / "run";
  // First time: note its pid and sleep as a leftover would. Run again by --resume: say what the
  // leftover was at that moment ('R' while a SIGKILL already sent is carried out, for at most 2 s).
  const auto suite = dir.write("s.yaml", R"(
methods:
  - name: holder
    output: none
    command:
      - /bin/sh
      - -c
      - |
        pidfile="$PERFZERO_RUN_DIR/leftover.pid"
        if [ -e "$pidfile" ]; then
          pid=$(cat "$pidfile")
          state=gone
          i=0
          while [ -r /proc/$pid/stat ]; do
            state=$(sed 's/.*) \(.\).*/\1/' /proc/$pid/stat)
            if [ "$state" != R ] || [ $i -ge 200 ]; then break; fi
            i=$((i + 1))
            sleep 0.01
          done
          echo "$state" > "$PERFZERO_RUN_DIR/leftover_at_rerun"
          exit 0
        fi
        echo $$ > "$pidfile.tmp" && mv "$pidfile.tmp" "$pidfile"
        exec sleep 600
)");
  RunningPerfzero first({"--config=" + suite.string(), "--output_dir=" + out.string()}, dir.path() / "first");
  const ReapsPerfzero reaps(first.pid());
  const fs::path pidfile = out / "leftover.pid";
  ASSERT_TRUE(wait_for([&] { return fs::exists(pidfile); }, seconds(60))) << slurp(dir.path() / "first" / "stderr");
  const pid_t leftover = std::stoi(slurp(pidfile));
  ASSERT_TRUE(wait_for([&] { return slurp("/proc/" + std::to_string(leftover) + "/comm") == "sleep\n"; }, seconds(30)));
  ASSERT_TRUE(wait_for([&] { return !children_named(first.pid(), "perfzero-launch").empty(); }, seconds(30)));
  const pid_t launcher = children_named(first.pid(), "perfzero-launch").front();
  first.signal(SIGSTOP);  // it must not see its launcher die and end the tree itself
  ::kill(launcher, SIGKILL);
  ASSERT_TRUE(wait_for([&] { return state_of(launcher) == 'Z'; }, seconds(30)));
  first.signal(SIGKILL);
  first.wait();
  ASSERT_EQ(state_of(leftover), 'S') << "the leftover survived its harness and launcher";
  ASSERT_EQ(processes_started_under(out), std::vector<pid_t>{leftover});

  const auto resumed =
      run_perfzero({"--config=" + suite.string(), "--output_dir=" + out.string(), "--resume"}, dir.path() / "second");
  ASSERT_EQ(resumed.exit_code, 0) << resumed.err;
  EXPECT_EQ(lines_with(resumed.err, "ended 1 process(es) the earlier run left running").size(), 1U) << resumed.err;
  const std::string at_rerun = slurp(out / "leftover_at_rerun");
  EXPECT_TRUE(at_rerun == "gone\n" || at_rerun == "Z\n" || at_rerun == "X\n")
      << "when the trial ran again, the leftover was: " << at_rerun;
  EXPECT_TRUE(gone(leftover));
  EXPECT_TRUE(processes_started_under(out).empty());
  EXPECT_EQ(read_json(out / "run.json")["status"], "completed");
}

// docs/reliability.md, "Nothing finished is lost": the journal line is synced (fdatasync) behind, while
// the next trial runs; a sync that fails stops the run at the next trial with "cannot write FILE to
// disk: REASON" and exit 4, and --resume continues it.
TEST(ReliabilityPromises, AJournalSyncTheDiskRefusesStopsTheRunAtTheNextTrialWithExit4) {
  TempDir dir;
  const EndsWhatItStarted cleanup(dir.path());
  const fs::path out = dir.path() / "run";
  const fs::path log = dir.path() / "syncs.log";
  // Trial 2 ends once the shim has refused trial 1's sync: the run meets the failure at trial 2's end
  // (the shim's log is set for the first run only).
  const auto suite = dir.write("s.yaml", R"(
methods:
  - name: step
    output: none
    trials: 3
    command:
      - /bin/sh
      - -c
      - |
        touch "$PERFZERO_RUN_DIR/ran_$PERFZERO_TRIAL"
        if [ "$PERFZERO_TRIAL" = 2 ] && [ -n "$PERFZERO_SYNC_LOG" ]; then
          i=0
          until grep -q failed "$PERFZERO_SYNC_LOG" 2>/dev/null || [ $i -ge 3000 ]; do
            i=$((i + 1))
            sleep 0.01
          done
        fi
)");
  Finished f;
  {
    const ScopedEnv env(failing_sync(log, {{"PERFZERO_FAIL_SYNC_OF", "/journal.ndjson"}}));
    RunningPerfzero p({"--config=" + suite.string(), "--output_dir=" + out.string()}, dir.path() / "first");
    f = p.wait();
  }
  const std::string journal = (fs::canonical(out) / "journal.ndjson").string();
  const std::string why = "cannot write " + journal + " to disk: Input/output error";
  EXPECT_EQ(f.exit_code, 4) << f.err;
  EXPECT_EQ(lines_of(f.err), 1U) << f.err;
  EXPECT_NE(f.err.find("perfzero: error: run stopped: " + why), std::string::npos) << f.err;
  EXPECT_GE(lines_with(slurp(log), "fdatasync " + journal + " failed").size(), 1U) << slurp(log);
  EXPECT_TRUE(fs::exists(out / "ran_2"));
  EXPECT_FALSE(fs::exists(out / "ran_3")) << "the run went on past the failed sync";
  EXPECT_EQ(journal_events(out, "trial").size(), 1U) << "trial 2 is not recorded";
  EXPECT_EQ(read_json(out / "run.json")["status"], "aborted: " + why);

  const auto again =
      run_perfzero({"--config=" + suite.string(), "--output_dir=" + out.string(), "--resume"}, dir.path() / "second");
  EXPECT_EQ(again.exit_code, 0) << again.err;
  EXPECT_TRUE(fs::exists(out / "ran_3"));
  EXPECT_EQ(journal_events(out, "trial").size(), 3U);
  EXPECT_EQ(read_json(out / "run.json")["status"], "completed");
  EXPECT_TRUE(processes_started_under(out).empty());
}

// docs/reliability.md, "Nothing finished is lost": --resume writes again a kept trial's report that is
// missing or not whole; one that cannot be written stops the run with exit 4 (results/recorder.cpp,
// Recorder::adopt). Root ignores permissions, so a directory takes the report's place.
TEST(ReliabilityPromises, AKeptTrialsReportThatCannotBeWrittenAgainStopsTheResumedRunWithExit4) {
  TempDir dir;
  const EndsWhatItStarted cleanup(dir.path());
  const fs::path out = dir.path() / "run";
  const std::string method = R"(
methods:
  - name: step
    output: none
    command: [/bin/sh, -c, 'touch "$PERFZERO_RUN_DIR/ran_$PERFZERO_TRIAL"']
)";
  const auto two = dir.write("two.yaml", method + "    trials: 2\n");
  const auto three = dir.write("three.yaml", method + "    trials: 3\n");
  ASSERT_EQ(run_perfzero({"--config=" + two.string(), "--output_dir=" + out.string()}, dir.path() / "first").exit_code,
            0);
  const fs::path report = out / "step" / "trial_1" / "perfzero_summary.json";
  ASSERT_TRUE(fs::exists(report));
  fs::remove(report);
  fs::create_directories(report / "in_the_way");

  const auto f =
      run_perfzero({"--config=" + three.string(), "--output_dir=" + out.string(), "--resume"}, dir.path() / "second");
  EXPECT_EQ(f.exit_code, 4) << f.err;
  EXPECT_EQ(lines_of(f.err), 1U) << f.err;
  EXPECT_NE(f.err.find("perfzero: error: run stopped: cannot rename into " +
                       (fs::canonical(out) / "step" / "trial_1" / "perfzero_summary.json").string()),
            std::string::npos)
      << f.err;
  EXPECT_FALSE(fs::exists(out / "ran_3")) << "the run went on past a report it could not write";
  EXPECT_TRUE(fs::is_directory(report / "in_the_way")) << "what was in the way is left as it is";
  EXPECT_EQ(read_json(out / "run.json")["status"].get<std::string>().rfind("aborted: cannot rename into ", 0), 0U);

  // Once the way is clear, --resume writes the report again and runs the rest.
  fs::remove_all(report);
  const auto again =
      run_perfzero({"--config=" + three.string(), "--output_dir=" + out.string(), "--resume"}, dir.path() / "third");
  EXPECT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(read_json(report)["benchmark_result"]["trial_id"], 1);
  EXPECT_TRUE(fs::exists(out / "ran_3"));
  EXPECT_TRUE(processes_started_under(out).empty());
}

// docs/reliability.md, "Nothing finished is lost": the run's end waits for every queued sync, then
// syncs the output directory's file system once (syncfs); a syncfs that fails is exit 4 in one line.
TEST(ReliabilityPromises, TheRunEndsWithOneSyncfsAfterEveryOtherSyncAndExits4InOneLineWhenItFails) {
  TempDir dir;
  const EndsWhatItStarted cleanup(dir.path());
  const auto suite = dir.write("s.yaml", "methods: [{name: step, command: [/bin/true], output: none, trials: 3}]\n");
  const fs::path out = dir.path() / "run";
  const fs::path log = dir.path() / "syncs.log";
  Finished f;
  {
    const ScopedEnv env(failing_sync(log));
    f = run_perfzero({"--config=" + suite.string(), "--output_dir=" + out.string()}, dir.path() / "first");
  }
  ASSERT_EQ(f.exit_code, 0) << f.err;
  const std::string syncs = slurp(log);
  const std::string run_dir = fs::canonical(out).string();
  EXPECT_EQ(lines_with(syncs, "syncfs ").size(), 1U) << syncs;
  EXPECT_EQ(lines_with(syncs, "syncfs " + run_dir + " ok").size(), 1U) << syncs;
  EXPECT_GE(lines_with(syncs, "fdatasync " + run_dir + "/journal.ndjson ok").size(), 1U) << syncs;
  EXPECT_EQ(syncs.rfind("syncfs "), syncs.rfind('\n', syncs.size() - 2) + 1) << "syncfs is the last sync:\n" << syncs;

  const fs::path failing = dir.path() / "failing";
  Finished g;
  {
    const ScopedEnv env(failing_sync(dir.path() / "failing.log", {{"PERFZERO_FAIL_SYNCFS", "1"}}));
    g = run_perfzero({"--config=" + suite.string(), "--output_dir=" + failing.string()}, dir.path() / "second");
  }
  const std::string failing_dir = fs::canonical(failing).string();
  EXPECT_EQ(g.exit_code, 4) << g.err;
  // Every trial ran and is recorded: the run stays completed (nothing for --resume to do), and the one
  // line says what may not be on disk.
  EXPECT_EQ(g.err, "perfzero: error: the run completed, but cannot write the files of " + failing_dir +
                       " to disk: Input/output error; its files may not all be on disk (results in " + failing_dir +
                       ")\n");
  EXPECT_EQ(read_json(failing / "run.json")["status"], "completed");
  EXPECT_EQ(lines_with(slurp(dir.path() / "failing.log"), "syncfs " + failing_dir + " failed").size(), 1U);
  EXPECT_TRUE(processes_started_under(dir.path()).empty());
}

}  // namespace
}  // namespace perfzero::testing::reliability_promises_test
