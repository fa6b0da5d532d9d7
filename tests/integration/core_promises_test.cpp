// The promises every command keeps through one module each (docs/reliability.md), probed as a hostile
// user would, on the real binary: descriptors 0-2 closed at start; secrets in ab's sides, in URL
// query parameters and in a method's run facts; links planted under an output directory; a budget
// that must stop a trial in flight; journal lines the harness did not write; a run read while
// partial; a resumed completed run; an impossible price catalog.
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>

#include <gtest/gtest.h>

#include "../unit/temp_dir.hpp"
#include "perfzero_runner.hpp"

namespace perfzero::testing::core_promises_test {
namespace {

const std::filesystem::path kPerfzero = kBinDir / "harness" / "perfzero";

// Every file under `dir` (and its path) searched for each of `secrets`; but the files a method wrote
// itself (run_facts/), which are its output, kept as written: what the harness made of them is checked.
void expect_absent_in_tree(const std::filesystem::path& dir, const std::vector<std::string>& secrets) {
  int files = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
    for (const auto& s : secrets) EXPECT_EQ(entry.path().string().find(s), std::string::npos) << s << " in a path";
    if (!entry.is_regular_file() || entry.path().parent_path().filename() == "run_facts") continue;
    ++files;
    const std::string text = slurp(entry.path());
    for (const auto& s : secrets) EXPECT_EQ(text.find(s), std::string::npos) << s << " in " << entry.path();
  }
  EXPECT_GT(files, 3) << dir;
}

void expect_absent(const std::string& where, const std::string& text, const std::vector<std::string>& secrets) {
  for (const auto& s : secrets) EXPECT_EQ(text.find(s), std::string::npos) << s << " in " << where;
}

// perfzero with some of descriptors 0-2 closed before exec; returns the wait status.
int run_with_closed(const std::vector<int>& closed, const std::vector<std::string>& args,
                    const std::filesystem::path& cwd) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    if (::chdir(cwd.c_str()) != 0) ::_exit(126);
    for (const int fd : closed) ::close(fd);
    std::vector<std::string> argv{kPerfzero.string()};
    argv.insert(argv.end(), args.begin(), args.end());
    std::vector<char*> raw;
    for (auto& a : argv) raw.push_back(a.data());
    raw.push_back(nullptr);
    ::execv(raw[0], raw.data());
    ::_exit(127);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  return status;
}

TEST(CorePromises, ClosedStdoutAndStderrNeitherAbortACommandNorLandInAFile) {
  TempDir dir;
  const std::vector<std::string> run = {"--benchmark_methods=sanity.Sanity.benchmark_noop", "--benchmark_num_trials=2",
                                        "--output_dir=both"};
  const int both = run_with_closed({1, 2}, run, dir.path());
  ASSERT_TRUE(WIFEXITED(both)) << "killed by signal " << WTERMSIG(both);
  EXPECT_EQ(WEXITSTATUS(both), 0);
  EXPECT_EQ(read_json(dir.path() / "both" / "run.json")["status"], "completed");
  // Another command with nothing to write to: its exit status is its own, never an abort.
  const int compare = run_with_closed({1, 2}, {"compare", "both", "both"}, dir.path());
  ASSERT_TRUE(WIFEXITED(compare)) << "killed by signal " << WTERMSIG(compare);
  EXPECT_EQ(WEXITSTATUS(compare), 4);  // its table could not be delivered (an output error)
  // stdout alone closed: the run's first file must not become "standard output".
  const int out_only = run_with_closed(
      {1},
      {"--benchmark_methods=sanity.Sanity.benchmark_noop", "--benchmark_num_trials=2", "--output_dir=stdout-closed"},
      dir.path());
  ASSERT_TRUE(WIFEXITED(out_only));
  EXPECT_EQ(WEXITSTATUS(out_only), 0);
  EXPECT_EQ(std::filesystem::file_size(dir.path() / "stdout-closed" / ".perfzero.lock"), 0U);
  const std::string journal = slurp(dir.path() / "stdout-closed" / "journal.ndjson");
  EXPECT_EQ(journal.find("trial 1/2"), std::string::npos) << journal;
}

TEST(CorePromises, AbSidesAndUrlQuerySecretsAreRedactedEverywhere) {
  TempDir dir;
  const std::vector<std::string> secrets{"sekritAbA1", "sekritAbB2", "sekritQ3", "sekritQ4", "sekritQ5", "sekritQ6"};
  const auto f = run_perfzero(
      {"ab", "--baseline", "env API_TOKEN=sekritAbA1 /bin/true https://s3.example/o?X-Amz-Signature=sekritQ3",
       "--candidate", "/bin/true --password=sekritAbB2 'https://h/x?access_token=sekritQ4&api_key=sekritQ5'",
       "--max_trials=2", "--warmup_trials=0", "--output_dir=ab", "--format=json",
       "--execution_label=nightly?X-Amz-Credential=sekritQ6", "--json=ab-copy.json"},
      dir.path());
  EXPECT_NE(f.exit_code, 2) << f.err;
  expect_absent("stdout", f.out, secrets);
  expect_absent("stderr", f.err, secrets);
  expect_absent_in_tree(dir.path() / "ab", secrets);
  expect_absent("--json", slurp(dir.path() / "ab-copy.json"), secrets);
  EXPECT_NE(slurp(dir.path() / "ab" / "ab.json").find("<redacted>"), std::string::npos);
}

TEST(CorePromises, RunFlagsWithQuerySecretsAreRedacted) {
  TempDir dir;
  const auto f = run_perfzero({"--benchmark_methods=sanity.Sanity.benchmark_noop", "--output_dir=run",
                               "--execution_label=https://ci.example/run?password=sekritR1&keep=this"},
                              dir.path());
  ASSERT_EQ(f.exit_code, 0) << f.err;
  expect_absent_in_tree(dir.path() / "run", {"sekritR1"});
  EXPECT_EQ(read_json(dir.path() / "run" / "run.json")["run"]["execution_label"],
            "https://ci.example/run?password=<redacted>&keep=this");
}

TEST(CorePromises, RunFactsAreRedactedAndThoseBeyondTheLimitAreSaid) {
  TempDir dir;
  const auto suite = dir.write("facts.yaml", R"(
methods:
  - name: facts
    command:
      - /bin/sh
      - -c
      - |
        d="$PERFZERO_RUN_DIR/run_facts"; mkdir -p "$d"
        s=sekrit  # each secret whole only in the fact: the recorded command holds its halves
        printf '{"token": "%sF1", "url": "https://u:%sF2@h/x?api_key=%sF3", "nested": {"password": "%sF4"}}' "$s" "$s" "$s" "$s" > "$d/leaky.json"
        i=0; while [ $i -lt 70 ]; do printf '{"n": %d}' $i > "$d/f$i.json"; i=$((i+1)); done
        head -c 1100000 /dev/zero | tr '\0' ' ' > "$d/big.json"
    output: none
)");
  const auto f = run_perfzero({"--config=" + suite.string(), "--output_dir=run"}, dir.path());
  ASSERT_EQ(f.exit_code, 0) << f.err;
  expect_absent_in_tree(dir.path() / "run", {"sekritF1", "sekritF2", "sekritF3", "sekritF4"});
  const auto system = read_json(dir.path() / "run" / "run.json")["run"]["system"];
  ASSERT_TRUE(system.contains("leaky")) << system.dump();
  EXPECT_EQ(system["leaky"]["token"], "<redacted>");
  EXPECT_EQ(system["leaky"]["nested"]["password"], "<redacted>");
  const std::string said = f.out + f.err;
  EXPECT_NE(said.find("every later one left out: the run keeps at most 64 run facts"), std::string::npos) << said;
  EXPECT_NE(said.find("over the limit of 1048576"), std::string::npos) << said;
  EXPECT_EQ(said.find("--max_result_bytes"), std::string::npos) << said;
}

TEST(CorePromises, HistorySiteAndAbRefuseALinkPlantedUnderTheirOutput) {
  TempDir dir;
  const auto outside = dir.path() / "outside";
  std::filesystem::create_directories(outside);
  ASSERT_EQ(run_perfzero({"--benchmark_methods=sanity.Sanity.benchmark_noop", "--benchmark_num_trials=2",
                          "--output_dir=run", "--history=h.db"},
                         dir.path())
                .exit_code,
            0);
  std::filesystem::create_directories(dir.path() / "site");
  std::filesystem::create_directory_symlink(outside, dir.path() / "site" / "series");
  const auto site = run_perfzero({"history", "site", "--db=h.db", "--out=site"}, dir.path());
  EXPECT_EQ(site.exit_code, 4) << site.err << site.out;
  EXPECT_NE(site.err.find("symbolic link"), std::string::npos) << site.err;
  std::filesystem::create_directories(dir.path() / "ab");
  std::filesystem::create_directory_symlink(outside, dir.path() / "ab" / "baseline");
  const auto ab = run_perfzero(
      {"ab", "--baseline=/bin/true", "--candidate=/bin/true", "--max_trials=2", "--warmup_trials=0", "--output_dir=ab"},
      dir.path());
  EXPECT_EQ(ab.exit_code, 4) << ab.err;
  EXPECT_NE(ab.err.find("symbolic link"), std::string::npos) << ab.err;
  EXPECT_TRUE(std::filesystem::is_empty(outside)) << "written through the planted link";
}

TEST(CorePromises, AbMaxTimeStopsATrialInFlightWarmUpsIncluded) {
  TempDir dir;
  const auto started = std::chrono::steady_clock::now();
  const auto f = run_perfzero({"ab", "--baseline=sleep 30", "--candidate=sleep 30", "--max_time=3s",
                               "--warmup_trials=1", "--output_dir=ab", "--format=json"},
                              dir.path());
  const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  EXPECT_LT(took, 20.0) << f.err;
  EXPECT_NE(f.err.find("timed_out"), std::string::npos) << f.err;
  EXPECT_NE(f.err.find("stopped by --max_time 3.00 s"), std::string::npos) << f.err;
  EXPECT_NE(f.out.find("--max_time 3.00 s spent"), std::string::npos) << f.out;
  EXPECT_EQ(f.out.find("every gated metric decided"), std::string::npos) << f.out;
}

TEST(CorePromises, AJournalLineTheHarnessDidNotWriteNeverReplacesAMeasuredTrial) {
  TempDir dir;
  // The first method forges a trial line for the second while it runs, with a far-ahead seq.
  const auto suite = dir.write("forge.yaml", R"(
methods:
  - name: forger
    command:
      - /bin/sh
      - -c
      - |
        printf '{"event":"trial","case":"victim","seq":999999,"trial":{"trial":1,"warmup":false,"outcome":"succeeded","wall_time":0.000001,"metrics":[]}}\n' >> "$PERFZERO_RUN_DIR/journal.ndjson"
    output: none
    trials: 1
  - name: victim
    command: [/bin/sleep, "0.2"]
    output: none
    trials: 1
)");
  const auto f = run_perfzero({"--config=" + suite.string(), "--output_dir=run"}, dir.path());
  ASSERT_EQ(f.exit_code, 0) << f.err;
  // The harness cut the forged line off before its next one (its text stays in the recorded command).
  {
    std::ifstream journal(dir.path() / "run" / "journal.ndjson");
    for (std::string line; std::getline(journal, line);) {
      EXPECT_NE(nlohmann::json::parse(line).value("seq", 0), 999999) << line;
    }
  }
  // One appended after the run, where no harness line follows: readers leave it out and say so.
  {
    std::ofstream journal(dir.path() / "run" / "journal.ndjson", std::ios::app);
    journal << R"({"event":"trial","case":"victim","seq":999999,"trial":{"trial":1,"warmup":false,)"
            << R"("outcome":"succeeded","wall_time":0.000001,"metrics":[]}})"
            << "\n";
  }
  // --use_flagged: a busy host (the tests beside it) must not hide the value this test looks at.
  // --pass_on=undecided: one trial a side decides nothing; the record is what this test looks at.
  const auto c =
      run_perfzero({"compare", "run", "run", "--format=json", "--use_flagged", "--pass_on=undecided"}, dir.path());
  ASSERT_EQ(c.exit_code, 0) << c.err;
  EXPECT_NE(c.err.find("not a line perfzero wrote"), std::string::npos) << c.err;
  const auto doc = nlohmann::json::parse(c.out);
  EXPECT_EQ(doc["baseline"]["foreign_journal_lines"], 1);
  for (const auto& row : doc["results"]) {
    if (row["method"] == "victim" && row["metric"] == "wall_time") {
      EXPECT_GT(row["baseline"]["median"].get<double>(), 0.1) << row.dump();
    }
  }
  const auto r = run_perfzero({"report", "run", "--out=report", "--format=json"}, dir.path());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("journal line(s) its harness did not write were left out"), std::string::npos) << r.err;
}

TEST(CorePromises, APartialRunIsReadAsPartialByEveryCommand) {
  TempDir dir;
  ASSERT_EQ(
      run_perfzero({"--benchmark_methods=sanity.Sanity.benchmark_noop", "--benchmark_num_trials=2", "--output_dir=run"},
                   dir.path())
          .exit_code,
      0);
  // As a kill -9 leaves it: run.json still says running, and the journal has no end.
  auto manifest = read_json(dir.path() / "run" / "run.json");
  manifest["status"] = "running";
  std::ofstream(dir.path() / "run" / "run.json") << manifest.dump();
  std::string journal = slurp(dir.path() / "run" / "journal.ndjson");
  journal = journal.substr(0, journal.rfind("{\"event\":\"run_finished\""));
  std::ofstream(dir.path() / "run" / "journal.ndjson") << journal;
  const auto c = run_perfzero({"compare", "run", "run", "--format=json"}, dir.path());
  EXPECT_NE(c.err.find("never finished"), std::string::npos) << c.err;
  EXPECT_EQ(nlohmann::json::parse(c.out)["candidate"]["partial"], true);
  const auto r = run_perfzero({"report", "run", "--out=report"}, dir.path());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("never finished"), std::string::npos) << r.err;
  const auto h = run_perfzero({"history", "ingest", "run", "--db=h.db"}, dir.path());
  EXPECT_EQ(h.exit_code, 2) << h.err;
  EXPECT_NE(h.err.find("still running, or was killed"), std::string::npos) << h.err;
}

TEST(CorePromises, ResumingACompletedRunRunsNoWarmUpAgain) {
  TempDir dir;
  const std::vector<std::string> args{"--benchmark_methods=sanity.Sanity.benchmark_noop", "--benchmark_num_trials=2",
                                      "--warmup_trials=1", "--output_dir=" + (dir.path() / "run").string()};
  ASSERT_EQ(run_perfzero(args, dir.path()).exit_code, 0);
  const auto before = slurp(dir.path() / "run" / "journal.ndjson");
  auto again = args;
  again.push_back("--resume");
  const auto f = run_perfzero(again, dir.path() / "again");
  ASSERT_EQ(f.exit_code, 0) << f.err;
  const auto after = slurp(dir.path() / "run" / "journal.ndjson");
  const std::string added = after.substr(before.size());
  EXPECT_EQ(added.find("\"event\":\"trial\""), std::string::npos) << added << "\n" << f.out;
  EXPECT_NE(f.out.find("warm-up 1/1  succeeded  (already reported"), std::string::npos) << f.out;
}

TEST(CorePromises, AnImpossibleCatalogDateOrPriceIsRefused) {
  TempDir dir;
  ASSERT_EQ(
      run_perfzero({"--benchmark_methods=sanity.Sanity.benchmark_noop", "--output_dir=run", "--instance_type=m.one"},
                   dir.path())
          .exit_code,
      0);
  const std::string entry = R"(catalog_version: 1
shapes:
  - provider: aws
    shape: m.one
    arch: x86_64
    vcpus: 2
    usd_per_hour: PRICE
    source: https://example.com/prices
    date: DATE
billing:
  - provider: aws
    granularity_seconds: 1
    source: https://example.com/billing
    date: 2026-01-01
)";
  const auto catalog = [&](const std::string& price, const std::string& date) {
    std::string text = entry;
    text.replace(text.find("PRICE"), 5, price);
    text.replace(text.find("DATE"), 4, date);
    return dir.write("catalog-" + price + "-" + date + ".yaml", text).string();
  };
  const auto feb30 = run_perfzero({"report", "run", "--catalog=" + catalog("0.1", "2026-02-30")}, dir.path());
  EXPECT_EQ(feb30.exit_code, 2) << feb30.err;
  EXPECT_NE(feb30.err.find("expected a date as YYYY-MM-DD"), std::string::npos) << feb30.err;
  const auto huge = run_perfzero({"report", "run", "--catalog=" + catalog("1e308", "2026-01-01")}, dir.path());
  EXPECT_EQ(huge.exit_code, 2) << huge.err;
  EXPECT_NE(huge.err.find("at most 1e+09"), std::string::npos) << huge.err;
  const auto leap = run_perfzero({"report", "run", "--catalog=" + catalog("0.1", "2024-02-29")}, dir.path());
  EXPECT_NE(leap.exit_code, 2) << leap.err;
}

// A metric reported in "s" by one trial and "ms" by the next is not one quantity: ab does not judge
// it, does not wait for it, and the design line does not call it decided.
TEST(CorePromises, AbJudgesNoMetricWhoseUnitChangedAndSaysItIsUndecided) {
  TempDir dir;
  // Trials 1 and 4 say "s", trials 2 and 3 "ms" (a counter per side).
  const auto script = dir.write("unit.sh", R"(n=$(cat "$1" 2>/dev/null || echo 0); n=$((n+1)); echo $n > "$1"
u=s; [ $((n % 4)) -ge 2 ] && u=ms
printf '{"metrics": [{"name": "x", "value": 1, "unit": "%s", "direction": "lower"}]}' $u > "$PERFZERO_RESULT_FILE"
)");
  const std::string side = "/bin/sh " + script.string() + " ";
  const auto f = run_perfzero(
      {"ab", "--baseline", side + (dir.path() / "a").string(), "--candidate", side + (dir.path() / "b").string(),
       "--output=perfzero", "--metrics=x", "--max_trials=12", "--warmup_trials=0", "--output_dir=ab", "--format=json"},
      dir.path());
  ASSERT_NE(f.exit_code, 2) << f.err;
  const auto doc = nlohmann::json::parse(f.out);
  bool seen = false;
  for (const auto& row : doc["results"]) {
    if (row["metric"] != "x") continue;
    seen = true;
    EXPECT_EQ(row["verdict"], "unknown") << row.dump();
    EXPECT_NE(row["reason"].get<std::string>().find("not judged: its unit changed between trials"), std::string::npos)
        << row.dump();
  }
  EXPECT_TRUE(seen) << f.out;
  EXPECT_EQ(doc["design"].get<std::string>().find("every gated metric decided"), std::string::npos) << doc["design"];
  EXPECT_NE(doc["design"].get<std::string>().find("undecided"), std::string::npos) << doc["design"];
}

// ab has no --resume: an output directory that already holds a session is refused without one.
TEST(CorePromises, AbNeverSuggestsAResumeItDoesNotHave) {
  TempDir dir;
  const std::vector<std::string> ab{
      "ab", "--baseline=/bin/true", "--candidate=/bin/true", "--max_trials=2", "--warmup_trials=0", "--output_dir=ab"};
  ASSERT_NE(run_perfzero(ab, dir.path()).exit_code, 2);
  const auto again = run_perfzero(ab, dir.path());
  EXPECT_EQ(again.exit_code, 2) << again.err;
  EXPECT_NE(again.err.find("already holds run"), std::string::npos) << again.err;
  EXPECT_EQ(again.err.find("--resume"), std::string::npos) << again.err;
}

}  // namespace
}  // namespace perfzero::testing::core_promises_test
