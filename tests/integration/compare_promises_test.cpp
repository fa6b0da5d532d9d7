// What docs/compare.md promises of `perfzero compare`, checked on the real binary with real runs of
// commands that report chosen figures: whose direction decides, `same` when the interval includes
// zero, a zero baseline median, colours, the --bootstrap bounds and exit status 4.
// The figures are synthetic, so a busy test machine's host_busy flags are cleared (clear_trial_flags):
// they describe the machine, not these numbers, and would leave the trials out.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <memory>
#include <set>
#include <sstream>

#include "../unit/temp_dir.hpp"
#include "perfzero_runner.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::testing::compare_promises_test {
namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }
long lines(const std::string& text) { return std::count(text.begin(), text.end(), '\n'); }

constexpr int kTrials = 21;

// NAME DIRECTION V1 V2 ...: trial N reports V_N as NAME, declaring DIRECTION (lower or higher).
const char* const kMetricScript = R"(name=$1 direction=$2
shift $((${PERFZERO_TRIAL_DIR##*_} + 1))
printf '{"metrics": [{"name": "%s", "value": %s, "unit": "ms", "direction": "%s"}]}\n' "$name" "$1" "$direction" \
  > "$PERFZERO_RESULT_FILE"
)";

// One method reporting `metric` with `value(trial index from 0)` in each of kTrials trials.
std::string method(const std::filesystem::path& script, const std::string& name, const std::string& metric,
                   const std::string& direction, const std::function<double(int)>& value) {
  std::string values;
  for (int i = 0; i < kTrials; ++i) values += fmt::format(", \"{}\"", value(i));
  return fmt::format("  - {{name: {}, command: [/bin/sh, \"{}\", {}, {}{}]}}\n", name, script.string(), metric,
                     direction, values);
}

// The values of the `tails` method: a significant Mann-Whitney test (p about 0.013: the candidate
// ranks above the baseline in both tails) while the medians are 100 and 99.9 and the bootstrap
// interval of the change spans about [-0.7 %, +41 %].
double tails_baseline(int i) { return i < 10 ? 80 + i : 100 + 0.1 * (i - 10); }
double tails_candidate(int i) { return i < 11 ? 98.9 + 0.1 * i : 120 + (i - 11); }

// Values 75 to 125 (cv 15 %, under --max_cv): a 2.5 % shift is neither significant nor shown to be
// within ±5 % by 21 trials a side.
double spread(int i) { return 75 + 2.5 * i; }

std::string suite(const std::filesystem::path& script, bool candidate) {
  std::string out = fmt::format("defaults: {{trials: {}, warmup_trials: 0}}\nmethods:\n", kTrials);
  // Each side declares the opposite direction of the other for flip_ms and flip_back_ms.
  out += method(script, "flip", "flip_ms", candidate ? "higher" : "lower",
                [&](int i) { return (candidate ? 120 : 100) + 0.1 * (i % 7); });
  out += method(script, "flip_back", "flip_back_ms", candidate ? "lower" : "higher",
                [&](int i) { return (candidate ? 120 : 100) + 0.1 * (i % 7); });
  out += method(script, "tails", "tails_ms", "lower", candidate ? tails_candidate : tails_baseline);
  out += method(script, "nothing", "nothing_ms", "lower", [&](int i) { return spread(i) * (candidate ? 1.025 : 1); });
  out += method(script, "zero", "zero_ms", "lower", [&](int) { return candidate ? 5.0 : 0.0; });
  out += method(script, "zeros", "zeros_ms", "lower", [](int) { return 0.0; });
  return out;
}

class ComparePromises : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = std::make_unique<TempDir>();
    const auto script = dir_->write("metric.sh", kMetricScript);
    const auto a = dir_->write("a.yaml", suite(script, false));
    const auto b = dir_->write("b.yaml", suite(script, true));
    // Few trials and rows: a million bootstrap resamplings of it take a moment, not minutes.
    const auto small = dir_->write(
        "small.yaml", fmt::format("defaults: {{trials: 3, warmup_trials: 0}}\nmethods:\n{}",
                                  method(script, "small", "small_ms", "lower", [](int i) { return 10 + i; })));
    RunningPerfzero base({"--config=" + a.string(), "--output_dir=run"}, dir_->path() / "a");
    RunningPerfzero cand({"--config=" + b.string(), "--output_dir=run"}, dir_->path() / "b");
    RunningPerfzero tiny({"--config=" + small.string(), "--output_dir=run"}, dir_->path() / "small");
    for (auto* p : {&base, &cand, &tiny}) {
      const auto f = p->wait();
      ASSERT_EQ(f.exit_code, 0) << f.out << f.err;
    }
    for (const char* run : {"a", "b", "small"}) clear_trial_flags(dir_->path() / run / "run");
  }
  static void TearDownTestSuite() { dir_.reset(); }

  static std::string run(const char* name) { return (dir_->path() / name / "run").string(); }
  static Finished compare(std::vector<std::string> args) {
    args.insert(args.begin(), "compare");
    return run_perfzero(args, dir_->path() / "compare");
  }
  static nlohmann::json compare_json(std::vector<std::string> args, int expected_exit) {
    args.push_back("--format=json");
    const auto f = compare(args);
    EXPECT_EQ(f.exit_code, expected_exit) << fmt::format("{}", fmt::join(args, " ")) << "\n" << f.out << f.err;
    return nlohmann::json::parse(f.out);
  }
  static const nlohmann::json& row(const nlohmann::json& doc, const std::string& metric) {
    for (const auto& r : doc.at("results")) {
      if (r.at("metric") == metric) return r;
    }
    throw std::runtime_error("no row " + metric + " in " + doc.dump());
  }

  static inline std::unique_ptr<TempDir> dir_;
};

TEST_F(ComparePromises, WhenTheSidesDeclareOppositeDirectionsTheCandidatesDeclarationDecides) {
  // +20 %: the baseline calls flip_ms lower-is-better, the candidate higher-is-better.
  const auto up = compare_json({run("a"), run("b"), "--metrics=^flip_ms$"}, 0);
  EXPECT_EQ(row(up, "flip_ms").at("direction"), "higher") << row(up, "flip_ms").dump();
  EXPECT_EQ(row(up, "flip_ms").at("verdict"), "faster") << row(up, "flip_ms").dump();
  EXPECT_NEAR(row(up, "flip_ms").at("change").get<double>(), 0.20, 0.01);
  // The same +20 % where only the candidate calls it lower-is-better: slower, and the gate fails.
  const auto down = compare_json({run("a"), run("b"), "--metrics=^flip_back_ms$"}, 1);
  EXPECT_EQ(row(down, "flip_back_ms").at("direction"), "lower");
  EXPECT_EQ(row(down, "flip_back_ms").at("verdict"), "slower") << row(down, "flip_back_ms").dump();
  // Swapped, the other run is the candidate and its declarations decide: -17 % of a lower-is-better
  // flip_ms is faster, of a higher-is-better flip_back_ms slower.
  const auto swapped = compare_json({run("b"), run("a"), "--metrics=^flip_back_ms$"}, 1);
  EXPECT_EQ(row(swapped, "flip_ms").at("direction"), "lower");
  EXPECT_EQ(row(swapped, "flip_ms").at("verdict"), "faster") << row(swapped, "flip_ms").dump();
  EXPECT_EQ(row(swapped, "flip_back_ms").at("direction"), "higher");
  EXPECT_EQ(row(swapped, "flip_back_ms").at("verdict"), "slower") << row(swapped, "flip_back_ms").dump();
}

TEST_F(ComparePromises, AnIntervalThatIncludesZeroIsSameNeverSlowerFasterOrEquivalent) {
  const auto doc = compare_json({run("a"), run("b"), "--metrics=^(tails|nothing)_ms$"}, 0);
  // Significant, but the interval straddles zero: a shift in the tails only.
  const auto& tails = row(doc, "tails_ms");
  EXPECT_LT(tails.at("p_value").get<double>(), 0.05) << tails.dump();
  EXPECT_LT(tails.at("ci_low").get<double>(), 0.0) << tails.dump();
  EXPECT_GT(tails.at("ci_high").get<double>(), 0.0) << tails.dump();
  EXPECT_EQ(tails.at("verdict"), "same") << tails.dump();
  // Not significant and not shown within ±5 %: no evidence either way.
  const auto& nothing = row(doc, "nothing_ms");
  EXPECT_GE(nothing.at("p_value").get<double>(), 0.05) << nothing.dump();
  EXPECT_LT(nothing.at("ci_low").get<double>(), -0.05) << nothing.dump();
  EXPECT_GT(nothing.at("ci_high").get<double>(), 0.05) << nothing.dump();
  EXPECT_EQ(nothing.at("verdict"), "same") << nothing.dump();
  EXPECT_EQ(doc.at("regression"), false);
}

TEST_F(ComparePromises, AZeroBaselineMedianHasNoChangeFigureAndItsDifferenceStillDecides) {
  // zero_ms, lower is better, goes from 0 in every baseline trial to 5 in every candidate trial: a
  // regression with no percentage, which must fail the gate (it was 'same', exit 0). zeros_ms is 0
  // on both sides.
  const auto doc = compare_json({run("a"), run("b"), "--metrics=^zeros?_ms$"}, 1);
  for (const char* metric : {"zero_ms", "zeros_ms"}) {
    const auto& r = row(doc, metric);
    EXPECT_EQ(r.at("baseline").at("median"), 0.0) << r.dump();
    // No ratio to a zero: the figures are null, never a NaN or an infinity.
    EXPECT_TRUE(r.at("change").is_null()) << r.dump();
    EXPECT_TRUE(r.at("ci_low").is_null()) << r.dump();
    EXPECT_TRUE(r.at("ci_high").is_null()) << r.dump();
    // Without a change there is nothing to hold against ±--min_change.
    static const std::set<std::string> needs_a_change{"below threshold", "equivalent"};
    EXPECT_EQ(needs_a_change.count(r.at("verdict").get<std::string>()), 0U) << r.dump();
    EXPECT_FALSE(r.at("reason").get<std::string>().empty()) << r.dump();
  }
  const auto& zero = row(doc, "zero_ms");
  EXPECT_EQ(zero.at("verdict"), "slower") << zero.dump();
  EXPECT_NE(zero.at("reason").get<std::string>().find("from a baseline median of 0"), std::string::npos) << zero.dump();
  // The same values on both sides: no evidence of anything.
  EXPECT_EQ(row(doc, "zeros_ms").at("verdict"), "same");
  // The table shows a dash where there is no change, for a person as for a program.
  const auto text = compare({run("a"), run("b"), "--metrics=^zeros?_ms$", "--color=never"});
  EXPECT_EQ(text.exit_code, 1) << text.err;
  int shown = 0;
  std::istringstream table(text.out);
  for (std::string line; std::getline(table, line);) {
    if (!contains(line, "zero_ms") && !contains(line, "zeros_ms")) continue;
    ++shown;
    EXPECT_TRUE(contains(line, " 0 ms ")) << line;
    EXPECT_TRUE(contains(line, " - - ")) << line;
    for (const char* bad : {"nan", "inf"}) EXPECT_FALSE(contains(line, bad)) << line;
  }
  EXPECT_EQ(shown, 2) << text.out;
}

// Runs perfzero with `env_args` (as /usr/bin/env takes them) and stdout on a pseudo-terminal when
// `terminal`, else on a file; returns what it printed.
std::string colour_run(const std::filesystem::path& scratch, bool terminal, std::vector<std::string> env_args,
                       const std::vector<std::string>& args) {
  // A pty for stdout only: that is what --color=auto asks isatty() about.
  static const char* const kPty = R"(import os, pty, subprocess, sys
master, slave = pty.openpty()
child = subprocess.Popen(sys.argv[1:], stdout=slave)
os.close(slave)
out = b""
while True:
    try:
        chunk = os.read(master, 65536)
    except OSError:  # EIO: the child closed the terminal
        break
    if not chunk:
        break
    out += chunk
sys.stdout.buffer.write(out)
sys.exit(child.wait())
)";
  std::filesystem::create_directories(scratch);
  std::ofstream(scratch / "on_a_terminal.py") << kPty;
  env_args.push_back((kBinDir / "harness" / "perfzero").string());
  env_args.push_back("compare");
  env_args.insert(env_args.end(), args.begin(), args.end());
  Finished f;
  if (terminal) {
    env_args.insert(env_args.begin(), {(scratch / "on_a_terminal.py").string(), "/usr/bin/env"});
    f = run_perfzero(env_args, scratch, "/usr/bin/python3");
  } else {
    f = run_perfzero(env_args, scratch, "/usr/bin/env");
  }
  EXPECT_EQ(f.exit_code, 1) << "a slower row is gated" << f.out << f.err;
  EXPECT_TRUE(contains(f.out, "change [95% CI]")) << f.out << f.err;
  return f.out;
}

TEST_F(ComparePromises, ColoursOnlyOnATerminalWithoutNoColorOrWhenForced) {
  const auto scratch = dir_->path() / "colour";
  const std::vector<std::string> runs{run("a"), run("b")};
  const std::string escape = "\x1b[";
  auto with = [&](std::vector<std::string> extra) {
    extra.insert(extra.begin(), runs.begin(), runs.end());
    return extra;
  };
  const auto tty = colour_run(scratch, true, {"-u", "NO_COLOR"}, runs);
  EXPECT_TRUE(contains(tty, "\x1b[1;31mslower\x1b[0m")) << tty;
  EXPECT_TRUE(contains(tty, "\x1b[1;32mfaster\x1b[0m")) << tty;
  for (const char* value : {"1", "0", "false"}) {
    const auto no_color = colour_run(scratch, true, {std::string("NO_COLOR=") + value}, runs);
    EXPECT_FALSE(contains(no_color, escape)) << "NO_COLOR=" << value << "\n" << no_color;
  }
  EXPECT_FALSE(contains(colour_run(scratch, true, {"-u", "NO_COLOR"}, with({"--color=never"})), escape));
  EXPECT_FALSE(contains(colour_run(scratch, false, {"-u", "NO_COLOR"}, runs), escape));
  EXPECT_FALSE(contains(colour_run(scratch, false, {"-u", "NO_COLOR"}, with({"--color=auto"})), escape));
  // always means always: off a terminal, and with NO_COLOR set.
  EXPECT_TRUE(contains(colour_run(scratch, false, {"-u", "NO_COLOR"}, with({"--color=always"})), escape));
  EXPECT_TRUE(contains(colour_run(scratch, false, {"NO_COLOR=1"}, with({"--color=always"})), escape));
}

TEST_F(ComparePromises, BootstrapResamplingsOutside100To1000000AreAUsageErrorAndTheBoundsAreAccepted) {
  for (const char* bad : {"99", "1000001", "0", "-1"}) {
    const auto f = compare({run("small"), run("small"), std::string("--bootstrap=") + bad});
    EXPECT_EQ(f.exit_code, 2) << bad << "\n" << f.out << f.err;
    EXPECT_EQ(lines(f.err), 1) << f.err;
    EXPECT_TRUE(contains(f.err, "--bootstrap")) << f.err;
    EXPECT_TRUE(f.out.empty()) << f.out;
  }
  for (const int good : {100, 1000000}) {
    // A run against itself with few trials: rows too noisy to decide are accepted here (--pass_on),
    // the bounds are what this checks.
    const auto doc =
        compare_json({run("small"), run("small"), fmt::format("--bootstrap={}", good), "--pass_on=undecided"}, 0);
    EXPECT_EQ(doc.at("settings").at("bootstrap_resamples"), good);
    EXPECT_FALSE(row(doc, "small_ms").at("verdict").get<std::string>().empty());
  }
}

// A loopback port with a socket bound but not listening: a connection to it is refused, and no other
// process can take the port while this object lives.
class RefusingPort {
 public:
  RefusingPort() : fd_(::socket(AF_INET, SOCK_STREAM, 0)) {
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t size = sizeof address;
    if (::bind(fd_, reinterpret_cast<sockaddr*>(&address), size) != 0 ||
        ::getsockname(fd_, reinterpret_cast<sockaddr*>(&address), &size) != 0) {
      throw std::runtime_error("cannot bind a loopback port");
    }
    port_ = ntohs(address.sin_port);
  }
  ~RefusingPort() { ::close(fd_); }
  RefusingPort(const RefusingPort&) = delete;
  RefusingPort& operator=(const RefusingPort&) = delete;
  int port() const { return port_; }

 private:
  int fd_;
  int port_ = 0;
};

TEST_F(ComparePromises, AnUnwritableJsonFileOrARefusingHistoryDatabaseIsExit4) {
  // Tests run as root, so a read-only directory would not refuse: a parent that is a regular file does.
  const auto file = dir_->write("a_file", "not a directory\n");
  for (const auto& json : {file / "c.json", std::filesystem::path("/proc/version/c.json")}) {
    const auto f = compare({run("small"), run("small"), "--json=" + json.string()});
    EXPECT_EQ(f.exit_code, 4) << json << "\n" << f.err;
    EXPECT_TRUE(contains(f.err, "compare: cannot write " + json.string())) << f.err;
    EXPECT_EQ(lines(f.err), 1) << f.err;
  }

  const RefusingPort port;
  const auto not_a_database = dir_->write("history.sqlite", std::string(4096, 'x'));
  const auto a_directory = dir_->path() / "history.d";
  std::filesystem::create_directories(a_directory);
  for (const std::string& db : {not_a_database.string(), a_directory.string(),
                                fmt::format("postgresql://perfzero@127.0.0.1:{}/results", port.port())}) {
    const auto f = compare({"--history=" + db, "--label=main", run("small")});
    EXPECT_EQ(f.exit_code, 4) << db << "\n" << f.out << f.err;
    EXPECT_TRUE(contains(f.err, "compare --history")) << f.err;
    EXPECT_EQ(lines(f.err), 1) << f.err;
  }
  // Unlike a SQLite file that is not there, which is the user's mistake: exit 2.
  const auto missing = compare({"--history=" + (dir_->path() / "none.sqlite").string(), "--label=main", run("small")});
  EXPECT_EQ(missing.exit_code, 2) << missing.err;
  EXPECT_FALSE(std::filesystem::exists(dir_->path() / "none.sqlite")) << "compare --history never creates a database";
}

}  // namespace
}  // namespace perfzero::testing::compare_promises_test
