// launch: (config/launch.hpp), the mpirun and Slurm executors' command lines, what srun's own lines
// say (runner/slurm_executor.hpp), the ranks' reports (child_results/rank_reports.hpp), and how a multi-rank
// trial's outcome names its rank or the engine's verdict (runner/outcome_classifier.hpp).
#include <signal.h>

#include <gtest/gtest.h>

#include "child_results/rank_reports.hpp"
#include "common/errors.hpp"
#include "config/launch.hpp"
#include "config/plan_builder.hpp"
#include "config/suite.hpp"
#include "engines/engine.hpp"
#include "runner/mpirun_executor.hpp"
#include "runner/outcome_classifier.hpp"
#include "runner/slurm_executor.hpp"
#include "scoped_env.hpp"
#include "temp_dir.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::launch_test {
namespace {

using testing::ScopedEnv;
using testing::TempDir;

std::vector<config::PlannedCase> plan_for(const std::filesystem::path& suite, config::RunSettings flags = {},
                                          const std::string& path_env = "/usr/bin:/bin") {
  static const method_catalog::Catalog builtin = [] {
    method_catalog::Catalog c;
    c.add("perfzero-worker-builtin", {"builtin", Registry::instance().methods()});
    return c;
  }();
  config::PlanInputs inputs;
  inputs.catalog = &builtin;
  inputs.suites.push_back(config::load_suite(suite, builtin.registry()));
  inputs.flags = std::move(flags);
  inputs.path_env = path_env;
  return engines::build_checked_plan(inputs);
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

TEST(LaunchText, TheEngineComesFirstThenKeysAndListsSplitOnColons) {
  const auto s = config::parse_launch_text("mpirun,nodes=2,tasks_per_node=4,hosts=a:b,extra_args=--bind-to:none");
  ASSERT_TRUE(s.engine);
  EXPECT_EQ(*s.engine, config::LaunchEngine::mpirun);
  EXPECT_EQ(s.nodes, 2);
  EXPECT_EQ(s.tasks_per_node, 4);
  EXPECT_EQ(*s.hosts, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(*s.extra_args, (std::vector<std::string>{"--bind-to", "none"}));
  EXPECT_EQ(*config::parse_launch_text("local").engine, config::LaunchEngine::local);
}

TEST(LaunchText, EachMistakeIsNamed) {
  EXPECT_NE(
      error_of([] { config::parse_launch_text("pbs"); }).find("expected the engine first (local, mpirun or slurm)"),
      std::string::npos);
  EXPECT_NE(error_of([] { config::parse_launch_text("slurm,gpus_per_task=-1"); }).find("from 0 to 64"),
            std::string::npos);
  EXPECT_NE(error_of([] { config::parse_launch_text("mpirun,nodes=0"); }).find("nodes expected a whole number"),
            std::string::npos);
  EXPECT_NE(error_of([] { config::parse_launch_text("mpirun,tasks_per_node=2x"); }).find("got '2x'"),
            std::string::npos);
  EXPECT_NE(error_of([] { config::parse_launch_text("mpirun,node=2"); }).find("did you mean 'nodes'"),
            std::string::npos);
  EXPECT_NE(error_of([] { config::parse_launch_text("mpirun,2"); }).find("expected key=value"), std::string::npos);
}

TEST(LaunchText, SlurmTakesAPartitionAndGpusPerTask) {
  const auto s = config::parse_launch_text("slurm,nodes=3,partition=gpu,gpus_per_task=1,hosts=a:b:c");
  EXPECT_EQ(*s.engine, config::LaunchEngine::slurm);
  EXPECT_EQ(*s.partition, "gpu");
  EXPECT_EQ(*s.gpus_per_task, 1);
  config::LaunchSpec spec;
  config::apply(s, spec);
  EXPECT_EQ(config::launch_problem(spec), "");
  EXPECT_EQ(config::describe(spec), "slurm, 3 nodes x 1 task x 1 GPU, partition gpu");
}

TEST(LaunchSpec, SlurmRunsOnExactlyTheHostsNamedAndTakesNoHostfile) {
  config::LaunchSpec spec;
  spec.engine = config::LaunchEngine::slurm;
  spec.nodes = 4;
  EXPECT_EQ(config::launch_problem(spec), "") << "Slurm picks the nodes";
  spec.hosts = {"a", "b"};
  EXPECT_NE(config::launch_problem(spec).find("nodes: 4, but hosts names 2"), std::string::npos);
  spec.hosts.clear();
  spec.hostfile = "f";
  EXPECT_NE(config::launch_problem(spec).find("engine slurm takes no hostfile"), std::string::npos);
  config::LaunchSpec mpi;
  mpi.engine = config::LaunchEngine::mpirun;
  mpi.partition = "gpu";
  EXPECT_NE(config::launch_problem(mpi).find("need engine slurm"), std::string::npos);
  config::LaunchSpec local;
  local.gpus_per_task = 1;
  EXPECT_NE(config::launch_problem(local).find("engine local takes no"), std::string::npos);
}

TEST(LaunchSpec, ProblemsOfAWholeSpecAreSaid) {
  config::LaunchSpec local;
  EXPECT_EQ(config::launch_problem(local), "");
  local.tasks_per_node = 2;
  EXPECT_NE(config::launch_problem(local).find("need engine: mpirun"), std::string::npos);
  config::LaunchSpec mpi;
  mpi.engine = config::LaunchEngine::mpirun;
  mpi.tasks_per_node = 3;
  EXPECT_EQ(config::launch_problem(mpi), "");
  mpi.nodes = 2;
  EXPECT_NE(config::launch_problem(mpi).find("needs hosts or a hostfile"), std::string::npos);
  mpi.hosts = {"a"};
  EXPECT_EQ(config::launch_problem(mpi), "nodes: 2, but hosts names 1");
  mpi.hosts = {"a", "b c"};
  EXPECT_NE(config::launch_problem(mpi).find("'b c' is not a host name"), std::string::npos);
  mpi.hosts = {"a", "b"};
  mpi.hostfile = "f";
  EXPECT_EQ(config::launch_problem(mpi), "give hosts or a hostfile, not both");
}

TEST(LaunchSuite, LayersMergeFieldByFieldAndTheFlagWins) {
  TempDir dir;
  ScopedEnv mpirun{{"PERFZERO_MPIRUN", "/bin/true"}};
  const auto file = dir.write("s.yaml", R"(
defaults: {launch: {engine: mpirun, tasks_per_node: 2}}
methods:
  - {method: sanity.Sanity.benchmark_noop, launch: {tasks_per_node: 3}}
  - {name: cmd, command: [/bin/true], launch: {engine: local, tasks_per_node: 1}}
)");
  const auto plan = plan_for(file);
  ASSERT_EQ(plan.size(), 2U);
  EXPECT_EQ(plan[0].launch.engine, config::LaunchEngine::mpirun);
  EXPECT_EQ(plan[0].launch.tasks_per_node, 3);
  EXPECT_EQ(plan[1].launch.engine, config::LaunchEngine::local);
  config::RunSettings flags;
  flags.launch = config::parse_launch_text("mpirun,tasks_per_node=4");
  const auto flagged = plan_for(file, flags);
  EXPECT_EQ(flagged[0].launch.tasks_per_node, 4);
  EXPECT_EQ(flagged[1].launch.engine, config::LaunchEngine::mpirun);
}

TEST(LaunchSuite, ACountSweepMakesOneCasePerValueNamedForItAndTheFlagWins) {
  TempDir dir;
  ScopedEnv mpirun{{"PERFZERO_MPIRUN", "/bin/true"}};
  const auto file = dir.write("s.yaml", R"(
defaults: {launch: {engine: mpirun, hosts: [a, b, c], nodes: [1, 3]}}
methods:
  - {name: cmd, command: [/bin/true], params: {n: [1, 2]}}
  - {name: tasks, command: [/bin/true], launch: {nodes: 2, tasks_per_node: [2, 4]}}
)");
  const auto plan = plan_for(file);
  std::vector<std::string> names;
  for (const auto& c : plan) names.push_back(c.name);
  EXPECT_EQ(names, (std::vector<std::string>{"cmd[n=1,launch.nodes=1]", "cmd[n=1,launch.nodes=3]",
                                             "cmd[n=2,launch.nodes=1]", "cmd[n=2,launch.nodes=3]",
                                             "tasks[launch.tasks_per_node=2]", "tasks[launch.tasks_per_node=4]"}));
  EXPECT_EQ(plan[1].launch.nodes, 3);
  EXPECT_EQ(plan[5].launch.nodes, 2) << "the entry's own count ends the defaults' sweep";
  EXPECT_EQ(plan[5].launch.tasks_per_node, 4);
  config::RunSettings flags;
  flags.launch = config::parse_launch_text("mpirun,nodes=2");
  const auto flagged = plan_for(file, flags);
  ASSERT_EQ(flagged.size(), 4U) << "the flag's count is not swept";
  EXPECT_EQ(flagged[0].name, "cmd[n=1]");
  EXPECT_EQ(flagged[0].launch.nodes, 2);
  const auto bad =
      dir.write("b.yaml", "methods:\n  - {name: c, command: [/bin/true], launch: {engine: mpirun, nodes: [2, 2]}}\n");
  EXPECT_NE(error_of([&] { plan_for(bad); }).find("2 is already in the sweep"), std::string::npos);
  const auto too_many = dir.write(
      "t.yaml", "methods:\n  - {name: c, command: [/bin/true], launch: {engine: mpirun, hosts: [a], nodes: [1, 2]}}\n");
  EXPECT_NE(error_of([&] { plan_for(too_many); }).find("nodes: 2, but hosts names 1 (at launch.nodes=2)"),
            std::string::npos)
      << error_of([&] { plan_for(too_many); });
}

TEST(LaunchSuite, AnUnknownEngineOrKeyIsAnErrorWithItsPlace) {
  TempDir dir;
  const auto engine = dir.write("e.yaml", "methods:\n  - {name: c, command: [/bin/true], launch: {engine: pbs}}\n");
  EXPECT_NE(error_of([&] { plan_for(engine); }).find("e.yaml:2:"), std::string::npos);
  EXPECT_NE(error_of([&] { plan_for(engine); }).find("expected local, mpirun or slurm"), std::string::npos);
  const auto key = dir.write("k.yaml", "methods:\n  - {name: c, command: [/bin/true], launch: {nodez: 2}}\n");
  EXPECT_NE(error_of([&] { plan_for(key); }).find("nodes"), std::string::npos);
  const auto whole =
      dir.write("w.yaml", "methods:\n  - {name: c, command: [/bin/true], launch: {tasks_per_node: 2}}\n");
  EXPECT_NE(error_of([&] { plan_for(whole); }).find("need engine: mpirun"), std::string::npos);
}

TEST(LaunchSuite, MpirunThatIsNotThereIsSaidBeforeAnyTrial) {
  TempDir dir;
  ScopedEnv mpirun{{"PERFZERO_MPIRUN", (dir.path() / "no-mpirun").string()}};
  const auto file = dir.write("s.yaml", "methods:\n  - {name: c, command: [/bin/true], launch: {engine: mpirun}}\n");
  const std::string error = error_of([&] { plan_for(file); });
  EXPECT_NE(error.find("s.yaml:2:"), std::string::npos) << error;
  EXPECT_NE(error.find("is not an executable file"), std::string::npos) << error;
}

TEST(LaunchSuite, SlurmWithoutItsClientCommandsIsSaidBeforeAnyTrial) {
  TempDir dir;
  const auto file = dir.write("s.yaml", "methods:\n  - {name: c, command: [/bin/true], launch: {engine: slurm}}\n");
  // Nothing on the PATH there.
  const std::string error = error_of([&] { plan_for(file, {}, dir.path().string()); });
  EXPECT_NE(error.find("s.yaml:2:"), std::string::npos) << error;
  EXPECT_NE(error.find("launch: engine slurm, but srun is not on the PATH"), std::string::npos) << error;
}

TEST(SrunPrefix, TheStepIsNamedEveryCountIsGivenAndTheAgentComesLast) {
  config::LaunchSpec spec;
  spec.engine = config::LaunchEngine::slurm;
  spec.nodes = 2;
  spec.tasks_per_node = 4;
  spec.hosts = {"n1", "n2"};
  spec.partition = "gpu";
  spec.gpus_per_task = 1;
  EXPECT_EQ(runner::srun_prefix("/usr/bin/srun", spec, "perfzero-h-1-1", "/opt/perfzero-rank"),
            (std::vector<std::string>{"/usr/bin/srun", "--job-name=perfzero-h-1-1", "--nodes=2", "--ntasks-per-node=4",
                                      "--ntasks=8", "--kill-on-bad-exit=1", "--nodelist=n1,n2", "--partition=gpu",
                                      "--gpus-per-task=1", "--mpi=pmix", "/opt/perfzero-rank"}));
  spec.extra_args = {"--mpi=none", "--exclusive"};
  const auto with_extra = runner::srun_prefix("srun", spec, "perfzero-h-1-2", "rank");
  EXPECT_EQ(std::count(with_extra.begin(), with_extra.end(), "--mpi=pmix"), 0) << "the suite's --mpi wins";
  EXPECT_EQ(with_extra[with_extra.size() - 3], "--mpi=none");
  EXPECT_EQ(with_extra.back(), "rank");
}

TEST(SrunVerdict, ALostNodeFailsARefusalSkipsAndTheMethodsOwnLinesDoNot) {
  const auto lost = runner::read_srun_verdict(
      "hello\nsrun: error: Node failure on n3\nslurmstepd: error: *** STEP 2.0 CANCELLED ***\n"
      "srun: error: Node failure on n3\n");
  ASSERT_TRUE(lost);
  EXPECT_EQ(lost->outcome, Outcome::failed);
  EXPECT_EQ(lost->detail, "Slurm lost node n3 (srun: Node failure on n3)");
  const auto refused = runner::read_srun_verdict(
      "srun: error: Unable to allocate resources: Requested node configuration is not available\n");
  ASSERT_TRUE(refused);
  EXPECT_EQ(refused->outcome, Outcome::skipped);
  EXPECT_EQ(refused->detail, "Slurm refused the step: Requested node configuration is not available");
  EXPECT_FALSE(runner::read_srun_verdict("my output: srun: error: Node failure on n1\n"))
      << "only a line srun starts counts";
  EXPECT_FALSE(runner::read_srun_verdict("srun: error: pz-node1: task 0: Terminated\n"));
  // Without a configuration srun cannot start anything: its own last words.
  const auto fatal = runner::read_srun_verdict(
      "srun: error: fetch_config: DNS SRV lookup failed\nsrun: fatal: Could not establish a configuration source\n");
  ASSERT_TRUE(fatal);
  EXPECT_EQ(fatal->outcome, Outcome::failed);
  EXPECT_TRUE(fatal->only_when_nothing_ran);
  EXPECT_EQ(fatal->detail, "srun could not start the step: Could not establish a configuration source");
}

TEST(EngineVerdict, ItDecidesAFailedTrialAndLeadsItsDetailButNeverASucceededOne) {
  runner::TrialExecution e;
  e.end = runner::ProcessEnd::engine_failed;
  e.engine_error = "Slurm lost node n3 (srun: Node failure on n3); the step was stopped";
  e.engine_verdict = runner::EngineVerdict{Outcome::failed, "Slurm lost node n3 (srun: Node failure on n3)"};
  runner::Classification c = runner::classify(e, std::string("no result"));
  runner::apply_engine_verdict(c, e);
  EXPECT_EQ(c.outcome, Outcome::failed);
  EXPECT_EQ(c.detail.rfind("Slurm lost node n3", 0), 0U) << c.detail;
  runner::TrialExecution refused;
  refused.end = runner::ProcessEnd::exited;
  refused.exit_code = 1;
  refused.engine_verdict = runner::EngineVerdict{Outcome::skipped, "Slurm refused the step: no such feature", true};
  c = runner::classify(refused, std::string("no result"));
  runner::apply_engine_verdict(c, refused);
  EXPECT_EQ(c.outcome, Outcome::skipped);
  EXPECT_FALSE(c.has_exception);
  // The method writes to the same log: a "refusal" after a rank reported is not believed.
  runner::TrialExecution ran = refused;
  ran.ranks.ranks.push_back(child_results::RankEnd{});
  c = runner::classify(ran, std::string("no result"));
  runner::apply_engine_verdict(c, ran);
  EXPECT_EQ(c.outcome, Outcome::failed);
  runner::Classification fine{Outcome::succeeded, "", false};
  runner::apply_engine_verdict(fine, refused);
  EXPECT_EQ(fine.outcome, Outcome::succeeded);
  runner::TrialExecution timed;
  timed.end = runner::ProcessEnd::timed_out;
  timed.engine_verdict = refused.engine_verdict;
  timed.engine_note = "its Slurm step perfzero-x may still run: scancel failed";
  c = runner::classify(timed, std::string("no result"));
  runner::apply_engine_verdict(c, timed);
  EXPECT_EQ(c.outcome, Outcome::timed_out);
  EXPECT_NE(c.detail.find("may still run: scancel failed"), std::string::npos) << c.detail;
}

TEST(MpirunPrefix, HostsTakeTasksPerNodeSlotsAndTheAgentComesLast) {
  config::LaunchSpec spec;
  spec.engine = config::LaunchEngine::mpirun;
  spec.tasks_per_node = 2;
  EXPECT_EQ(runner::mpirun_prefix("/usr/bin/mpirun", spec, "/opt/pz/perfzero-rank", {"PERFZERO_TRIAL_DIR"}),
            (std::vector<std::string>{"/usr/bin/mpirun", "--np", "2", "--host", "localhost:2", "-x",
                                      "PERFZERO_TRIAL_DIR", "/opt/pz/perfzero-rank"}));
  spec.nodes = 2;
  spec.hosts = {"a", "b", "c"};
  spec.extra_args = {"--bind-to", "none"};
  EXPECT_EQ(runner::mpirun_prefix("mpirun", spec, "agent", {}),
            (std::vector<std::string>{"mpirun", "--np", "4", "--host", "a:2,b:2", "--bind-to", "none", "agent"}));
  spec.hosts.clear();
  spec.hostfile = "/etc/hosts.mpi";
  EXPECT_EQ(runner::mpirun_prefix("mpirun", spec, "agent", {}),
            (std::vector<std::string>{"mpirun", "--np", "4", "--hostfile", "/etc/hosts.mpi", "--map-by", "ppr:2:node",
                                      "--bind-to", "none", "agent"}));
}

TEST(RankReports, EachRankIsReadMissingOnesAndRefusedResultsAreListed) {
  TempDir dir;
  dir.write(
      "ranks/rank-0.json",
      R"({"rank":0,"world_size":3,"local_rank":0,"host":"h0","pid":10,"exit_code":0,"signal":null,)"
      R"("max_rss_bytes":2048,"user_seconds":0.5,"system_seconds":0.1,"wall_seconds":1.0,"tmp_leftover_files":2})");
  dir.write("ranks/rank-1.json", R"({"rank":1,"host":"h1","exit_code":null,"signal":11})");
  dir.write("ranks/rank-1.result.json", "{}");
  const auto reports = child_results::read_rank_reports(dir.path(), 3);
  ASSERT_EQ(reports.ranks.size(), 2U);
  EXPECT_EQ(reports.ranks[0].host, "h0");
  EXPECT_EQ(reports.ranks[0].max_rss_bytes, 2048U);
  EXPECT_EQ(reports.ranks[0].tmp_leftover_files, 2);
  EXPECT_EQ(reports.ranks[1].signal, 11);
  EXPECT_EQ(reports.missing, std::vector<int>{2});
  EXPECT_EQ(reports.refused_results, std::vector<int>{1});
  EXPECT_TRUE(reports.problems.empty());
}

TEST(RankReports, ARankKilledBeforeItReportedIsNamedWithItsHostFromItsStartRecord) {
  TempDir dir;
  dir.write("ranks/rank-0.start.json",
            R"({"rank":0,"world_size":3,"local_rank":0,"host":"h0","pid":9,"host_info":{"cpus":4},"started":true})");
  dir.write("ranks/rank-0.json", R"({"rank":0,"host":"h0","exit_code":0,"signal":null})");
  dir.write("ranks/rank-1.start.json",
            R"({"rank":1,"local_rank":0,"host":"h1","host_info":{"cpus":8,"boot_id":"b1"},"started":true})");
  dir.write("ranks/rank-2.start.json", R"({"rank":7,"host":"elsewhere"})");  // not rank 2's own
  const auto reports = child_results::read_rank_reports(dir.path(), 3);
  ASSERT_EQ(reports.ranks.size(), 1U);
  EXPECT_EQ(reports.missing, (std::vector<int>{1, 2}));
  ASSERT_EQ(reports.unreported.size(), 1U) << "rank 2's start record is another rank's";
  EXPECT_EQ(reports.unreported[0].rank, 1);
  EXPECT_EQ(reports.unreported[0].host, "h1");
  ASSERT_TRUE(reports.unreported[0].host_facts);
  EXPECT_EQ(reports.unreported[0].host_facts->cpus, 8);
  EXPECT_EQ(reports.unreported[0].host_facts->boot_id, "b1");
  EXPECT_TRUE(reports.problems.empty()) << "a start record alone is not a broken report";
}

TEST(RankReports, AReportThatIsNotOneIsAProblemNotARank) {
  TempDir dir;
  dir.write("ranks/rank-0.json", R"({"rank":5,"exit_code":0})");  // another rank's number
  dir.write("ranks/rank-1.json", "not json");
  std::filesystem::create_directories(dir.path() / "ranks" / "rank-2.json");  // a directory
  const auto reports = child_results::read_rank_reports(dir.path(), 3);
  EXPECT_TRUE(reports.ranks.empty());
  EXPECT_EQ(reports.missing, (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(reports.problems.size(), 3U);
}

runner::TrialExecution world_of(std::vector<child_results::RankEnd> ranks, int world) {
  runner::TrialExecution e;
  e.end = runner::ProcessEnd::exited;
  e.exit_code = 1;
  e.world_size = world;
  e.engine = "mpirun";
  e.ranks.ranks = std::move(ranks);
  return e;
}

TEST(NameTheRank, TheRankThatFailedByItselfIsNamedNotThoseTheEngineEnded) {
  child_results::RankEnd ended;
  ended.rank = 0;
  ended.host = "a";
  ended.signal = SIGTERM;
  child_results::RankEnd crashed;
  crashed.rank = 1;
  crashed.host = "b";
  crashed.signal = SIGSEGV;
  auto e = world_of({ended, crashed}, 2);
  auto c = runner::classify(e, std::string("no result"));
  runner::name_the_rank(c, e);
  EXPECT_EQ(c.outcome, Outcome::crashed);
  EXPECT_EQ(c.detail.rfind("rank 1 on b was ended by SIGSEGV (2 of 2 ranks reported); mpirun exited with code 1", 0),
            0U)
      << c.detail;

  child_results::RankEnd failed;
  failed.rank = 2;
  failed.host = "c";
  failed.exit_code = 3;
  e = world_of({ended, failed}, 4);
  e.ranks.missing = {1, 3};
  c = runner::classify(e, std::string("no result"));
  runner::name_the_rank(c, e);
  EXPECT_EQ(c.outcome, Outcome::failed);
  EXPECT_NE(c.detail.find("rank 2 on c exited with code 3"), std::string::npos) << c.detail;
  EXPECT_NE(c.detail.find("no report from rank 1, 3 (never started, or its host was lost)"), std::string::npos)
      << c.detail;

  // A rank's start record names its host even when it never reported.
  child_results::RankStart started;
  started.rank = 3;
  started.host = "d";
  e.ranks.unreported = {started};
  c = runner::classify(e, std::string("no result"));
  runner::name_the_rank(c, e);
  EXPECT_NE(c.detail.find("no report from rank 1, 3 on d (never started, or its host was lost)"), std::string::npos)
      << c.detail;
}

TEST(NameTheRank, ASucceededOrLocalTrialIsLeftAlone) {
  runner::TrialExecution local;
  local.end = runner::ProcessEnd::signaled;
  local.signal = SIGSEGV;
  auto c = runner::classify(local, std::string("x"));
  const auto before = c.detail;
  runner::name_the_rank(c, local);
  EXPECT_EQ(c.detail, before);
  auto e = world_of({}, 2);
  e.exit_code = 0;
  child_results::ChildResult ok;
  c = runner::classify(e, ok);
  runner::name_the_rank(c, e);
  EXPECT_EQ(c.outcome, Outcome::succeeded);
  EXPECT_EQ(c.detail, "");
}

}  // namespace
}  // namespace perfzero::launch_test
