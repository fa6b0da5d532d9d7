#pragma once
// The flags of `perfzero compare` (docs/compare.md).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace CLI {
class App;
}  // namespace CLI

namespace perfzero::cli {

// --pass_on=undecided,missing (compare and ab): what the gate accepts besides a decided row that is
// not slower (docs/compare.md, "The gate").
struct GatePassOn {
  bool undecided = false;  // too noisy, unreliable, unknown rows: exit 0, not 5
  bool missing = false;    // rows the candidate measured nothing for: exit 0, not 1
};

struct CompareOptions {
  std::string baseline;         // a run directory (or report); empty with --history
  std::string candidate;        // a run directory (or report)
  std::string format = "text";  // text, markdown, json
  std::string colour = "auto";  // auto (on a TTY, unless NO_COLOR), always, never
  std::string markdown_file;    // also written there, whatever --format prints
  std::string json_file;
  std::string junit_file;    // --junit: one test case per (method, metric); a slowdown is a failure
  double min_change = 0.05;  // a fraction
  double alpha = 0.05;
  double max_cv = 0.20;  // a fraction
  int resamples = 2000;
  std::uint64_t seed = 1;
  bool use_flagged = false;  // judge disturbed trials (host busy, GPU throttled) too
  std::string metrics;       // a regular expression: the metrics that gate the exit status; empty: all
  GatePassOn pass_on;        // --pass_on
  // --history: the candidate against the last runs of a label in a results database.
  std::string history_db;
  std::string label;
  int last = 30;
  double z_threshold = 5.0;
};

// Parses `perfzero compare` flags (argv[0] is "compare"). Returns the help text for --help; throws
// UsageError naming the flag for anything else it cannot take.
std::optional<std::string> parse_compare_flags(int argc, const char* const* argv, CompareOptions& out);

// Adds --pass_on to `app` (in `group`), filling `out` once parsed.
void add_pass_on_flag(CLI::App& app, GatePassOn& out, const std::string& group);

// Throws UsageError naming `flag` when `pattern` is not an ECMAScript regular expression.
void check_metrics_pattern(const std::string& flag, const std::string& pattern);

}  // namespace perfzero::cli
