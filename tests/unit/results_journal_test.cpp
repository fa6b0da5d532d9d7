// The journal and the reader: what a run writes is what comes back, including the runs of the
// previous version and a journal whose last line was torn by a kill.
#include <gtest/gtest.h>

#include <fstream>

#include "common/files.hpp"
#include "results/journal.hpp"
#include "results/model_json.hpp"
#include "results/reader.hpp"
#include "results/run_manifest.hpp"
#include "temp_dir.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::results::results_journal_test {
namespace {

using perfzero::testing::TempDir;

Run planned_run(const std::filesystem::path& dir) {
  results::Run run;
  run.info.execution_id = "exec-1";
  run.info.output_dir = dir.string();
  run.info.system_info = {{"cpu_model", "Test CPU"}};
  Case a;
  a.name = "fam.A.m";
  a.method = "fam.A.m";
  a.trials_planned = 2;
  a.dir = "fam.A.m";
  Case b = a;
  b.name = b.method = b.dir = "fam.B.m";
  run.cases = {a, b};
  run.comparisons.push_back({"c", "fam.A.m", "x", "fam.B.m", "x", std::nullopt});
  return run;
}

Trial finished(int n, Outcome outcome, double value) {
  Trial t;
  t.number = n;
  t.outcome = outcome;
  t.wall_time = 0.5 * n;
  t.metrics.push_back({"x", value, "items/s", 1.0, std::nullopt, Direction::higher_is_better});
  t.samplers = {{"host_load", {{"busy", false}}}};
  t.flags = {"host_busy"};
  t.repetitions = nlohmann::json::array({{{"name", "r"}, {"values", {1, 2}}}});
  return t;
}

TEST(Journal, WhatIsWrittenIsReadBackWithThePlanOrder) {
  TempDir dir;
  results::Run run = planned_run(dir.path());
  write_manifest(dir.path(), run);
  {
    JournalWriter journal(dir.path());
    journal.run_started(false);
    journal.trial_finished(run.cases[1], finished(1, Outcome::succeeded, 7));
    journal.trial_finished(run.cases[0], finished(1, Outcome::succeeded, 3));
    journal.trial_finished(run.cases[0], finished(2, Outcome::crashed, 4));
    journal.run_finished("completed");
  }
  const LoadedRun loaded = read_run(dir.path());
  EXPECT_EQ(loaded.format, "journal");
  EXPECT_TRUE(loaded.warnings.empty());
  const results::Run& back = loaded.run;
  EXPECT_EQ(back.status, "completed");
  EXPECT_EQ(back.info.execution_id, "exec-1");
  EXPECT_EQ(back.info.system_info["cpu_model"], "Test CPU");
  ASSERT_EQ(back.cases.size(), 2U);
  EXPECT_EQ(back.cases[0].name, "fam.A.m") << "the plan's order, not the journal's";
  ASSERT_EQ(back.cases[0].trials.size(), 2U);
  const Trial& t = back.cases[0].trials[0];
  EXPECT_EQ(t.metrics[0].unit, "items/s");
  EXPECT_EQ(*t.metrics[0].min_value, 1.0);
  EXPECT_EQ(t.metrics[0].direction, Direction::higher_is_better);
  EXPECT_EQ(t.flags, std::vector<std::string>{"host_busy"});
  EXPECT_EQ(t.samplers["host_load"]["busy"], false);
  EXPECT_EQ(t.repetitions[0]["values"][1], 2);
  EXPECT_EQ(back.cases[0].trials[1].outcome, Outcome::crashed);
  EXPECT_EQ(back.comparisons.size(), 1U);
}

TEST(Journal, AKilledRunKeepsEveryFinishedTrialAndSkipsATornLastLine) {
  TempDir dir;
  results::Run run = planned_run(dir.path());
  write_manifest(dir.path(), run);
  {
    JournalWriter journal(dir.path());
    journal.run_started(false);
    journal.trial_finished(run.cases[0], finished(1, Outcome::succeeded, 3));
  }
  std::ofstream(dir.path() / kJournalFile, std::ios::app) << R"({"event": "trial", "case": "fam.A.m", "tri)";
  const LoadedRun loaded = read_run(dir.path());
  EXPECT_EQ(loaded.run.status, "running");
  EXPECT_EQ(loaded.run.cases[0].trials.size(), 1U);
  ASSERT_EQ(loaded.warnings.size(), 1U);
  EXPECT_NE(loaded.warnings[0].find("torn"), std::string::npos);
}

TEST(Journal, ALineThatIsNotTheHarnessesIsIgnoredWithAWarningNamingIt) {
  TempDir dir;
  write_manifest(dir.path(), planned_run(dir.path()));
  std::ofstream(dir.path() / kJournalFile) << "{\"event\": \"run_started\"}\nnot json\n{\"event\": \"run_started\"}\n";
  const LoadedRun loaded = read_run(dir.path());
  ASSERT_EQ(loaded.warnings.size(), 1U);
  EXPECT_NE(loaded.warnings[0].find("journal.ndjson:2: not a line perfzero wrote, ignored: not JSON"),
            std::string::npos)
      << loaded.warnings[0];
}

// Issue 20: a method appended to $PERFZERO_RUN_DIR/journal.ndjson while its trial ran, and the finished
// run could no longer be read by compare, report or history ingest. Issue 36: the harness's journal is
// the only source of trials: what others append is cut off before the harness's next line.
TEST(Journal, WhatAMethodAppendsIsCutOffBeforeTheHarnessWritesAgain) {
  TempDir dir;
  results::Run run = planned_run(dir.path());
  write_manifest(dir.path(), run);
  const auto journal_path = dir.path() / kJournalFile;
  long long cut = 0;
  {
    JournalWriter journal(dir.path());
    journal.run_started(false);                                                // seq 1
    journal.trial_finished(run.cases[0], finished(1, Outcome::succeeded, 3));  // seq 2 (case), 3
    // While trial 2 runs, its method appends junk, a line without seq, and a forged trial 1 of the
    // other case claiming the seq the harness's next line will have.
    std::ofstream(journal_path, std::ios::app)
        << "hello\n{\"event\":\"trial\",\"case\":\"fam.A.m\",\"trial\":{}}\n"
        << R"({"event":"trial","case":"fam.A.m","seq":4,"trial":{"trial":1,"outcome":"succeeded","wall_time":9,"metrics":[{"name":"x","value":999}]}})"
        << "\n";
    journal.trial_finished(run.cases[0], finished(2, Outcome::succeeded, 4));  // seq 4
    journal.run_finished("completed");
    cut = journal.foreign_bytes_cut();
  }
  EXPECT_GT(cut, 100);
  std::ifstream in(journal_path);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text.find("hello"), std::string::npos) << text;
  EXPECT_EQ(text.find("999"), std::string::npos) << text;
  const LoadedRun loaded = read_run(journal_path.parent_path());
  EXPECT_EQ(loaded.run.status, "completed");
  ASSERT_EQ(loaded.run.cases[0].trials.size(), 2U);
  EXPECT_EQ(loaded.run.cases[0].trials[0].metrics[0].value, 3.0) << "trial 1 as the harness recorded it";
  EXPECT_EQ(loaded.run.cases[0].trials[1].metrics[0].value, 4.0);
  EXPECT_TRUE(loaded.warnings.empty()) << loaded.warnings[0];
}

// The writer knows where each of its lines ends without asking the file again: after a method
// truncated the journal, and after a cut, the next foreign bytes are measured and cut exactly.
TEST(Journal, TheHarnesssLineEndsAreTrackedAcrossATruncationAndACut) {
  TempDir dir;
  results::Run run = planned_run(dir.path());
  write_manifest(dir.path(), run);
  const auto journal_path = dir.path() / kJournalFile;
  JournalWriter journal(dir.path());
  journal.run_started(false);
  const auto after_start = std::filesystem::file_size(journal_path);
  std::filesystem::resize_file(journal_path, after_start - 5);  // a method shortened it
  journal.trial_finished(run.cases[0], finished(1, Outcome::succeeded, 3));
  const auto after_trial = std::filesystem::file_size(journal_path);
  std::ofstream(journal_path, std::ios::app) << "12345678";
  journal.trial_finished(run.cases[0], finished(2, Outcome::succeeded, 4));
  EXPECT_EQ(journal.foreign_bytes_cut(), 8);
  const auto after_second = std::filesystem::file_size(journal_path);
  std::ofstream(journal_path, std::ios::app) << "123";
  journal.run_finished("completed");
  EXPECT_EQ(journal.foreign_bytes_cut(), 11) << "the end after the cut was where the second trial's line began";
  std::ifstream in(journal_path);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text.find("12345678"), std::string::npos);
  EXPECT_EQ(text.substr(after_trial, 1), "{") << "the second trial's line starts where the first ended";
  EXPECT_EQ(text.substr(after_second, 1), "{");
}

// After the harness's last line (a killed run, or a finished one appended to later) nothing cuts: the
// reader of a guarded journal takes only the harness's sequence, and counts the rest.
TEST(Journal, AGuardedReaderLeavesOutEveryLineOutOfTheHarnessesSequence) {
  TempDir dir;
  results::Run run = planned_run(dir.path());
  write_manifest(dir.path(), run);
  const auto journal_path = dir.path() / kJournalFile;
  {
    JournalWriter journal(dir.path());
    journal.run_started(false);                                                // seq 1
    journal.trial_finished(run.cases[0], finished(1, Outcome::succeeded, 3));  // seq 2, 3
    journal.run_finished("completed");                                         // seq 4
  }
  std::ofstream(journal_path, std::ios::app)
      << R"({"event":"trial","case":"fam.A.m","seq":999999,"trial":{"trial":1,"outcome":"succeeded","wall_time":9,"metrics":[{"name":"x","value":999}]}})"
      << "\n"
      << R"({"event":"trial","case":"fam.A.m","seq":3,"trial":{"trial":1,"outcome":"succeeded","wall_time":9,"metrics":[{"name":"x","value":998}]}})"
      << "\n";
  const LoadedRun loaded = read_run(journal_path.parent_path());
  ASSERT_EQ(loaded.run.cases[0].trials.size(), 1U);
  EXPECT_EQ(loaded.run.cases[0].trials[0].metrics[0].value, 3.0) << "the measured value, not a forged one";
  EXPECT_EQ(loaded.foreign_lines, 2);
  ASSERT_EQ(loaded.warnings.size(), 2U);
  EXPECT_NE(loaded.warnings[0].find(":5: not a line perfzero wrote, ignored: seq 999999 where the harness's next "
                                    "line is 5"),
            std::string::npos)
      << loaded.warnings[0];
  EXPECT_NE(loaded.warnings[1].find("seq 3 where"), std::string::npos) << loaded.warnings[1];
}

// A journal written before the guard (schema before 1.9.0) is read as it was: for each seq, the last
// line that claimed it.
TEST(Journal, AnUnguardedJournalKeepsTheLastLineOfEachSeq) {
  TempDir dir;
  results::Run run = planned_run(dir.path());
  write_manifest(dir.path(), run);
  const auto line = [](nlohmann::json event, int seq) {
    event["seq"] = seq;
    return event.dump() + "\n";
  };
  std::ofstream(dir.path() / kJournalFile) << line({{"event", "run_started"}, {"resuming", false}}, 1)
                                           << line({{"event", "case"}, {"case", case_header_to_json(run.cases[0])}}, 2)
                                           << line({{"event", "trial"},
                                                    {"case", run.cases[0].name},
                                                    {"trial", trial_to_json(finished(1, Outcome::succeeded, 999))}},
                                                   3)
                                           << line({{"event", "trial"},
                                                    {"case", run.cases[0].name},
                                                    {"trial", trial_to_json(finished(1, Outcome::succeeded, 3))}},
                                                   3);
  const LoadedRun loaded = read_run(dir.path());
  ASSERT_EQ(loaded.warnings.size(), 1U);
  EXPECT_NE(loaded.warnings[0].find("seq 3 is claimed again by line 4, which stands"), std::string::npos)
      << loaded.warnings[0];
  EXPECT_EQ(loaded.foreign_lines, 0);
  ASSERT_EQ(loaded.run.cases[0].trials.size(), 1U);
  EXPECT_EQ(loaded.run.cases[0].trials[0].metrics[0].value, 3.0);
}

TEST(Journal, AResumedWriterNumbersOnAndALineOverTheLimitIsAnErrorNamingTheSetting) {
  TempDir dir;
  results::Run run = planned_run(dir.path());
  write_manifest(dir.path(), run);
  {
    JournalWriter journal(dir.path());
    journal.run_started(false);
    journal.trial_finished(run.cases[0], finished(1, Outcome::succeeded, 3));
  }
  {
    JournalWriter resumed(dir.path());
    resumed.run_started(true);
  }
  EXPECT_EQ(read_journal(dir.path() / kJournalFile).last_seq, 4);
  std::ofstream(dir.path() / kJournalFile, std::ios::app) << std::string(2048, 'x') << "\n";
  ::setenv("PERFZERO_MAX_JOURNAL_LINE_BYTES", "1024", 1);
  try {
    read_journal(dir.path() / kJournalFile);
    ::unsetenv("PERFZERO_MAX_JOURNAL_LINE_BYTES");
    FAIL() << "a line over the limit was read";
  } catch (const std::runtime_error& e) {
    ::unsetenv("PERFZERO_MAX_JOURNAL_LINE_BYTES");
    EXPECT_NE(std::string(e.what()).find("journal.ndjson:5: a line of over 1024 bytes"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("PERFZERO_MAX_JOURNAL_LINE_BYTES"), std::string::npos) << e.what();
  }
}

TEST(Journal, ATrialRunAgainReplacesItsEarlierRecord) {
  TempDir dir;
  results::Run run = planned_run(dir.path());
  write_manifest(dir.path(), run);
  {
    JournalWriter journal(dir.path());
    journal.trial_finished(run.cases[0], finished(1, Outcome::interrupted, 1));
    journal.trial_finished(run.cases[0], finished(1, Outcome::succeeded, 2));
  }
  const auto back = read_run(dir.path()).run;
  ASSERT_EQ(back.cases[0].trials.size(), 1U);
  EXPECT_EQ(back.cases[0].trials[0].outcome, Outcome::succeeded);
}

TEST(Reader, RefusesAnotherMajorSchemaVersion) {
  TempDir dir;
  results::Run run = planned_run(dir.path());
  run.info.schema_version = "2.0.0";
  write_manifest(dir.path(), run);
  try {
    read_run(dir.path());
    FAIL() << "expected a ReadError";
  } catch (const ReadError& e) {
    EXPECT_NE(std::string(e.what()).find("schema 2.0.0"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("reads schema 1.x"), std::string::npos) << e.what();
  }
}

// Issue 20: a run.json whose top-level schema_version is another major version, or that is not JSON
// at all with a summary.json beside it, was read silently.
TEST(Reader, EveryVersionARunJsonStatesIsCheckedAndOneThatIsNotJsonIsRefused) {
  TempDir dir;
  write_manifest(dir.path(), planned_run(dir.path()));
  auto doc = nlohmann::json::parse(*files::read_text(dir.path() / kRunManifest));
  doc["schema_version"] = "9.0.0";
  std::ofstream(dir.path() / kRunManifest, std::ios::trunc) << doc.dump();
  try {
    read_run(dir.path());
    FAIL() << "a top-level schema 9.0.0 was read";
  } catch (const ReadError& e) {
    EXPECT_NE(std::string(e.what()).find("schema 9.0.0"), std::string::npos) << e.what();
  }
  std::ofstream(dir.path() / kRunManifest, std::ios::trunc) << "{not json";
  std::ofstream(dir.path() / "summary.json") << "{}";
  try {
    read_run(dir.path());
    FAIL() << "a run.json that is not JSON was passed over for summary.json";
  } catch (const ReadError& e) {
    EXPECT_NE(std::string(e.what()).find("run.json: not a JSON object (not JSON)"), std::string::npos) << e.what();
  }
}

TEST(Reader, ARunWhoseJournalIsGoneIsReadFromItsReportsAndSaysSo) {
  TempDir dir;
  results::Run run = planned_run(dir.path());
  write_manifest(dir.path(), run);
  // Two trial reports, as the trial reporter writes them.
  for (int n = 1; n <= 2; ++n) {
    const auto trial_dir = dir.path() / "fam.A.m" / ("trial_" + std::to_string(n));
    std::filesystem::create_directories(trial_dir);
    nlohmann::json report = {
        {"schema_version", kSchemaVersion},
        {"execution_id", "exec-1"},
        {"execution_timestamp", 1.0},
        {"benchmark_result",
         {{"name", "fam.A.m"}, {"wall_time", 0.5 * n}, {"trial_id", n}, {"metrics", nlohmann::json::array()}}},
        {"perfzero_cpp", {{"outcome", "succeeded"}, {"method", "fam.A.m"}}}};
    std::ofstream(trial_dir / "perfzero_summary.json") << report.dump();
  }
  const LoadedRun loaded = read_run(dir.path());
  ASSERT_EQ(loaded.run.cases[0].trials.size(), 2U);
  EXPECT_EQ(loaded.run.cases[0].trials[1].number, 2);
  ASSERT_FALSE(loaded.warnings.empty());
  EXPECT_NE(loaded.warnings.back().find("the journal (journal.ndjson) is missing: 2 trial(s) read back"),
            std::string::npos)
      << loaded.warnings.back();
}

TEST(Reader, ReadsARunWrittenBySchema100) {
  const std::filesystem::path dir = std::filesystem::path(PERFZERO_FIXTURES_DIR) / "runs" / "v1.0.0";
  const LoadedRun loaded = read_run(dir);
  EXPECT_EQ(loaded.format, "summary-1.0");
  EXPECT_TRUE(loaded.warnings.empty()) << loaded.warnings.front();
  const results::Run& run = loaded.run;
  EXPECT_EQ(run.info.execution_id, "v1-fixture");
  EXPECT_EQ(run.status, "completed");
  EXPECT_FALSE(run.info.system_info.value("cpu_model", "").empty());
  ASSERT_EQ(run.cases.size(), 4U);
  const Case* ext = run.find_case("ext.metric");
  ASSERT_NE(ext, nullptr);
  EXPECT_TRUE(ext->external);
  ASSERT_EQ(ext->trials.size(), 2U);
  EXPECT_EQ(ext->warmups.size(), 1U);
  ASSERT_EQ(ext->trials[1].metrics.size(), 1U);
  EXPECT_EQ(ext->trials[1].metrics[0].value, 42);
  EXPECT_EQ(ext->trials[1].metrics[0].unit, "items/s");
  EXPECT_GT(ext->trials[1].process.max_rss, 0U);
  const Case* failing = run.find_case("sanity.Sanity.benchmark_exit_code");
  ASSERT_NE(failing, nullptr);
  EXPECT_EQ(failing->trials[0].outcome, Outcome::failed);
  EXPECT_EQ(failing->trials[0].exit_code, 3);
}

TEST(Reader, ReadsASingleReportAndExplainsWhatIsNotARun) {
  const std::filesystem::path report = std::filesystem::path(PERFZERO_FIXTURES_DIR) / "runs" / "v1.0.0" /
                                       "sanity.Sanity.benchmark_sleep_ms_5_" / "trial_2" / "perfzero_summary.json";
  const LoadedRun loaded = read_run(report);
  EXPECT_EQ(loaded.format, "report");
  ASSERT_EQ(loaded.run.cases.size(), 1U);
  EXPECT_EQ(loaded.run.cases[0].name, "sanity.Sanity.benchmark_sleep[ms=5]");
  EXPECT_EQ(loaded.run.cases[0].trials[0].number, 2);

  TempDir dir;
  EXPECT_THROW(read_run(dir.path()), ReadError);
  EXPECT_THROW(read_run(dir.path() / "missing"), ReadError);
  const auto junk = dir.write("junk.json", "[1, 2]");
  EXPECT_THROW(read_run(junk), ReadError);
}

}  // namespace
}  // namespace perfzero::results::results_journal_test
