// perfzero's subcommands through the real binary: list (and its --list alias), validate, the
// commands still to come, and unknown ones.
#include <gtest/gtest.h>

#include <cstdio>

#include "../unit/temp_dir.hpp"
#include "perfzero_runner.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::testing::subcommands_test {
namespace {

const std::filesystem::path kBadSuites = kSourceDir / "tests" / "fixtures" / "bad_suites";
const std::filesystem::path kSmoke = kSourceDir / "benchmarks" / "suites" / "cpu_smoke.yaml";

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// What a shell command prints on stdout.
std::string shell_output(const std::string& command) {
  std::string out;
  std::FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) return "popen failed";
  char buffer[4096];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) out.append(buffer, n);
  ::pclose(pipe);
  return out;
}

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

TEST(Subcommands, VersionSaysTheBuildAndTheWorkersFound) {
  TempDir dir;
  const auto f = run_perfzero({"--version"}, dir.path());
  EXPECT_EQ(f.exit_code, 0) << f.err;
  EXPECT_TRUE(f.out.starts_with("perfzero 0.")) << f.out;
  EXPECT_TRUE(contains(f.out, "\nbuild: ")) << f.out;
  EXPECT_TRUE(contains(f.out, "onednn=")) << f.out;
  EXPECT_TRUE(contains(f.out, "  core ")) << f.out;
  EXPECT_TRUE(contains(f.out, (kBinDir / "harness" / "perfzero-worker-core").string())) << f.out;
}

// Each shell's script loaded in that shell, and asked what it completes. zsh's needs a terminal to
// complete in, so zsh only parses its script.
TEST(Subcommands, CompletionScriptsCompleteCommandsFlagsChoicesAndMethods) {
  TempDir dir;
  const std::string path = "PATH=" + (kBinDir / "harness").string() + ":/usr/bin:/bin";
  auto output_of = [&](const std::string& command) { return shell_output(path + " " + command + " 2>&1"); };
  for (const char* sh : {"bash", "zsh", "fish"}) {
    const auto f = run_perfzero({"completion", sh}, dir.path());
    ASSERT_EQ(f.exit_code, 0) << f.err;
    const auto file = dir.write(std::string("perfzero.") + sh, f.out);
    EXPECT_EQ(output_of(std::string(sh) + " -n " + file.string()), "") << sh;
  }
  const auto bash = dir.write("complete.bash", R"(source "$1"
comp() {
  COMP_LINE="$1"; COMP_POINT=${#1}
  read -ra COMP_WORDS <<< "$1"; [[ "$1" == *" " ]] && COMP_WORDS+=("")
  COMP_CWORD=$((${#COMP_WORDS[@]}-1)); COMPREPLY=()
  _perfzero; echo "[$1] ${COMPREPLY[*]}"
}
comp "perfzero --lock_g"
comp "perfzero --lock_gpu_clocks="
comp "perfzero --benchmark_methods=sanity.Sanity.benchmark_n"
comp "perfzero vali"
comp "perfzero doctor --format="
comp "perfzero completion "
comp "perfzero history "
)");
  const std::string completed = output_of("bash " + bash.string() + " " + (dir.path() / "perfzero.bash").string());
  EXPECT_TRUE(contains(completed, "[perfzero --lock_g] --lock_gpu_clocks=\n")) << completed;
  EXPECT_TRUE(contains(completed, "[perfzero --lock_gpu_clocks=] base max\n")) << completed;
  EXPECT_TRUE(contains(completed, "sanity.Sanity.benchmark_noop")) << completed;
  EXPECT_TRUE(contains(completed, "[perfzero vali] validate\n")) << completed;
  EXPECT_TRUE(contains(completed, "[perfzero doctor --format=] text json\n")) << completed;
  EXPECT_TRUE(contains(completed, "[perfzero completion ] bash zsh fish")) << completed;
  EXPECT_TRUE(contains(completed, "[perfzero history ] ingest list show")) << completed;
  const std::string fish = output_of("fish -c 'source " + (dir.path() / "perfzero.fish").string() +
                                     "; complete -C\"perfzero --lock_gpu_clocks=\"; complete -C\"perfzero li\"; "
                                     "complete -C\"perfzero --benchmark_methods=sanity.Sanity.benchmark_no\"'");
  EXPECT_TRUE(contains(fish, "--lock_gpu_clocks=max\t")) << fish;
  EXPECT_TRUE(contains(fish, "list\t")) << fish;
  EXPECT_TRUE(contains(fish, "--benchmark_methods=sanity.Sanity.benchmark_noop\t")) << fish;
}

TEST(Subcommands, TheManPageReadsCleanAndHasEveryCommandAndFlag) {
  TempDir dir;
  const auto f = run_perfzero({"manpage"}, dir.path());
  ASSERT_EQ(f.exit_code, 0) << f.err;
  const auto page = dir.write("perfzero.1", f.out);
  EXPECT_EQ(shell_output("MANWIDTH=80 man --warnings -l " + page.string() + " 2>&1 >/dev/null"), "")
      << "groff's warnings about the page";
  for (const char* part : {".TH PERFZERO 1", "perfzero completion", "perfzero history ingest", "\\-\\-lock_gpu_clocks",
                           "\\-\\-benchmark_methods", "PERFZERO_WORKER_CACHE"}) {
    EXPECT_TRUE(contains(f.out, part)) << part;
  }
}

}  // namespace
}  // namespace perfzero::testing::subcommands_test
