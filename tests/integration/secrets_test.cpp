// No secret reaches a report, a log of the harness, a --dry_run plan or a --debug line: thirteen kinds are
// planted and every file of the run directory, and the output, is searched for them.
#include <cstdlib>

#include <gtest/gtest.h>

#include "../unit/temp_dir.hpp"
#include "perfzero_runner.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::testing::secrets_test {
namespace {

const std::vector<std::string> kSecrets{"sekrit01env",   "sekrit02url",   "sekrit03argv",   "sekrit04pw",
                                        "sekrit05tok",   "sekrit06key",   "sekrit07suite",  "sekrit08flag",
                                        "sekrit09label", "sekrit10param", "sekrit11reason", "sekrit12extra",
                                        "sekrit13extra"};

// The command checks that it received the real values (each written in two halves here, so that the
// recorded script does not hold it whole), writes a result and echoes nothing.
const char* kSuite = R"(
methods:
  - name: ext.secrets
    command:
      - /bin/sh
      - -c
      - |
        [ "$2" = "--password=sekrit04""pw" ] && [ "$4" = "sekrit05""tok" ] || exit 9
        [ "$6" = "--db-password=sekrit10""param" ] && [ "$TOKEN" = "sekrit07""suite" ] || exit 9
        printf '{"metrics": [{"name": "n", "value": 1, "unit": "count"}], "extras": {"api_token": "%s", "endpoint": "https://u:%s@x.example/", "keys_per_second": 5}}' "sekrit12""extra" "sekrit13""extra" > "$PERFZERO_RESULT_FILE"
      - sh
      - https://user:sekrit03argv@example.com/x
      - --password=sekrit04pw
      - --token
      - sekrit05tok
      - --api-key=sekrit06key
      - --db-password={password}
    env: {TOKEN: sekrit07suite}
    params: {password: [sekrit10param]}
  # A built-in's string parameter, which the child quotes back as its skip reason.
  - method: sanity.Sanity.benchmark_skip
    params: {reason: "see https://bot:sekrit11reason@ci.example/log"}
)";

// Sets the secret-bearing variables for the perfzero processes this test starts, and removes them.
class SecretEnvironment {
 public:
  SecretEnvironment() {
    ::setenv("PZTEST_API_TOKEN", "sekrit01env", 1);
    ::setenv("DATABASE_URL", "postgres://app:sekrit02url@db.example/app", 1);
  }
  ~SecretEnvironment() {
    ::unsetenv("PZTEST_API_TOKEN");
    ::unsetenv("DATABASE_URL");
  }
  SecretEnvironment(const SecretEnvironment&) = delete;
  SecretEnvironment& operator=(const SecretEnvironment&) = delete;
};

void expect_no_secret(const std::string& where, const std::string& text) {
  for (const auto& secret : kSecrets) EXPECT_EQ(text.find(secret), std::string::npos) << secret << " in " << where;
}

void expect_no_secret_in_tree(const std::filesystem::path& dir) {
  int files = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
    expect_no_secret("the path " + entry.path().string(), entry.path().string());
    if (!entry.is_regular_file()) continue;
    // The methods write the planted URL and token into their own result.json: that is the method's
    // output, kept as written (docs/reports.md); what the harness makes of it is checked.
    if (entry.path().filename() == "result.json") continue;
    ++files;
    expect_no_secret(entry.path().string(), slurp(entry.path()));
  }
  EXPECT_GT(files, 5);
}

std::vector<std::string> args(const std::filesystem::path& suite, const std::string& extra) {
  return {"--config=" + suite.string(), "--output_dir=run", "--execution_label=https://ci:sekrit09label@ci.example/",
          "--ml_framework_build_label=https://u:sekrit08flag@builds.example/1", extra};
}

TEST(Secrets, NoneIsWrittenToTheRunDirectoryOrPrintedByDebug) {
  SecretEnvironment env;
  TempDir dir;
  const auto suite = dir.write("secrets.yaml", kSuite);
  const auto f = run_perfzero(args(suite, "--debug"), dir.path());
  ASSERT_EQ(f.exit_code, 0) << f.err << f.out;
  EXPECT_NE(f.out.find("--password=<redacted>"), std::string::npos) << f.out;
  expect_no_secret("stdout", f.out);
  expect_no_secret("stderr", f.err);
  expect_no_secret_in_tree(dir.path() / "run");
  // What is recorded stays useful: names, hosts and the command's shape are kept.
  const auto report =
      read_json(dir.path() / "run" / "ext.secrets_password__redacted__" / "trial_1" / "perfzero_summary.json");
  EXPECT_EQ(report["benchmark_info"]["env_vars"]["DATABASE_URL"], "postgres://<redacted>@db.example/app");
  EXPECT_EQ(report["perfzero_cpp"]["command"][7], "<redacted>");
  EXPECT_EQ(report["benchmark_info"]["execution_label"], "https://<redacted>@ci.example/");
  // What the method reported of itself: a secret-named string hidden, a URL's password too, figures kept.
  EXPECT_EQ(report["benchmark_result"]["extras"]["api_token"], "<redacted>");
  EXPECT_EQ(report["benchmark_result"]["extras"]["endpoint"], "https://<redacted>@x.example/");
  EXPECT_EQ(report["benchmark_result"]["extras"]["keys_per_second"], 5);
  const auto skip =
      read_json(dir.path() / "run" / "sanity.Sanity.benchmark_skip_reason_see_https____redacted__ci.example_log_" /
                "trial_1" / "perfzero_summary.json");
  EXPECT_EQ(skip["perfzero_cpp"]["outcome_detail"], "see https://<redacted>@ci.example/log");
}

TEST(Secrets, NoneIsPrintedByDryRun) {
  SecretEnvironment env;
  TempDir dir;
  const auto suite = dir.write("secrets.yaml", kSuite);
  const auto f = run_perfzero(args(suite, "--dry_run"), dir.path());
  ASSERT_EQ(f.exit_code, 0) << f.err << f.out;
  EXPECT_NE(f.out.find("env TOKEN=<redacted>"), std::string::npos) << f.out;
  expect_no_secret("stdout", f.out);
  expect_no_secret("stderr", f.err);
}

// The remote a build was cloned from, with a token in it, is recorded without the token.
TEST(Secrets, BuildInfoKeepsNoTokenFromTheGitRemote) {
  TempDir dir;
  const auto src = dir.path() / "src";
  std::filesystem::create_directories(src);
  const std::string cmd =
      "cd " + src.string() +
      " && git init -q . && git remote add origin https://x-access-token:sekrit11git@github.com/o/r.git"
      " && cmake -DSOURCE_DIR=" +
      src.string() + " -DOUTPUT=" + (dir.path() / "info.hpp").string() + " -DVERSION=0 -P " +
      (kSourceDir / "cmake" / "WriteBuildInfo.cmake").string() + " >/dev/null";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  const std::string info = slurp(dir.path() / "info.hpp");
  EXPECT_EQ(info.find("sekrit11git"), std::string::npos) << info;
  EXPECT_NE(info.find("https://<redacted>@github.com/o/r.git"), std::string::npos) << info;
}

}  // namespace
}  // namespace perfzero::testing::secrets_test
