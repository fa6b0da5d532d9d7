// Every input that once broke a reader (found by tests/fuzz/run_fuzzers.sh or by hand) is kept in
// tests/fixtures/fuzz_regressions/<reader>/ and replayed here: a result or a message, never a throw.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

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

}  // namespace
}  // namespace perfzero::runner
