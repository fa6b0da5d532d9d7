// Inputs that used to crash a run, overwrite reports or be silently rewritten: each on the real
// binary (the hardening issue's items 3, 4, 5, 12, 13, 18 and 19).
#include <sys/stat.h>

#include <cstdlib>
#include <set>

#include <gtest/gtest.h>

#include "../unit/temp_dir.hpp"
#include "perfzero_runner.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::testing::config_hardening_test {
namespace {

const std::string kNotUtf8 = "caf\xe9";  // Latin-1 'é': not valid UTF-8

// summary.json's methods, each with the run directory's folder its trials were written to.
nlohmann::json methods_of(const std::filesystem::path& run) {
  auto methods = read_json(run / "summary.json")["methods"];
  for (auto& m : methods) {
    const std::string trial_dir = m["trials"][0]["dir"].get<std::string>();
    m["dir"] = std::filesystem::path(trial_dir).parent_path().string();
  }
  return methods;
}

TEST(NotUtf8, EveryEntryPointKeepsRunning) {
  TempDir dir;
  // The DMI tree of a machine whose firmware strings are Latin-1.
  const auto dmi = dir.path() / "dmi";
  std::filesystem::copy(kSourceDir / "tests/fixtures/dmi/aws", dmi);
  std::filesystem::permissions(dmi, std::filesystem::perms::owner_all, std::filesystem::perm_options::add);
  for (const auto& f : std::filesystem::directory_iterator(dmi)) {
    std::filesystem::permissions(f.path(), std::filesystem::perms::owner_write, std::filesystem::perm_options::add);
  }
  dir.write("dmi/product_name", kNotUtf8 + "\n");
  const auto suite =
      dir.write("suite.yaml", "suite: s" + kNotUtf8 + "\nmethods:\n  - name: ext." + kNotUtf8 +
                                  "\n    command: [/bin/true, \"x" + kNotUtf8 + "\"]\n    output: none\n");
  ::setenv("ZZ", kNotUtf8.c_str(), 1);
  const auto f =
      run_perfzero({"--config", suite.string(), "--benchmark_methods=sanity.Sanity.benchmark_noop",
                    "--execution_label=l" + kNotUtf8, "--output_dir=run" + kNotUtf8, "--dmi_root=" + dmi.string()},
                   dir.path());
  ::unsetenv("ZZ");
  EXPECT_EQ(f.exit_code, 0) << f.err;
  EXPECT_EQ(methods_of(dir.path() / ("run" + kNotUtf8)).size(), 2U);
}

TEST(CaseDirectories, NamesThatSanitizeAlikeKeepTheirOwnReports) {
  TempDir dir;
  std::string methods;
  for (const std::string name : {"x y", "x_y", "c.日本", "c.中国", "ext_n_1_"}) {
    methods += "  - {name: \"" + name + "\", command: [/bin/true], output: none}\n";
  }
  methods += "  - {name: ext, command: [/bin/true, \"{n}\"], output: none, params: {n: [1]}}\n";
  const auto suite = dir.write("suite.yaml", "methods:\n" + methods);
  const auto f = run_perfzero({"--config", suite.string(), "--output_dir=run"}, dir.path());
  ASSERT_EQ(f.exit_code, 0) << f.err;
  std::set<std::string> dirs;
  for (const auto& c : methods_of(dir.path() / "run")) {
    dirs.insert(c["dir"].get<std::string>());
    EXPECT_TRUE(std::filesystem::exists(dir.path() / "run" / c["dir"].get<std::string>() / "trial_1")) << c["name"];
  }
  EXPECT_EQ(dirs.size(), 6U);
  EXPECT_TRUE(dirs.count("x_y") == 1 && dirs.count("ext_n_1_") == 1);  // names needing no change keep theirs
}

// A method named like one of the run directory's own files gets a directory of its own, and the
// run's file stays what it is.
TEST(CaseDirectories, ANameThatIsARunDirectoryEntryGetsAnotherDirectory) {
  TempDir dir;
  const auto suite = dir.write("suite.yaml", R"(methods:
  - {name: .perfzero.reserve, command: [/bin/true], output: none}
  - {name: summary.md, command: [/bin/true], output: none}
  - {name: run_facts, command: [/bin/true], output: none}
)");
  const auto f = run_perfzero({"--config", suite.string(), "--output_dir=run"}, dir.path());
  ASSERT_EQ(f.exit_code, 0) << f.err;
  for (const auto& c : methods_of(dir.path() / "run")) {
    const auto name = c["dir"].get<std::string>();
    EXPECT_NE(name, c["name"].get<std::string>());
    EXPECT_TRUE(std::filesystem::exists(dir.path() / "run" / name / "trial_1" / "perfzero_summary.json")) << name;
  }
  EXPECT_TRUE(std::filesystem::is_regular_file(dir.path() / "run" / "summary.md"));
}

TEST(CaseDirectories, ANameOver255BytesIsShortenedNotFatal) {
  TempDir dir;
  const std::string name = "ext." + std::string(300, 'a');
  const auto suite =
      dir.write("suite.yaml", "methods:\n  - {name: " + name + ", command: [/bin/true], output: none}\n");
  const auto f = run_perfzero({"--config", suite.string(), "--output_dir=run"}, dir.path());
  ASSERT_EQ(f.exit_code, 0) << f.err;
  const auto c = methods_of(dir.path() / "run")[0];
  EXPECT_EQ(c["name"], name);
  EXPECT_LE(c["dir"].get<std::string>().size(), 200U);
}

TEST(ExternalParams, QuotedValuesReachTheCommandByteForByte) {
  TempDir dir;
  const auto suite = dir.write("suite.yaml", R"(methods:
  - name: ext.args
    command: [sh, -c, 'printf "%s\n" "$@" > "$PERFZERO_TRIAL_DIR/args.txt"', sh, "{a}", "{b}", "{c}", "{d}", "{e}", "{f}"]
    output: none
    params: {a: "007", b: "1.10", c: "1e3", d: "off", e: "1234567890123456789012", f: 1.10}
)");
  const auto f = run_perfzero({"--config", suite.string(), "--output_dir=run"}, dir.path());
  ASSERT_EQ(f.exit_code, 0) << f.err;
  const auto c = methods_of(dir.path() / "run")[0];
  EXPECT_EQ(slurp(dir.path() / "run" / c["dir"].get<std::string>() / "trial_1" / "args.txt"),
            "007\n1.10\n1e3\noff\n1234567890123456789012\n1.10\n");
}

TEST(MaxCases, TheFlagLimitsThePlanBeforeItIsBuilt) {
  TempDir dir;
  const auto suite =
      dir.write("suite.yaml", "methods:\n  - {method: sanity.Sanity.benchmark_sleep, params: {ms: [1, 2, 3]}}\n");
  const auto f = run_perfzero({"--config", suite.string(), "--max_cases=2", "--dry_run"}, dir.path());
  EXPECT_EQ(f.exit_code, 2);
  EXPECT_NE(f.err.find("methods[0]: expands to 3 cases (3 in the run so far), over the limit of 2 (--max_cases"),
            std::string::npos)
      << f.err;
  EXPECT_EQ(run_perfzero({"--config", suite.string(), "--max_cases=3", "--dry_run"}, dir.path()).exit_code, 0);
}

// Issue 20: max_cases accepted 1e8, though each case costs about 2.4 KB (1e6 cases took 2.4 GB in
// --dry_run, 1e8 ended in std::bad_alloc): the ceiling is what fits in 1 GiB, and the error says why.
TEST(MaxCases, TheCeilingIsWhatAPlanCanHoldInAGibibyteAndSaysSo) {
  TempDir dir;
  const auto flag = run_perfzero(
      {"--benchmark_methods=sanity.Sanity.benchmark_noop", "--max_cases=100000000", "--dry_run"}, dir.path());
  EXPECT_EQ(flag.exit_code, 2);
  EXPECT_NE(flag.err.find("--max_cases: expected a whole number from 1 to 400000, got '100000000' (a plan takes "
                          "about 2.4 KB per case, so 400000 cases fit in 1 GiB)"),
            std::string::npos)
      << flag.err;
  const auto suite = dir.write("big.yaml", "max_cases: 100000000\nmethods: [{method: sanity.Sanity.benchmark_noop}]\n");
  const auto in_suite = run_perfzero({"--config", suite.string(), "--dry_run"}, dir.path());
  EXPECT_EQ(in_suite.exit_code, 2);
  EXPECT_NE(in_suite.err.find("big.yaml:1:12: max_cases: at most 400000"), std::string::npos) << in_suite.err;
}

TEST(ConfigFile, DirectoriesFifosAndDevicesAreNamedWithoutHanging) {
  TempDir dir;
  ASSERT_EQ(::mkfifo((dir.path() / "fifo").c_str(), 0600), 0);
  const std::vector<std::pair<std::string, std::string>> cases{
      {dir.path().string(), "is a directory; --config expects a suite file"},
      {(dir.path() / "fifo").string(), "is not a regular file (a FIFO, device or socket)"},
      {"/dev/zero", "is not a regular file"},
  };
  for (const auto& [path, expected] : cases) {
    const auto f = run_perfzero({"--config", path}, dir.path());
    EXPECT_EQ(f.exit_code, 2) << path;
    EXPECT_NE(f.err.find(expected), std::string::npos) << f.err;
  }
}

TEST(Flags, AnEmptyValueDoesNotSwallowTheNextFlag) {
  TempDir dir;
  const auto f = run_perfzero({"--benchmark_methods=", "--dry_run"}, dir.path());
  EXPECT_EQ(f.exit_code, 2);
  EXPECT_NE(f.err.find("--benchmark_methods: the value is empty"), std::string::npos) << f.err;
}

TEST(ChildResult, ADuplicateMetricNameIsInvalid) {
  TempDir dir;
  const auto suite = dir.write("suite.yaml", R"(methods:
  - name: ext.dup
    command: [sh, -c, 'echo "{\"metrics\": [{\"name\": \"m\", \"value\": 1}, {\"name\": \"m\", \"value\": 2}]}" > "$PERFZERO_RESULT_FILE"']
)");
  const auto f = run_perfzero({"--config", suite.string(), "--output_dir=run"}, dir.path());
  EXPECT_EQ(f.exit_code, 1) << f.err;
  const auto trial = read_json(dir.path() / "run" / "summary.json")["methods"][0]["trials"][0];
  EXPECT_EQ(trial["outcome"], "invalid") << trial.dump();
  EXPECT_NE(trial.dump().find("already used by metrics[0]"), std::string::npos) << trial.dump();
}

}  // namespace
}  // namespace perfzero::testing::config_hardening_test
