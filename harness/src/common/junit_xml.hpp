#pragma once
// JUnit XML for CI systems (docs/ci.md): one <testsuite> of test cases, as tests/data/junit/junit.xsd
// allows (written for this project after the structure of Jenkins' xUnit plugin's junit-10.xsd). Names and messages may
// hold any bytes: the writer makes them valid XML 1.0 (escaped markup, invalid UTF-8 and characters XML forbids
// replaced).
#include <optional>
#include <string>
#include <vector>

namespace perfzero::junit {

struct TestCase {
  std::string classname;  // e.g. the method
  std::string name;       // e.g. the metric
  double seconds = 0;
  std::optional<std::string> failure;  // the message: the figures of a slowdown
  std::optional<std::string> skipped;  // why it could not be judged
  std::string output;                  // <system-out>: the row in full
};

std::string write_suite(const std::string& suite_name, const std::vector<TestCase>& cases, double timestamp);

// Epoch seconds now: a suite's timestamp when it has no time of its own.
double now();

}  // namespace perfzero::junit
