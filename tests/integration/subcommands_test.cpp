// perfzero's subcommands through the real binary: list (and its --list alias), validate, the
// commands still to come, and unknown ones.
#include <gtest/gtest.h>

#include "../unit/temp_dir.hpp"
#include "perfzero_runner.hpp"

namespace perfzero::testing {
namespace {

const std::filesystem::path kBadSuites = kSourceDir / "tests" / "fixtures" / "bad_suites";
const std::filesystem::path kSmoke = kSourceDir / "benchmarks" / "suites" / "cpu_smoke.yaml";

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(Subcommands, ListJsonIsTheCatalogWithWorkersAndParams) {
  TempDir dir;
  const auto f = run_perfzero({"list", "--format=json"}, dir.path());
  ASSERT_EQ(f.exit_code, 0) << f.err;
  const auto doc = nlohmann::json::parse(f.out);
  EXPECT_EQ(doc.at("list_protocol_version"), 1);
  const nlohmann::json* sleep = nullptr;
  for (const auto& m : doc.at("methods")) {
    if (m.at("name") == "sanity.Sanity.benchmark_sleep") sleep = &m;
  }
  ASSERT_NE(sleep, nullptr) << f.out;
  EXPECT_EQ(sleep->at("worker"), "core");
  EXPECT_TRUE(contains(sleep->at("worker_executable").get<std::string>(), "perfzero-worker-core"));
  EXPECT_EQ(sleep->at("family"), "sanity");
  EXPECT_EQ(sleep->at("class"), "Sanity");
  EXPECT_EQ(sleep->at("params").at(0).at("name"), "ms");
  EXPECT_EQ(sleep->at("params").at(0).at("type"), "integer");
  EXPECT_EQ(sleep->at("params").at(0).at("default"), 100);
  EXPECT_FALSE(doc.at("workers").empty());
}

TEST(Subcommands, ListFlagIsAnAliasOfList) {
  TempDir dir;
  const auto alias = run_perfzero({"--list"}, dir.path());
  const auto list = run_perfzero({"list"}, dir.path());
  EXPECT_EQ(alias.exit_code, 0);
  EXPECT_EQ(list.exit_code, 0);
  EXPECT_EQ(alias.out, list.out);
  EXPECT_TRUE(contains(list.out, "family sanity (perfzero-worker-core)")) << list.out;
  EXPECT_TRUE(contains(list.out, "param ms (integer, default 100)"));
}

TEST(Subcommands, ValidatePrintsThePlanSizeAndRunsNothing) {
  TempDir dir;
  const auto f = run_perfzero({"validate", kSmoke.string()}, dir.path());
  EXPECT_EQ(f.exit_code, 0) << f.err;
  EXPECT_TRUE(contains(f.out, kSmoke.string() + ": valid: ")) << f.out;
  EXPECT_TRUE(contains(f.out, "child run(s)")) << f.out;
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "results"));
}

TEST(Subcommands, ValidateNamesEveryBrokenSuiteWithFileLineColumn) {
  TempDir dir;
  const auto broken = kBadSuites / "unknown_method.yaml";
  const auto f = run_perfzero({"validate", kSmoke.string(), broken.string(), (kBadSuites / "bad_trials.yaml").string()},
                              dir.path());
  EXPECT_EQ(f.exit_code, 2);
  EXPECT_TRUE(contains(f.out, kSmoke.string() + ": valid: ")) << f.out;
  EXPECT_TRUE(contains(f.err, "perfzero: error: " + broken.string() + ":")) << f.err;
  EXPECT_TRUE(contains(f.err, "bad_trials.yaml:")) << f.err;
  EXPECT_EQ(std::count(f.err.begin(), f.err.end(), '\n'), 2) << f.err;
  const auto none = run_perfzero({"validate"}, dir.path());
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_TRUE(contains(none.err, "SUITE")) << none.err;
}

TEST(Subcommands, CompareWithoutRunsSaysWhatItNeedsAndExits2) {
  TempDir dir;
  const auto f = run_perfzero({"compare"}, dir.path());
  EXPECT_EQ(f.exit_code, 2);
  EXPECT_EQ(f.err,
            "perfzero: error: compare: expected BASELINE and CANDIDATE, got 0 run(s) (perfzero compare --help)\n");
}

TEST(Subcommands, UnknownCommandSuggestsTheClosest) {
  TempDir dir;
  const auto f = run_perfzero({"lsit"}, dir.path());
  EXPECT_EQ(f.exit_code, 2);
  EXPECT_TRUE(contains(f.err, "unknown command 'lsit'; did you mean 'list'?")) << f.err;
  EXPECT_EQ(std::count(f.err.begin(), f.err.end(), '\n'), 1) << f.err;
}

TEST(Subcommands, HelpListsTheCommandsAndEachHasItsOwn) {
  TempDir dir;
  const auto top = run_perfzero({"--help"}, dir.path());
  EXPECT_EQ(top.exit_code, 0);
  for (const char* command : {"run", "list", "validate", "report", "compare", "history"}) {
    EXPECT_TRUE(contains(top.out, std::string("  ") + command + " ")) << command << "\n" << top.out;
  }
  const auto list = run_perfzero({"list", "--help"}, dir.path());
  EXPECT_EQ(list.exit_code, 0);
  EXPECT_TRUE(contains(list.out, "--format")) << list.out;
  const auto run = run_perfzero({"run", "--help"}, dir.path());
  EXPECT_EQ(run.exit_code, 0);
  EXPECT_TRUE(contains(run.out, "perfzero run")) << run.out;
  EXPECT_TRUE(contains(run.out, "--benchmark_methods"));
  EXPECT_TRUE(contains(run_perfzero({"validate", "--help"}, dir.path()).out, "SUITE"));
}

TEST(Subcommands, RunIsTheDefault) {
  TempDir dir;
  const auto explicit_run =
      run_perfzero({"run", "--benchmark_methods=sanity.Sanity.benchmark_noop", "--dry_run"}, dir.path());
  const auto plain = run_perfzero({"--benchmark_methods=sanity.Sanity.benchmark_noop", "--dry_run"}, dir.path());
  EXPECT_EQ(explicit_run.exit_code, 0) << explicit_run.err;
  EXPECT_EQ(explicit_run.out, plain.out);
  EXPECT_TRUE(contains(plain.out, "sanity.Sanity.benchmark_noop"));
}

}  // namespace
}  // namespace perfzero::testing
