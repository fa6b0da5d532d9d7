// Every input that once broke a reader (found by tests/fuzz/run_fuzzers.sh or by hand) is kept in
// tests/fixtures/fuzz_regressions/<reader>/ and replayed here: a result or a message, never a throw.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "common/errors.hpp"
#include "config/suite.hpp"
#include "runner/child_result.hpp"
#include "runner/google_benchmark_result.hpp"

namespace perfzero::runner {
namespace {

const std::filesystem::path kRegressions = std::filesystem::path(PERFZERO_FIXTURES_DIR) / "fuzz_regressions";

std::string slurp(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

template <typename Parse>
int replay(const std::string& reader, Parse parse) {
  int replayed = 0;
  for (const auto& entry : std::filesystem::directory_iterator(kRegressions / reader)) {
    if (entry.path().filename().string().starts_with(".")) continue;
    const std::string text = slurp(entry.path());
    EXPECT_NO_THROW({
      const auto parsed = parse(text);
      if (const auto* result = std::get_if<ChildResult>(&parsed)) (void)result->extras.dump(1);
    }) << entry.path();
    ++replayed;
  }
  return replayed;
}

TEST(FuzzRegressions, ChildResultReaderSurvivesEveryKeptInput) {
  EXPECT_GT(replay("child_result", [](const std::string& t) { return parse_child_result(t); }), 0);
}

TEST(FuzzRegressions, GoogleBenchmarkReaderSurvivesEveryKeptInput) {
  EXPECT_GT(replay("google_benchmark", [](const std::string& t) { return parse_google_benchmark(t); }), 0);
}

// Suites the suite fuzzer broke: loading one gives a suite or a ConfigError, nothing else. The folder
// exists once the fuzzer has found something; until then there is nothing to replay.
TEST(FuzzRegressions, SuiteLoaderSurvivesEveryKeptInput) {
  const auto dir = kRegressions / "suite";
  if (!std::filesystem::is_directory(dir)) GTEST_SKIP() << "no suite input has broken the loader yet";
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().filename().string().starts_with(".")) continue;
    try {
      (void)config::load_suite(entry.path());
    } catch (const ConfigError&) {
      // the expected answer to a broken suite
    } catch (const std::exception& e) {
      ADD_FAILURE() << entry.path() << ": " << e.what();
    }
  }
}

}  // namespace
}  // namespace perfzero::runner
