// `perfzero ab` on the real binary (docs/compare.md, "perfzero ab"): two commands, two builds, two
// values of a parameter; a planted slowdown is found and fails the gate; stdout holds only the
// table (or JSON); both runs are kept and readable; a stop and a spent budget end with what is known.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <fstream>
#include <iterator>
#include <thread>

#include "../unit/temp_dir.hpp"
#include "perfzero_runner.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::testing::ab_test {
namespace {

const nlohmann::json& row(const nlohmann::json& doc, const std::string& metric) {
  for (const auto& r : doc.at("results")) {
    if (r.at("metric") == metric) return r;
  }
  throw std::runtime_error("no row " + metric + " in " + doc.dump());
}

TEST(Ab, APlantedTenPercentSlowdownIsSlowerAndFailsTheGate) {
  TempDir dir;
  const auto f = run_perfzero({"ab", "--baseline", "sleep 0.05", "--candidate", "sleep 0.055", "--format=json",
                               "--output_dir=ab", "--max_time=2m", "--junit=ab.xml"},
                              dir.path());
  EXPECT_EQ(f.exit_code, 1) << f.out << f.err;
  // stdout is one JSON document; progress went to stderr.
  const auto doc = nlohmann::json::parse(f.out);
  const auto& wall = row(doc, "wall_time");
  EXPECT_EQ(wall.at("verdict"), "slower") << wall.dump();
  EXPECT_NEAR(wall.at("change").get<double>(), 0.10, 0.04) << wall.dump();
  EXPECT_TRUE(wall.at("gated").get<bool>());
  EXPECT_GE(wall.at("pairs").get<int>(), 10);
  EXPECT_TRUE(doc.at("regression").get<bool>());
  EXPECT_NE(doc.at("design").get<std::string>().find("ABBA"), std::string::npos);
  // --junit: the slowdown is a failing test case, in XML the schema takes (docs/ci.md).
  const std::string xml = slurp(dir.path() / "ab.xml");
  EXPECT_NE(xml.find("<testcase classname=\"command\" name=\"wall_time\""), std::string::npos) << xml;
  EXPECT_NE(xml.find("<failure message=\"command: wall_time slower +"), std::string::npos) << xml;
  EXPECT_EQ(std::system(("xmllint --noout --schema '" + (kSourceDir / "tests/data/junit/junit.xsd").string() + "' '" +
                         (dir.path() / "ab.xml").string() + "'")
                            .c_str()),
            0)
      << xml;
  EXPECT_NE(f.err.find("baseline command trial 1/"), std::string::npos) << f.err;
  EXPECT_NE(f.err.find("candidate command trial 1/"), std::string::npos) << f.err;
  // Not gated: the CPU and memory rows are shown, but nothing waited for them.
  EXPECT_FALSE(row(doc, "max_rss").at("gated").get<bool>());
  // Both runs are kept, and read like any run.
  const auto a = dir.path() / "ab" / "baseline";
  const auto b = dir.path() / "ab" / "candidate";
  EXPECT_TRUE(std::filesystem::exists(a / "run.json"));
  EXPECT_TRUE(std::filesystem::exists(dir.path() / "ab" / "ab.json"));
  EXPECT_TRUE(std::filesystem::exists(dir.path() / "ab" / "ab.md"));
  const auto run_a = read_json(a / "run.json");
  EXPECT_EQ(run_a["status"], "completed");
  const auto compared = run_perfzero({"compare", a.string(), b.string(), "--format=json", "--use_flagged"}, dir.path());
  EXPECT_EQ(compared.exit_code, 1) << compared.out << compared.err;
  // Baseline first on odd pairs, candidate first on even ones (ABBA).
  const auto journal_a = slurp(a / "journal.ndjson");
  EXPECT_NE(journal_a.find("\"trial\""), std::string::npos);
}

// The verdict policy gates the process tree's CPU time of every method, commands included, in `ab` as
// in `compare` (issue 37: ab gated a command's wall time only, and its CPU time read "slower (not
// gated)" with exit 0). The candidate does the baseline's work twice, on two processes at once.
// `compare` judges the same runs unpaired, where this VM's spread of the short loop (13 trials, ab's
// early stop) reached the 20 % that makes a row `too noisy`: --max_cv=50 lets the doubling decide,
// which is what this test is about.
TEST(Ab, ACommandUsingMoreCpuFailsTheGateInAbAndCompareAlike) {
  TempDir dir;
  const std::string loop = "l() { i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done; }; ";
  const auto f = run_perfzero({"ab", "--baseline", "sh -c '" + loop + "l'", "--candidate",
                               "sh -c '" + loop + "l & l; wait'", "--format=json", "--output_dir=ab", "--max_time=2m"},
                              dir.path());
  EXPECT_EQ(f.exit_code, 1) << f.out << f.err;
  const auto doc = nlohmann::json::parse(f.out);
  const auto& cpu = row(doc, "tree_cpu_seconds");
  EXPECT_TRUE(cpu.at("gated").get<bool>()) << cpu.dump();
  EXPECT_EQ(cpu.at("verdict"), "slower") << cpu.dump();
  EXPECT_EQ(cpu.at("gate"), "slower") << cpu.dump();
  EXPECT_FALSE(row(doc, "user_cpu_seconds").at("gated").get<bool>()) << "the sum gates, not its halves";
  const auto compared =
      run_perfzero({"compare", (dir.path() / "ab" / "baseline").string(), (dir.path() / "ab" / "candidate").string(),
                    "--format=json", "--use_flagged", "--max_cv=50"},
                   dir.path());
  EXPECT_EQ(compared.exit_code, 1) << compared.out << compared.err;
  const auto compared_doc = nlohmann::json::parse(compared.out);
  EXPECT_TRUE(row(compared_doc, "tree_cpu_seconds").at("gated").get<bool>());
  EXPECT_FALSE(row(compared_doc, "user_cpu_seconds").at("gated").get<bool>());
}

TEST(Ab, AnAaSessionIsDecidedEquivalentWithoutAGate) {
  TempDir dir;
  const auto f = run_perfzero({"ab", "--baseline", "sleep 0.03", "--candidate", "sleep 0.03", "--output_dir=ab",
                               "--max_time=2m", "--color=never"},
                              dir.path());
  EXPECT_EQ(f.exit_code, 0) << f.out << f.err;
  EXPECT_NE(f.out.find("command  wall_time"), std::string::npos) << f.out;
  EXPECT_NE(f.out.find("0 slower, 0 faster"), std::string::npos) << f.out;
  EXPECT_EQ(f.out.find("slower", f.out.find("0 slower") + 8), std::string::npos) << "only in the counts: " << f.out;
  EXPECT_EQ(f.out.find("\033["), std::string::npos) << "no colour when asked for none";
}

TEST(Ab, ParameterSidesCompareTwoValuesOfOneParameter) {
  TempDir dir;
  // A built-in method: its declared parameter, typed; and a command's {placeholder}. The planted step
  // is 50 %: each trial's wall time also holds the worker's start, about 30 ms under ASan, which made
  // a 10 % step in the sleep a 6 % one, close enough to --min_change's 5 % to come out unknown (CI,
  // stop 31). The point here is the parameter's plumbing; the 10 % sensitivity is tested above.
  const auto builtin = run_perfzero({"ab", "--benchmark_methods=sanity.Sanity.benchmark_sleep", "--param", "ms=40,60",
                                     "--format=json", "--output_dir=ab1", "--max_time=2m"},
                                    dir.path());
  EXPECT_EQ(builtin.exit_code, 1) << builtin.out << builtin.err;
  const auto doc = nlohmann::json::parse(builtin.out);
  EXPECT_EQ(row(doc, "wall_time").at("verdict"), "slower") << builtin.out;
  EXPECT_EQ(doc.at("baseline").at("source"), "ms=40");
  EXPECT_EQ(doc.at("candidate").at("source"), "ms=60");
  const auto suite = dir.write("s.yaml", R"(
methods:
  - {name: nap, command: [/bin/sleep, "{t}"], params: {t: 0.03}, output: none}
)");
  const auto command = run_perfzero(
      {"ab", "--config=" + suite.string(), "--param", "t=0.03,0.03", "--output_dir=ab2", "--max_time=2m"}, dir.path());
  EXPECT_EQ(command.exit_code, 0) << command.out << command.err;
  const auto none =
      run_perfzero({"ab", "--config=" + suite.string(), "--param", "nosuch=1,2", "--output_dir=ab3"}, dir.path());
  EXPECT_EQ(none.exit_code, 2) << none.err;
  EXPECT_NE(none.err.find("no method of the plan takes a parameter named 'nosuch'"), std::string::npos) << none.err;
}

TEST(Ab, TwoBuildsOfTheSameCodeAreNotSlower) {
  TempDir dir;
  const auto build = (kBinDir / "harness").string();
  const auto f = run_perfzero(
      {"ab", "--baseline_build", build, "--candidate_build", build, "--benchmark_methods=sanity.Sanity.benchmark_sleep",
       "--format=json", "--output_dir=ab", "--max_trials=30", "--max_time=2m", "--alpha=0.001"},
      dir.path());
  // An A/A verdict is wrong at most alpha of the time by design: at the default 0.05 this test failed
  // 1 run in about 20 under ASan beside the other tests (+5.3 % [0.4 %, 10.7 %] after 10 pairs). Its
  // point is the two builds' plumbing, so it asks for a far smaller alpha.
  EXPECT_EQ(f.exit_code, 0) << f.out << f.err;
  const auto doc = nlohmann::json::parse(f.out);
  EXPECT_NE(row(doc, "wall_time").at("verdict"), "slower");
  const auto empty = dir.path() / "empty";
  std::filesystem::create_directories(empty);
  const auto bad = run_perfzero({"ab", "--baseline_build", empty.string(), "--candidate_build", build,
                                 "--benchmark_methods=sanity.Sanity.benchmark_noop", "--output_dir=ab2"},
                                dir.path());
  EXPECT_EQ(bad.exit_code, 2) << bad.err;
  EXPECT_NE(bad.err.find("holds no usable perfzero-worker-*"), std::string::npos) << bad.err;
}

TEST(Ab, BadSidesAreOneLineUsageErrors) {
  TempDir dir;
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"ab"}, "nothing to compare"},
      {{"ab", "--baseline", "true"}, "come as a pair"},
      {{"ab", "--baseline", "true", "--candidate", "true", "--param", "x=1,2"}, "one kind of sides only"},
      {{"ab", "--baseline", "echo 'unclosed", "--candidate", "true"}, "an unclosed ' quote"},
      {{"ab", "--baseline", "no-such-program-here", "--candidate", "true"}, "was not found on PATH"},
      {{"ab", "--param", "x=1", "--benchmark_methods=sanity.Sanity.benchmark_noop"},
       "expected NAME=BASELINE,CANDIDATE"},
      {{"ab", "--param", "x=1,2"}, "give --benchmark_methods"},
      {{"ab", "--baseline", "true", "--candidate", "true", "--metrics", "(["}, "not a regular expression"},
      {{"ab", "--baseline", "true", "--candidate", "true", "--max_time", "soon"}, "--max_time"},
  };
  for (const auto& [args, message] : cases) {
    const auto f = run_perfzero(args, dir.path());
    EXPECT_EQ(f.exit_code, 2) << args.back() << ": " << f.err;
    EXPECT_NE(f.err.find(message), std::string::npos) << f.err;
    EXPECT_EQ(std::count(f.err.begin(), f.err.end(), '\n'), 1) << f.err;
  }
}

TEST(Ab, ACommandThatAlwaysFailsStopsEarlyAsMissing) {
  TempDir dir;
  const auto f = run_perfzero(
      {"ab", "--baseline", "false", "--candidate", "true", "--format=json", "--output_dir=ab", "--warmup_trials=0"},
      dir.path());
  EXPECT_EQ(f.exit_code, 0) << f.out << f.err;
  const auto doc = nlohmann::json::parse(f.out);
  EXPECT_EQ(row(doc, "wall_time").at("verdict"), "missing");
  EXPECT_NE(row(doc, "wall_time").at("reason").get<std::string>().find("no baseline trial succeeded"),
            std::string::npos)
      << doc.dump();
  EXPECT_EQ(row(doc, "wall_time").at("gate"), "not judged") << doc.dump();
  // Ended by --max_trials before three failures: still the baseline's failure, not the candidate's.
  const auto short_session = run_perfzero({"ab", "--baseline", "false", "--candidate", "true", "--format=json",
                                           "--output_dir=ab2", "--warmup_trials=0", "--max_trials=2"},
                                          dir.path());
  EXPECT_EQ(short_session.exit_code, 0) << short_session.out << short_session.err;
  const auto short_doc = nlohmann::json::parse(short_session.out);
  EXPECT_EQ(row(short_doc, "wall_time").at("gate"), "not judged") << short_doc.dump();
}

// The gate (compare/gate.hpp): a candidate that measured nothing fails it, whatever the baseline did
// (issue 37: `ab --baseline /bin/true --candidate /bin/false` said "1 missing on one side", exit 0).
TEST(Ab, ACandidateThatAlwaysFailsFailsTheGateUnlessMissingIsAccepted) {
  TempDir dir;
  const auto f = run_perfzero({"ab", "--baseline", "/bin/true", "--candidate", "/bin/false", "--output_dir=ab",
                               "--warmup_trials=0", "--junit=ab.xml"},
                              dir.path());
  EXPECT_EQ(f.exit_code, 1) << f.out << f.err;
  EXPECT_NE(f.out.find("gate: failed (exit 1): 1 with no measurement from the candidate"), std::string::npos) << f.out;
  std::ifstream xml(dir.path() / "ab.xml");
  const std::string junit((std::istreambuf_iterator<char>(xml)), {});
  EXPECT_NE(junit.find("failures=\"1\""), std::string::npos) << junit;
  EXPECT_NE(junit.find("skipped=\"0\""), std::string::npos) << junit;
  const auto accepted = run_perfzero({"ab", "--baseline", "/bin/true", "--candidate", "/bin/false", "--output_dir=ab2",
                                      "--warmup_trials=0", "--pass_on=missing", "--format=json"},
                                     dir.path());
  EXPECT_EQ(accepted.exit_code, 0) << accepted.out << accepted.err;
  const auto doc = nlohmann::json::parse(accepted.out);
  EXPECT_EQ(doc.at("gate").at("status"), "passed") << doc.dump();
  EXPECT_EQ(doc.at("gate").at("no_measurement"), 1) << doc.dump();
  EXPECT_EQ(row(doc, "wall_time").at("gate"), "no measurement") << doc.dump();
  const auto bad = run_perfzero({"ab", "--baseline", "true", "--candidate", "true", "--pass_on=maybe"}, dir.path());
  EXPECT_EQ(bad.exit_code, 2) << bad.err;
  EXPECT_NE(bad.err.find("--pass_on"), std::string::npos) << bad.err;
}

TEST(Ab, ASpentTimeBudgetLeavesUndecidedMetricsUnknown) {
  TempDir dir;
  // The same command on both sides, sleeping 10 to 90 ms at random, with a budget of a second:
  // nothing can be decided, and the session ends with a last look, not a guess. The sleep is drawn
  // from /dev/urandom: one drawn from the shell's PID followed the two sides' alternating PIDs, and
  // `ab` rightly called one side faster. --alpha=0.001: a dozen pairs cannot reach that level
  // unless every sign agrees (a chance of 1 in 2^11), so the test does not fail by chance.
  const std::string random_sleep = "/bin/sh -c 'sleep 0.0$(($(od -An -N1 -tu1 /dev/urandom) % 9 + 1))'";
  const auto f = run_perfzero({"ab", "--baseline", random_sleep, "--candidate", random_sleep, "--format=json",
                               "--output_dir=ab", "--max_time=1s", "--warmup_trials=0", "--alpha=0.001"},
                              dir.path());
  // Undecided is neither a pass nor a failure: its own exit status, said on stderr beside the JSON.
  EXPECT_EQ(f.exit_code, 5) << f.out << f.err;
  EXPECT_NE(f.err.find("gate: undecided (exit 5)"), std::string::npos) << f.err;
  const auto doc = nlohmann::json::parse(f.out);
  EXPECT_EQ(doc.at("gate").at("status"), "undecided") << doc.dump();
  EXPECT_EQ(row(doc, "wall_time").at("verdict"), "unknown") << doc.dump();
  EXPECT_NE(doc.at("design").get<std::string>().find("--max_time"), std::string::npos) << doc.at("design");
  EXPECT_NE(f.err.find("unknown: the budget"), std::string::npos) << f.err;
}

TEST(Ab, AStopSignalEndsBothRunsInterruptedAndPrintsWhatIsKnown) {
  TempDir dir;
  RunningPerfzero p({"ab", "--baseline", "sleep 0.2", "--candidate", "sleep 0.2", "--output_dir=ab"}, dir.path());
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  p.signal(SIGINT);
  const auto f = p.wait();
  EXPECT_EQ(f.exit_code, 130) << f.out << f.err;
  EXPECT_NE(f.out.find("wall_time"), std::string::npos) << f.out;
  EXPECT_NE(f.err.find("interrupted by SIGINT"), std::string::npos) << f.err;
  EXPECT_EQ(read_json(dir.path() / "ab" / "baseline" / "run.json")["status"], "interrupted");
  EXPECT_EQ(read_json(dir.path() / "ab" / "candidate" / "run.json")["status"], "interrupted");
  EXPECT_TRUE(processes_started_under(dir.path()).empty());
}

}  // namespace
}  // namespace perfzero::testing::ab_test
