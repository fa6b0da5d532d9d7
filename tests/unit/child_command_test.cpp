// session/child_command: what a trial's child is started with. The inherited environment is parsed
// once while it holds; what the harness and the suite set wins over it, and a change made during the
// run (a Slurm allocation's SLURM_JOB_ID) reaches the next trial.
#include "session/child_command.hpp"

#include <stdlib.h>

#include <algorithm>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace perfzero::session::child_command_test {
namespace {

config::PlannedCase a_command() {
  config::PlannedCase c;
  // Strings moved in, not assigned from literals: g++ 12 warns falsely (-Wrestrict) on the literals'
  // copy when a unity batch inlines it.
  c.name = std::string("m");
  c.method = std::string("m");
  c.external = true;
  c.command.argv = {"/bin/true"};
  c.env = {{"PZ_TEST_FROM_SUITE", "suite"}, {"PZ_TEST_BOTH", "suite wins"}};
  return c;
}

std::vector<std::string> with_prefix(const std::vector<std::string>& env, const std::string& prefix) {
  std::vector<std::string> out;
  for (const auto& e : env) {
    if (e.rfind(prefix, 0) == 0) out.push_back(e);
  }
  return out;
}

TEST(ChildCommand, TheSuiteAndTheHarnessWinOverTheInheritedEnvironmentInNameOrder) {
  ::setenv("PZ_TEST_BOTH", "inherited", 1);
  ::setenv("PZ_TEST_INHERITED", "kept", 1);
  // The tests after this one in the same process need their own TMPDIR back (temp_directory_path).
  const char* own = std::getenv("TMPDIR");
  const std::optional<std::string> own_tmpdir = own ? std::optional<std::string>(own) : std::nullopt;
  ::setenv("TMPDIR", "/somewhere/else", 1);
  ChildEnvironments environments;
  const auto command = child_command(a_command(), "/run/m/trial_3", 3, "", environments);
  EXPECT_EQ(
      with_prefix(command.environment, "PZ_TEST_"),
      (std::vector<std::string>{"PZ_TEST_BOTH=suite wins", "PZ_TEST_FROM_SUITE=suite", "PZ_TEST_INHERITED=kept"}));
  EXPECT_EQ(with_prefix(command.environment, "TMPDIR="), std::vector<std::string>{"TMPDIR=/run/m/trial_3/tmp"});
  EXPECT_EQ(with_prefix(command.environment, "PERFZERO_TRIAL="), std::vector<std::string>{"PERFZERO_TRIAL=3"});
  EXPECT_TRUE(std::is_sorted(
      command.environment.begin(), command.environment.end(),
      [](const std::string& a, const std::string& b) { return a.substr(0, a.find('=')) < b.substr(0, b.find('=')); }));
  ::unsetenv("PZ_TEST_BOTH");
  ::unsetenv("PZ_TEST_INHERITED");
  if (own_tmpdir) {
    ::setenv("TMPDIR", own_tmpdir->c_str(), 1);
  } else {
    ::unsetenv("TMPDIR");
  }
}

TEST(ChildCommand, AChangeToTheHarnesssEnvironmentReachesTheNextTrial) {
  ChildEnvironments environments;
  ::unsetenv("PZ_TEST_JOB");
  EXPECT_TRUE(
      with_prefix(child_command(a_command(), "/r/m/trial_1", 1, "", environments).environment, "PZ_TEST_JOB").empty());
  ::setenv("PZ_TEST_JOB", "17", 1);
  EXPECT_EQ(with_prefix(child_command(a_command(), "/r/m/trial_2", 2, "", environments).environment, "PZ_TEST_JOB"),
            std::vector<std::string>{"PZ_TEST_JOB=17"});
  ::setenv("PZ_TEST_JOB", "18", 1);
  EXPECT_EQ(with_prefix(child_command(a_command(), "/r/m/trial_3", 3, "", environments).environment, "PZ_TEST_JOB"),
            std::vector<std::string>{"PZ_TEST_JOB=18"});
  ::unsetenv("PZ_TEST_JOB");
  EXPECT_TRUE(
      with_prefix(child_command(a_command(), "/r/m/trial_4", 4, "", environments).environment, "PZ_TEST_JOB").empty());
}

// The merged environment is kept per case: a trial changes only its own variables, and a case that
// changed (another case, or the same object given other variables) is merged again.
TEST(ChildCommand, ATrialSetsOnlyItsOwnVariablesAndAChangedCaseIsMergedAgain) {
  ChildEnvironments environments;
  config::PlannedCase c = a_command();
  const auto third = child_command(c, "/r/m/trial_3", 3, "", environments).environment;
  const auto fourth = child_command(c, "/r/m/trial_4", 4, "", environments).environment;
  ASSERT_EQ(third.size(), fourth.size());
  std::vector<std::string> changed;
  for (std::size_t i = 0; i < third.size(); ++i) {
    if (third[i] != fourth[i]) changed.push_back(fourth[i].substr(0, fourth[i].find('=')));
  }
  EXPECT_EQ(changed, (std::vector<std::string>{"PERFZERO_ATTEMPT", "PERFZERO_RESULT_FILE", "PERFZERO_TRIAL",
                                               "PERFZERO_TRIAL_DIR", "TMPDIR"}));
  EXPECT_EQ(with_prefix(fourth, "PERFZERO_TRIAL_DIR="), std::vector<std::string>{"PERFZERO_TRIAL_DIR=/r/m/trial_4"});
  EXPECT_EQ(with_prefix(fourth, "PERFZERO_RESULT_FILE="),
            std::vector<std::string>{"PERFZERO_RESULT_FILE=/r/m/trial_4/result.json"});
  EXPECT_EQ(with_prefix(fourth, "PERFZERO_RUN_DIR="), std::vector<std::string>{"PERFZERO_RUN_DIR=/r"});
  c.env["PZ_TEST_FROM_SUITE"] = "changed";
  c.params["size"] = std::int64_t{8};
  const auto fifth = child_command(c, "/r/m/trial_5", 5, "/data", environments).environment;
  EXPECT_EQ(with_prefix(fifth, "PZ_TEST_FROM_SUITE="), std::vector<std::string>{"PZ_TEST_FROM_SUITE=changed"});
  EXPECT_EQ(with_prefix(fifth, "PERFZERO_PARAM_SIZE="), std::vector<std::string>{"PERFZERO_PARAM_SIZE=8"});
  EXPECT_EQ(with_prefix(fifth, "PERFZERO_ROOT_DATA_DIR="), std::vector<std::string>{"PERFZERO_ROOT_DATA_DIR=/data"});
  c.name = std::string("renamed");
  EXPECT_EQ(with_prefix(child_command(c, "/r/m/trial_6", 6, "/data", environments).environment, "PERFZERO_METHOD="),
            std::vector<std::string>{"PERFZERO_METHOD=renamed"});
  config::PlannedCase other = a_command();
  other.name = std::string("other");
  EXPECT_EQ(with_prefix(child_command(other, "/r/other/trial_1", 1, "", environments).environment, "PERFZERO_METHOD="),
            std::vector<std::string>{"PERFZERO_METHOD=other"});
}

}  // namespace
}  // namespace perfzero::session::child_command_test
