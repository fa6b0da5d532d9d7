#include <gtest/gtest.h>

#include "cli/options.hpp"
#include "common/errors.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::cli::parse_command_line_test {
namespace {

ParseResult parse(std::vector<const char*> args) {
  args.insert(args.begin(), "perfzero");
  return parse_command_line(static_cast<int>(args.size()), args.data());
}

std::string error_of(std::vector<const char*> args) {
  try {
    parse(std::move(args));
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

TEST(CommandLine, PerfZeroFlagsAndOurs) {
  const auto r = parse({"--benchmark_methods=a.B.c,a.B.d", "--benchmark_methods", "a.B.e", "--benchmark_num_trials=3",
                        "--execution_label=dev", "--timeout=90s", "--warmup_trials", "2", "--monitor_interval_ms=10",
                        "--config", "x.yaml", "--debug"});
  ASSERT_TRUE(r.options.has_value());
  const Options& o = *r.options;
  EXPECT_EQ(o.benchmark_methods, (std::vector<std::string>{"a.B.c", "a.B.d", "a.B.e"}));
  EXPECT_EQ(o.settings.trials, 3);
  EXPECT_EQ(o.settings.warmup_trials, 2);
  EXPECT_EQ(o.settings.timeout, std::chrono::seconds(90));
  EXPECT_EQ(o.settings.monitor_interval, std::chrono::milliseconds(10));
  EXPECT_EQ(o.execution_label, "dev");
  EXPECT_TRUE(o.debug);
  EXPECT_EQ(o.configs, (std::vector<std::string>{"x.yaml"}));
  bool recorded = false;
  for (const auto& [name, value] : o.given) recorded |= name == "benchmark_num_trials" && value == "3";
  EXPECT_TRUE(recorded);
}

TEST(CommandLine, HelpAndVersionAreMessagesNotRuns) {
  const auto help = parse({"--help"});
  EXPECT_FALSE(help.options.has_value());
  EXPECT_NE(help.message.find("--benchmark_methods"), std::string::npos);
  EXPECT_NE(parse({"--version"}).message.find("perfzero "), std::string::npos);
}

TEST(CommandLine, BadInputNamesTheFlagAndWhatItAccepts) {
  EXPECT_NE(
      error_of({"--benchmark_method=x"}).find("unknown flag --benchmark_method; did you mean '--benchmark_methods'"),
      std::string::npos);
  EXPECT_NE(
      error_of({"--list", "--benchmark_num_trials=0"}).find("--benchmark_num_trials: expected a whole number from 1"),
      std::string::npos);
  EXPECT_NE(error_of({"--list", "--timeout=soon"}).find("--timeout: expected a duration"), std::string::npos);
  EXPECT_NE(error_of({"--list", "--debug=maybe"}).find("--debug: expected true or false, got 'maybe'"),
            std::string::npos);
  EXPECT_NE(error_of({}).find("nothing to run"), std::string::npos);
  EXPECT_NE(error_of({"--list", "--resume"}).find("--resume: needs --output_dir"), std::string::npos);
  EXPECT_NE(error_of({"--list", "--execution_id=a/b"}).find("--execution_id"), std::string::npos);
  EXPECT_NE(error_of({"stray"}).find("unexpected argument 'stray'"), std::string::npos);
}

}  // namespace
}  // namespace perfzero::cli::parse_command_line_test
