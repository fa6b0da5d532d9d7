// Broken suites and flags: each gives one clear line and exit code 2, runs nothing, and never
// crashes the harness. Every file in tests/fixtures/bad_suites/ names its expected error on line 1.
#include <gtest/gtest.h>

#include "../unit/temp_dir.hpp"
#include "perfzero_runner.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::testing::bad_input_test {
namespace {

std::string expected_error(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::string first;
  std::getline(in, first);
  const std::string marker = "# expect: ";
  return first.rfind(marker, 0) == 0 ? first.substr(marker.size()) : "";
}

void expect_one_clear_line(const Finished& f, const std::string& expected, const std::string& what) {
  EXPECT_EQ(f.exit_code, 2) << what << "\n" << f.err;
  EXPECT_EQ(f.err.rfind("perfzero: error: ", 0), 0U) << what << "\n" << f.err;
  EXPECT_EQ(std::count(f.err.begin(), f.err.end(), '\n'), 1) << what << "\n" << f.err;
  EXPECT_NE(f.err.find(expected), std::string::npos) << what << "\nexpected: " << expected << "\ngot: " << f.err;
}

TEST(BadSuites, EachBrokenFileGivesItsErrorAndRunsNothing) {
  const auto corpus = kSourceDir / "tests" / "fixtures" / "bad_suites";
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(corpus)) {
    TempDir dir;
    const auto expected = expected_error(entry.path());
    ASSERT_FALSE(expected.empty()) << entry.path() << " has no '# expect: ' first line";
    // Bounded: some of these once made the YAML parser loop, taking memory as fast as it could.
    RunningPerfzero p({"--config", entry.path().string(), "--output_dir=run"}, dir.path());
    const auto f = p.wait_bounded(std::chrono::seconds(60), 1L << 20);
    expect_one_clear_line(f, expected, entry.path().filename().string());
    EXPECT_FALSE(std::filesystem::exists(dir.path() / "run")) << entry.path();
    ++files;
  }
  EXPECT_GE(files, 25);
}

TEST(BadSuites, AMissingFileIsNamed) {
  TempDir dir;
  const auto f = run_perfzero({"--config=/no/such/suite.yaml"}, dir.path());
  expect_one_clear_line(f, "/no/such/suite.yaml: no such suite file", "missing file");
}

// A UTF-16 file (Windows editors save "Unicode" so) cannot start with the '# expect:' line the corpus
// uses: its byte order mark comes first.
TEST(BadSuites, AUtf16SuiteIsNamedWithTheCommandThatConvertsIt) {
  TempDir dir;
  std::string utf16 = "\xff\xfe";
  for (const char c : std::string("methods:\n  - {name: a, command: [/bin/true]}\n")) utf16 += std::string{c, '\0'};
  const auto suite = dir.write("utf16.yaml", utf16);
  const auto f = run_perfzero({"--config", suite.string(), "--output_dir=run"}, dir.path());
  expect_one_clear_line(f,
                        suite.string() +
                            ": starts with a UTF-16 byte order mark; a suite file must be UTF-8 text (a "
                            "UTF-16 file converts with iconv -f UTF-16 -t UTF-8)",
                        "UTF-16 suite");
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "run"));
}

// The same suite three times, once through another path: one line naming each place, not a name
// collision at one of them.
TEST(BadSuites, TheSameSuiteGivenAgainIsRefusedNamingEveryPlace) {
  TempDir dir;
  const auto suite = dir.write("s.yaml", "methods:\n  - {name: a, command: [/bin/true], output: none}\n");
  std::filesystem::create_symlink(suite, dir.path() / "link.yaml");
  const auto f = run_perfzero({"--config", suite.string(), "--config", suite.string(), "--config",
                               (dir.path() / "link.yaml").string(), "--output_dir=run"},
                              dir.path());
  expect_one_clear_line(f,
                        "--config: the same suite is given 3 times: --config #1 '" + suite.string() +
                            "', --config #2 '" + suite.string() + "', --config #3 '" +
                            (dir.path() / "link.yaml").string() + "'; give each suite once",
                        "repeated suite");
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "run"));
  // Two suites naming one method: the collision names both places.
  const auto other = dir.write("t.yaml", "methods:\n  - {name: a, command: [/bin/true], output: none}\n");
  const auto g = run_perfzero({"--config", suite.string(), "--config", other.string(), "--output_dir=run"}, dir.path());
  expect_one_clear_line(
      g,
      other.string() + ":2:5: name: 'a' is already used by another method of this run (at " + suite.string() + ":2:5)",
      "name collision");
}

TEST(BadFlags, EachGivesOneLineNamingTheFlag) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases{
      {{"--benchmark_method=x"}, "unknown flag --benchmark_method; did you mean '--benchmark_methods'?"},
      {{"--benchmark_methods=sanity.Sanity.benchmark_nop"}, "did you mean 'sanity.Sanity.benchmark_noop'"},
      {{"--benchmark_methods=sanity.Sanity.benchmark_noop", "--benchmark_num_trials=abc"},
       "--benchmark_num_trials: expected a whole number from 1 to 100000, got 'abc'"},
      {{"--benchmark_methods=sanity.Sanity.benchmark_noop", "--timeout=5parsecs"}, "--timeout: expected a duration"},
      {{"--benchmark_methods=sanity.Sanity.benchmark_noop", "--timeout=5000000h"},
       "--timeout: over the maximum of 30 days (720h), got '5000000h'"},
      {{"--benchmark_methods=sanity.Sanity.benchmark_noop", "--timeout=99999999999999999h"},
       "--timeout: over the maximum of 30 days"},
      {{"--benchmark_methods=sanity.Sanity.benchmark_noop", "--timeout=0.4ms"},
       "--timeout: below the 1ms resolution (0 means none), got '0.4ms'"},
      {{"--benchmark_methods=sanity.Sanity.benchmark_noop", "--monitor_interval_ms=0"},
       "--monitor_interval_ms: expected a whole number from 1"},
      {{"--benchmark_methods=sanity.Sanit.filter:x"}, "unknown benchmark class 'sanity.Sanit'"},
      {{}, "nothing to run"},
      {{"stray"}, "unknown command 'stray'"},
      {{"stray.yaml"}, "unexpected argument 'stray.yaml'"},
  };
  for (const auto& [args, expected] : cases) {
    TempDir dir;
    expect_one_clear_line(run_perfzero(args, dir.path()), expected, args.empty() ? "(no args)" : args[0]);
  }
}

TEST(Cli, HelpListAndDryRunExitZero) {
  TempDir dir;
  const auto help = run_perfzero({"--help"}, dir.path());
  EXPECT_EQ(help.exit_code, 0);
  for (const char* flag : {"--benchmark_methods", "--benchmark_num_trials", "--execution_label", "--platform_name",
                           "--system_name", "--execution_id", "--root_data_dir", "--ml_framework_build_label",
                           "--debug", "--config", "--output_dir", "--list", "--dry_run", "--timeout", "--warmup_trials",
                           "--monitor_interval_ms", "--instance_type", "--resume"}) {
    EXPECT_NE(help.out.find(flag), std::string::npos) << flag;
  }
  const auto list = run_perfzero({"--list"}, dir.path());
  EXPECT_EQ(list.exit_code, 0);
  EXPECT_NE(list.out.find("sanity.Sanity.benchmark_sleep"), std::string::npos);
  EXPECT_NE(list.out.find("param ms (integer, default 100)"), std::string::npos);
  const auto dry = run_perfzero(
      {"--config", (kSourceDir / "benchmarks" / "suites" / "cpu_smoke.yaml").string(), "--dry_run", "--output_dir=run"},
      dir.path());
  EXPECT_EQ(dry.exit_code, 0) << dry.err;
  EXPECT_NE(dry.out.find("sanity.Sanity.benchmark_sleep[ms=10]"), std::string::npos) << dry.out;
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "run"));
}

}  // namespace
}  // namespace perfzero::testing::bad_input_test
