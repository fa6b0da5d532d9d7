// History v2 on the real binary and a real SQLite file (docs/history.md, docs/ci.md): what a run was
// made of (flags, CI's variables, the git checkout), `history changes` finding a planted step with
// its commit, its text, Markdown, JSON and JUnit (validated with xmllint), `run --history` saying the
// change point a new run makes (exit 1 with --fail_on_change), id prefixes, and prune.
#include <sys/stat.h>

#include <gtest/gtest.h>

#include <fmt/format.h>

#include <random>
#include <regex>

#include "../unit/own_full_device.hpp"
#include "../unit/scoped_env.hpp"
#include "../unit/temp_dir.hpp"
#include "perfzero_runner.hpp"
#include "planted_history.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::testing::history_changes_test {
namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// No CI variable of the machine running the tests reaches the runs these tests make.
ScopedEnv no_ci_variables() {
  return ScopedEnv{{"GITHUB_SHA", ""},      {"CI_COMMIT_SHA", ""},      {"BUILDKITE_COMMIT", ""},
                   {"CIRCLE_SHA1", ""},     {"GIT_COMMIT", ""},         {"GITHUB_HEAD_REF", ""},
                   {"GITHUB_REF_NAME", ""}, {"CI_COMMIT_REF_NAME", ""}, {"BUILDKITE_BRANCH", ""},
                   {"CIRCLE_BRANCH", ""},   {"GIT_BRANCH", ""}};
}

// Every trial of a run flagged host_busy, as a busy machine flags them.
void flag_every_trial(const std::filesystem::path& run) {
  std::ifstream in(run / "journal.ndjson");
  ASSERT_TRUE(in) << run;
  std::string out;
  for (std::string line; std::getline(in, line);) {
    auto event = nlohmann::json::parse(line);
    if (event.value("event", "") == "trial") event["trial"]["flags"] = {"host_busy"};
    out += event.dump() + "\n";
  }
  in.close();
  std::ofstream(run / "journal.ndjson", std::ios::trunc) << out;
}

// Issue 37: with every trial flagged, `history changes` said "0 change point(s) in 0 of 0 series",
// `history site` "No series" (and had no --use_flagged), `compare --history` "missing": each now says
// what the flags left out, and --use_flagged judges them.
TEST(HistoryChanges, RunsEveryTrialOfWhichWasDisturbedAreCountedAndUseFlaggedJudgesThem) {
  const auto env = no_ci_variables();
  TempDir dir;
  const std::string db = (dir.path() / "h.sqlite").string();
  const auto dirs = planted_history(dir, 12, 6, "busy");
  for (const auto& d : dirs) flag_every_trial(dir.path() / d);
  ASSERT_EQ(ingest(dirs, db, dir.path()).exit_code, 0);
  const auto left =
      run_perfzero({"history", "changes", "--db=" + db, "--metric=^slept_ms$", "--format=json"}, dir.path());
  ASSERT_EQ(left.exit_code, 0) << left.err;
  EXPECT_EQ(nlohmann::json::parse(left.out)["series"], 0) << left.out;
  EXPECT_TRUE(contains(left.err, "12 point(s) of 12 run(s) left out: every one of their 72 trial(s) was disturbed"))
      << left.err;
  EXPECT_TRUE(contains(left.err, "--use_flagged judges them")) << left.err;
  const auto judged = run_perfzero(
      {"history", "changes", "--db=" + db, "--metric=^slept_ms$", "--format=json", "--use_flagged"}, dir.path());
  ASSERT_EQ(judged.exit_code, 0) << judged.err;
  EXPECT_EQ(nlohmann::json::parse(judged.out)["series"], 1) << judged.out;
  EXPECT_EQ(nlohmann::json::parse(judged.out)["changes"].size(), 1U) << judged.out;
  EXPECT_FALSE(contains(judged.err, "left out")) << judged.err;

  const auto site = run_perfzero({"history", "site", "--db=" + db, "--out=site", "--no_catalog"}, dir.path());
  ASSERT_EQ(site.exit_code, 0) << site.err;
  const std::string index = slurp(dir.path() / "site" / "index.html");
  EXPECT_TRUE(contains(index, "No series: ")) << index;
  EXPECT_TRUE(contains(index, "run(s) left out: every one of their")) << index;
  const auto drawn =
      run_perfzero({"history", "site", "--db=" + db, "--out=site2", "--no_catalog", "--use_flagged"}, dir.path());
  ASSERT_EQ(drawn.exit_code, 0) << drawn.err;
  EXPECT_FALSE(contains(slurp(dir.path() / "site2" / "index.html"), "No series")) << "--use_flagged draws them";

  // A quiet candidate against a history whose every run was disturbed: unreliable (undecided, exit 5).
  clear_trial_flags(dir.path() / "base");
  const auto compared = run_perfzero({"compare", "--history=" + db, "--label=busy", (dir.path() / "base").string(),
                                      "--metrics=^slept_ms$", "--format=json"},
                                     dir.path());
  EXPECT_EQ(compared.exit_code, 5) << compared.out << compared.err;
  bool found = false;
  const auto doc = nlohmann::json::parse(compared.out);
  for (const auto& r : doc["results"]) {
    if (r["metric"] != "slept_ms") continue;
    found = true;
    EXPECT_EQ(r["verdict"], "unreliable") << r.dump();
    EXPECT_TRUE(contains(r["reason"].get<std::string>(), "run(s) in the history was disturbed")) << r.dump();
  }
  EXPECT_TRUE(found) << compared.out;
}

TEST(HistoryChanges, APlantedStepIsFoundAtItsCommitInEveryFormat) {
  const auto env = no_ci_variables();
  TempDir dir;
  const std::string db = (dir.path() / "h.sqlite").string();
  const auto dirs = planted_history(dir, 24, 12);
  ASSERT_EQ(ingest(dirs, db, dir.path()).exit_code, 0);
  const auto json = run_perfzero(
      {"history", "changes", "--db=" + db, "--metric=^slept_ms$", "--format=json", "--junit=changes.xml"}, dir.path());
  ASSERT_EQ(json.exit_code, 0) << json.err;
  const auto doc = nlohmann::json::parse(json.out);
  EXPECT_EQ(doc["series"], 1);
  EXPECT_EQ(doc["runs"], 24);
  ASSERT_EQ(doc["changes"].size(), 1U) << json.out;
  const auto& c = doc["changes"][0];
  EXPECT_EQ(c["execution_id"], "run12-m");
  EXPECT_EQ(c["commit"], kCommitB);
  EXPECT_EQ(c["previous_commit"], kCommitA);
  EXPECT_EQ(c["method"], "sleep");
  EXPECT_EQ(c["metric"], "slept_ms");
  EXPECT_EQ(c["verdict"], "slower");
  EXPECT_EQ(c["configuration"]["label"], "");
  EXPECT_NEAR(c["change"].get<double>(), 0.20, 0.03);
  EXPECT_GT(c["ci_low"].get<double>(), 0.1);
  EXPECT_LT(c["ci_high"].get<double>(), 0.3);
  EXPECT_LT(c["p_value"].get<double>(), 0.001);
  EXPECT_EQ(c["runs_before"], 12);
  EXPECT_EQ(c["runs_after"], 12);
  // JUnit: a test case per series; the slower step is a failure with its figures; valid XML.
  const std::string xml = slurp(dir.path() / "changes.xml");
  EXPECT_TRUE(contains(xml, "<failure message=\"slower +")) << xml;
  const std::string lint = "xmllint --noout --schema '" + (kSourceDir / "tests/data/junit/junit.xsd").string() + "' '" +
                           (dir.path() / "changes.xml").string() + "'";
  EXPECT_EQ(std::system(lint.c_str()), 0) << xml;
  // compare --junit of two of the runs: the same schema, the slowdown a failure.
  const auto compared =
      run_perfzero({"compare", dirs[0], dirs[23], "--junit=compare.xml", "--metrics=^slept_ms$"}, dir.path());
  EXPECT_EQ(compared.exit_code, 1) << compared.out << compared.err;
  const std::string compare_xml = slurp(dir.path() / "compare.xml");
  EXPECT_TRUE(contains(compare_xml, "<testcase classname=\"sleep\" name=\"slept_ms\"")) << compare_xml;
  EXPECT_TRUE(contains(compare_xml, "<failure message=\"sleep: slept_ms slower +")) << compare_xml;
  const std::string lint_compare = "xmllint --noout --schema '" + (kSourceDir / "tests/data/junit/junit.xsd").string() +
                                   "' '" + (dir.path() / "compare.xml").string() + "'";
  EXPECT_EQ(std::system(lint_compare.c_str()), 0) << compare_xml;
  // Text and Markdown say the same.
  const auto text = run_perfzero({"history", "changes", "--db=" + db}, dir.path());
  EXPECT_TRUE(contains(text.out, "slower")) << text.out;
  // The step's means as every table for people writes values: three significant digits, the unit once.
  EXPECT_TRUE(std::regex_search(text.out, std::regex(R"((9\.\d\d|10(\.\d)?) ms -> (11\.\d|12(\.\d)?) ms)")))
      << text.out;
  EXPECT_FALSE(std::regex_search(text.out, std::regex(R"(\d\.\d{3,} ms)"))) << "never 6 digits: " << text.out;
  EXPECT_TRUE(contains(text.out, "commit " + kCommitB.substr(0, 12) + " (was " + kCommitA.substr(0, 12) + ")"))
      << text.out;
  const auto md = run_perfzero({"history", "changes", "--db=" + db, "--format=markdown", "--metric=slept"}, dir.path());
  EXPECT_TRUE(contains(md.out, "### 1 change point(s), 1 slower, in 1 of 1 series (24 runs)")) << md.out;
  EXPECT_TRUE(contains(md.out, "| sleep | slept_ms |")) << md.out;
  // A step smaller than --min_magnitude is not one; --since leaves the runs before the step out (one a day
  // from 2025-11-24: 2025-12-07 starts after the step at run 12).
  const auto small = run_perfzero(
      {"history", "changes", "--db=" + db, "--metric=^slept_ms$", "--min_magnitude=30", "--format=json"}, dir.path());
  EXPECT_TRUE(nlohmann::json::parse(small.out)["changes"].empty()) << small.out;
  const auto since = run_perfzero(
      {"history", "changes", "--db=" + db, "--metric=^slept_ms$", "--since=2025-12-07", "--format=json"}, dir.path());
  EXPECT_TRUE(nlohmann::json::parse(since.out)["changes"].empty()) << since.out;
  // The list shows each run's commit; a unique prefix of an id is enough, an ambiguous one is named.
  const auto list = run_perfzero({"history", "list", "--db=" + db, "--limit=1"}, dir.path());
  EXPECT_TRUE(contains(list.out, kCommitB.substr(0, 12))) << list.out;
  const auto shown = run_perfzero({"history", "show", "run05", "--db=" + db, "--format=json"}, dir.path());
  ASSERT_EQ(shown.exit_code, 0) << shown.err;
  EXPECT_EQ(nlohmann::json::parse(shown.out)["run"]["execution_id"], "run05-f");
  const auto ambiguous = run_perfzero({"history", "show", "run1", "--db=" + db}, dir.path());
  EXPECT_EQ(ambiguous.exit_code, 2);
  EXPECT_TRUE(contains(ambiguous.err, "'run1' is the start of more than one run id (run10-k, run11-l"))
      << ambiguous.err;
}

TEST(HistoryChanges, RunHistorySaysTheChangePointTheRunMakesAndFailOnChangeExits1) {
  const auto env = no_ci_variables();
  TempDir dir;
  const std::string db = (dir.path() / "h.sqlite").string();
  const auto dirs = planted_history(dir, 16, 12);
  // 12 runs at 10 ms and one at 12 ms: one run after a step is no change point yet.
  ASSERT_EQ(ingest({dirs.begin(), dirs.begin() + 13}, db, dir.path()).exit_code, 0);
  const auto before =
      run_perfzero({"history", "changes", "--db=" + db, "--metric=^slept_ms$", "--format=json"}, dir.path());
  ASSERT_TRUE(nlohmann::json::parse(before.out)["changes"].empty()) << before.out;
  // The next run at 12 ms makes it one. --resume of a completed run stores it as it is.
  const auto suite = (dir.path() / "s.yaml").string();
  const auto second = run_perfzero(
      {"--config=" + suite, "--resume", "--output_dir=" + dirs[13], "--history=" + db, "--fail_on_change"}, dir.path());
  EXPECT_EQ(second.exit_code, 1) << second.out << second.err;
  EXPECT_TRUE(contains(second.out, "perfzero: change point in sleep slept_ms: slower +")) << second.out;
  EXPECT_TRUE(contains(second.out, "at commit " + kCommitB.substr(0, 12) + ", run run12-m")) << second.out;
  EXPECT_TRUE(contains(second.err, "--fail_on_change")) << second.err;
  // The one after it makes none: exit 0 even with --fail_on_change.
  const auto third = run_perfzero(
      {"--config=" + suite, "--resume", "--output_dir=" + dirs[14], "--history=" + db, "--fail_on_change"}, dir.path());
  EXPECT_EQ(third.exit_code, 0) << third.out << third.err;
  EXPECT_FALSE(contains(third.out, "change point in sleep slept_ms")) << third.out;
  // Without --history, --fail_on_change is a usage error.
  const auto alone = run_perfzero({"--config=" + suite, "--fail_on_change", "--dry_run"}, dir.path());
  EXPECT_EQ(alone.exit_code, 2);
  EXPECT_TRUE(contains(alone.err, "--fail_on_change: only with --history")) << alone.err;
}

// A step the series has had for a while, not large against its noise (8 % in 3 %): each new run changes
// its last segment's mean, and least squares may move the step's place by a run. That is not a
// change point the new run made: no line, and exit 0 with --fail_on_change.
TEST(HistoryChanges, AnOldStepInNoiseIsNotTheNewRunsChange) {
  const auto env = no_ci_variables();
  TempDir dir;
  const std::string db = (dir.path() / "h.sqlite").string();
  const auto dirs = planted_history(dir, 26, 10, "", 10.8, 0.3);
  ASSERT_EQ(ingest({dirs.begin(), dirs.begin() + 20}, db, dir.path()).exit_code, 0);
  const auto before =
      run_perfzero({"history", "changes", "--db=" + db, "--metric=^slept_ms$", "--format=json"}, dir.path());
  ASSERT_EQ(nlohmann::json::parse(before.out)["changes"].size(), 1U) << "the old step is there: " << before.out;
  const auto suite = (dir.path() / "s.yaml").string();
  for (std::size_t i = 20; i < dirs.size(); ++i) {
    const auto next = run_perfzero(
        {"--config=" + suite, "--resume", "--output_dir=" + dirs[i], "--history=" + db, "--fail_on_change"},
        dir.path());
    EXPECT_EQ(next.exit_code, 0) << dirs[i] << ": " << next.out << next.err;
    EXPECT_FALSE(contains(next.out, "change point in sleep slept_ms")) << dirs[i] << ": " << next.out;
  }
}

TEST(HistoryChanges, ARunRecordsItsCommitFromFlagsCiOrTheGitCheckout) {
  const auto env = no_ci_variables();
  TempDir dir;
  const auto repo = dir.path() / "repo";
  fs::create_directories(repo);
  const std::string git = "git -C '" + repo.string() + "' -c user.name=t -c user.email=t@t ";
  ASSERT_EQ(std::system((git + "init -q -b feature && " + git + "commit -q --allow-empty -m one").c_str()), 0);
  const std::string head = [&] {
    FILE* p = popen((git + "rev-parse HEAD").c_str(), "r");
    char buf[128] = {};
    const char* got = fgets(buf, sizeof buf, p);
    pclose(p);
    return std::string(got != nullptr ? got : "").substr(0, 40);
  }();
  const auto suite = dir.write("s.yaml", kPlantedSuite);
  // In the checkout: its commit and branch, into run.json, every report and the summaries.
  const auto in_repo = run_perfzero(
      {"--config=" + suite.string(), "--output_dir=" + (dir.path() / "r1").string(), "--build_label=O3"}, repo);
  ASSERT_EQ(in_repo.exit_code, 0) << in_repo.err;
  const auto run = read_json(dir.path() / "r1" / "run.json");
  EXPECT_EQ(run["run"]["source"]["commit"], head);
  EXPECT_EQ(run["run"]["source"]["branch"], "feature");
  EXPECT_EQ(run["run"]["source"]["from"]["commit"], "git checkout " + repo.string());
  EXPECT_EQ(run["run"]["source"]["build_label"], "O3");
  const auto report = read_json(dir.path() / "r1" / "sleep" / "trial_1" / "perfzero_summary.json");
  EXPECT_EQ(report["ml_framework_info"]["build_version"], head);
  EXPECT_EQ(report["ml_framework_info"]["build_label"], "O3");
  EXPECT_EQ(report["perfzero_cpp"]["source"]["commit"], head);
  EXPECT_TRUE(contains(slurp(dir.path() / "r1" / "summary.md"), "- source: " + head + " on feature, build O3"));
  // CI's variable wins over the checkout; a flag wins over both; --detect_source=false takes neither.
  {
    const ScopedEnv ci{{"GITHUB_SHA", "c1c1c1"}, {"GITHUB_REF_NAME", "main"}};
    run_perfzero({"--config=" + suite.string(), "--output_dir=" + (dir.path() / "r2").string()}, repo);
    run_perfzero({"--config=" + suite.string(), "--output_dir=" + (dir.path() / "r3").string(), "--commit=f1f1"}, repo);
    run_perfzero(
        {"--config=" + suite.string(), "--output_dir=" + (dir.path() / "r4").string(), "--detect_source=false"}, repo);
  }
  EXPECT_EQ(read_json(dir.path() / "r2" / "run.json")["run"]["source"]["commit"], "c1c1c1");
  EXPECT_EQ(read_json(dir.path() / "r2" / "run.json")["run"]["source"]["from"]["commit"], "GITHUB_SHA");
  EXPECT_EQ(read_json(dir.path() / "r3" / "run.json")["run"]["source"]["commit"], "f1f1");
  EXPECT_EQ(read_json(dir.path() / "r3" / "run.json")["run"]["source"]["branch"], "")
      << "CI's branch belongs to CI's commit, not to a flag's";
  EXPECT_EQ(read_json(dir.path() / "r4" / "run.json")["run"]["source"]["commit"], "");
  // Outside any checkout and without CI: nothing is made up.
  run_perfzero({"--config=" + suite.string(), "--output_dir=r5"}, dir.path());
  EXPECT_EQ(read_json(dir.path() / "r5" / "run.json")["run"]["source"]["commit"], "");
}

TEST(HistoryChanges, CompareHistoryTakesAStoredRunByAPrefixOfItsId) {
  const auto env = no_ci_variables();
  TempDir dir;
  const std::string db = (dir.path() / "h.sqlite").string();
  const auto dirs = planted_history(dir, 16, 8, "pr");
  ASSERT_EQ(ingest(dirs, db, dir.path()).exit_code, 0);
  // No directory of that name here: the stored run, judged against the label's other runs.
  const auto judged = run_perfzero(
      {"compare", "--history=" + db, "--label=pr", "pr-run15", "--format=json", "--metrics=^slept_ms$"}, dir.path());
  ASSERT_TRUE(judged.exit_code == 0 || judged.exit_code == 1) << judged.err;
  const auto doc = nlohmann::json::parse(judged.out);
  EXPECT_EQ(doc["candidate"]["execution_id"], "pr-run15-p") << judged.out;
  for (const auto& r : doc["results"]) {
    if (r["metric"] == "slept_ms") {
      EXPECT_EQ(r["baseline"]["trials"], 15) << "every other run of the label";
    }
  }
  const auto ambiguous = run_perfzero({"compare", "--history=" + db, "--label=pr", "pr-run1"}, dir.path());
  EXPECT_EQ(ambiguous.exit_code, 2);
  EXPECT_TRUE(contains(ambiguous.err, "'pr-run1' is the start of more than one run id")) << ambiguous.err;
  const auto none = run_perfzero({"compare", "--history=" + db, "--label=pr", "nosuch"}, dir.path());
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_TRUE(contains(none.err, "no run nosuch")) << none.err;
}

TEST(HistoryChanges, PruneKeepsTheNewestRunsPerLabelAndBadFlagsAreOneLine) {
  const auto env = no_ci_variables();
  TempDir dir;
  const std::string db = (dir.path() / "h.sqlite").string();
  const auto dirs = planted_history(dir, 6, 6);
  ASSERT_EQ(ingest(dirs, db, dir.path()).exit_code, 0);
  const auto pruned = run_perfzero({"history", "prune", "--keep_last=2", "--db=" + db}, dir.path());
  ASSERT_EQ(pruned.exit_code, 0) << pruned.err;
  EXPECT_TRUE(contains(pruned.out, "deleted run00-a\n")) << pruned.out;
  EXPECT_TRUE(contains(pruned.out, "pruned 4 run(s)")) << pruned.out;
  const auto left = run_perfzero({"history", "list", "--db=" + db, "--format=json"}, dir.path());
  EXPECT_EQ(nlohmann::json::parse(left.out).size(), 2U);
  for (const auto& [args, message] : std::vector<std::pair<std::vector<std::string>, std::string>>{
           {{"history", "changes", "--db=" + db, "--metric=("}, "--metric: not a regular expression"},
           {{"history", "changes", "--db=" + db, "--since=yesterday"}, "not a date of the form YYYY-MM-DD"},
           {{"history", "changes", "--db=" + (dir.path() / "none.sqlite").string()}, "no results database"},
           {{"history", "prune", "--db=" + db}, "--keep_last is required"},
           {{"history", "prune", "--db=" + db, "--keep_last=0"}, "--keep_last"}}) {
    const auto f = run_perfzero(args, dir.path());
    EXPECT_EQ(f.exit_code, 2) << args[1] << f.err;
    EXPECT_TRUE(contains(f.err, message)) << f.err;
  }
}

// An output path that is a device or a pipe (issue 37's hostile checks): `--junit /dev/full` said
// nothing and exited 0 after putting a regular file in /dev/full's place (as root). Now a device is
// written into and its error named (exit 4), /dev/stdout gets the XML, and the device stays one. A
// node of the test's own where mknod is allowed, so a regression cannot replace the machine's.
TEST(HistoryChanges, JunitToAFullDeviceIsExit4NamingItAndToStdoutPrintsIt) {
  const auto env = no_ci_variables();
  TempDir dir;
  const std::string db = (dir.path() / "h.sqlite").string();
  const auto dirs = planted_history(dir, 4, 4);
  ASSERT_EQ(ingest(dirs, db, dir.path()).exit_code, 0);
  const std::filesystem::path full = own_full_device(dir.path());
  const auto f = run_perfzero({"history", "changes", "--db=" + db, "--junit=" + full.string()}, dir.path());
  EXPECT_EQ(f.exit_code, 4) << f.out << f.err;
  EXPECT_TRUE(contains(f.err, "cannot write " + full.string() + ": No space left on device")) << f.err;
  EXPECT_FALSE(contains(f.err, "standard output")) << f.err;
  struct stat st {};
  ASSERT_EQ(::stat(full.c_str(), &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode)) << full << " was replaced by a file";
  const auto out = run_perfzero({"history", "changes", "--db=" + db, "--junit=/dev/stdout"}, dir.path());
  EXPECT_EQ(out.exit_code, 0) << out.err;
  EXPECT_TRUE(contains(out.out, "<testsuite name=\"perfzero history changes\"")) << out.out;
  ASSERT_EQ(::lstat("/dev/stdout", &st), 0);
  EXPECT_TRUE(S_ISLNK(st.st_mode)) << "/dev/stdout was replaced";
}

}  // namespace
}  // namespace perfzero::testing::history_changes_test
