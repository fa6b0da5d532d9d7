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
  // Two assignments, not a chained one: g++ 12 warns falsely (-Wrestrict) on the chain when a unity
  // batch inlines it.
  c.name = "m";
  c.method = "m";
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
  InheritedEnvironment inherited;
  const auto command = child_command(a_command(), "/run/m/trial_3", 3, "", inherited);
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
  InheritedEnvironment inherited;
  ::unsetenv("PZ_TEST_JOB");
  EXPECT_TRUE(
      with_prefix(child_command(a_command(), "/r/m/trial_1", 1, "", inherited).environment, "PZ_TEST_JOB").empty());
  ::setenv("PZ_TEST_JOB", "17", 1);
  EXPECT_EQ(with_prefix(child_command(a_command(), "/r/m/trial_2", 2, "", inherited).environment, "PZ_TEST_JOB"),
            std::vector<std::string>{"PZ_TEST_JOB=17"});
  ::setenv("PZ_TEST_JOB", "18", 1);
  EXPECT_EQ(with_prefix(child_command(a_command(), "/r/m/trial_3", 3, "", inherited).environment, "PZ_TEST_JOB"),
            std::vector<std::string>{"PZ_TEST_JOB=18"});
  ::unsetenv("PZ_TEST_JOB");
  EXPECT_TRUE(
      with_prefix(child_command(a_command(), "/r/m/trial_4", 4, "", inherited).environment, "PZ_TEST_JOB").empty());
}

}  // namespace
}  // namespace perfzero::session::child_command_test
