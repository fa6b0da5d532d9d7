// A trial's journal line written straight from the model (results/trial_event_text.hpp) is byte for
// byte what dumping its JSON tree gives, whatever the trial holds.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "results/model_json.hpp"
#include "results/trial_event_text.hpp"

namespace perfzero::results::trial_event_text_test {
namespace {

MetricValue metric(std::string name, double value, std::string unit) {
  MetricValue m;
  m.name = std::move(name);
  m.value = value;
  m.unit = std::move(unit);
  return m;
}

std::string tree_line(const std::string& case_name, long long seq, const Trial& t) {
  nlohmann::json event = {{"event", "trial"}, {"case", case_name}, {"trial", trial_to_json(t)}};
  event["seq"] = seq;
  return event.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

TEST(TrialEventText, AnEmptyTrialIsWrittenAsItsTree) {
  const Trial t;
  EXPECT_EQ(trial_event_text("fam.A.m", 1, t), tree_line("fam.A.m", 1, t));
}

TEST(TrialEventText, AFullTrialIsWrittenAsItsTree) {
  Trial t;
  t.number = 7;
  t.warmup = true;
  t.outcome = Outcome::failed;
  t.detail = "exited with code 3: \"quoted\"\n\ttab \x01 control, bad UTF-8 \xff\xfe, caf\xc3\xa9";
  t.has_exception = true;
  t.exit_code = -3;
  t.signal = "SIGSEGV";
  t.wall_time = 0.1 + 0.2;
  t.self_wall_time = 1e-300;
  t.harness_seconds = 12345.678;
  t.started_offset = 3.0;
  MetricValue full = metric("gflops", 1.5e12, "GFLOP/s");
  full.min_value = 0.0;
  full.max_value = std::numeric_limits<double>::quiet_NaN();
  full.direction = Direction::higher_is_better;
  t.metrics = {full, metric("x\xff", -0.0, "")};
  t.extras = {{"z", 1}, {"a", {{"nested", {1, 2.5, "three", nullptr}}}}};
  t.ml_framework_info = {{"name", "torch"}};
  t.repetitions = {0.25, 0.5};
  t.process.max_rss = std::numeric_limits<std::uint64_t>::max();
  t.process.max_vms = 4096;
  t.process.max_cpu_percent = 99.5;
  t.process.detail = {{"children", 2}, {"k\xff", "v"}};
  t.samplers = {{"host_load", {{"busy", true}, {"cpus", 0.5}}}, {"counters", nlohmann::json::object()}};
  t.flags = {"host_busy", "left_files"};
  t.ranks = {{"world_size", 2}};
  t.dir = "fam.A.m/warmup_7";
  t.report = "fam.A.m/warmup_7/perfzero_summary.json";
  t.resumed = true;
  EXPECT_EQ(trial_event_text("fam.A.m[n=1,s=\xff]", 1234567890123LL, t),
            tree_line("fam.A.m[n=1,s=\xff]", 1234567890123LL, t));
}

TEST(TrialEventText, EveryOutcomeAndAnInfiniteValueAreWrittenAsTheTreeWritesThem) {
  for (const Outcome o : {Outcome::succeeded, Outcome::crashed, Outcome::timed_out, Outcome::skipped, Outcome::invalid,
                          Outcome::interrupted}) {
    Trial t;
    t.outcome = o;
    t.wall_time = std::numeric_limits<double>::infinity();
    t.metrics = {metric("m", std::nan(""), "s")};
    EXPECT_EQ(trial_event_text("c", 2, t), tree_line("c", 2, t));
  }
}

// Strings take a plain path when printable ASCII: every byte at its edges, escapes, non-ASCII and
// invalid UTF-8 in keys and values, empty strings and containers, and large integers of both signs.
TEST(TrialEventText, StringsAtThePlainPathsEdgesAndNumbersAreWrittenAsTheTreeWritesThem) {
  std::string every_byte;
  for (int b = 1; b < 256; ++b) every_byte += static_cast<char>(b);
  Trial t;
  t.detail = every_byte;
  t.dir = "del \x7f, space \x20, unit sep \x1f, tilde ~, slash / and back \\ and quote \"";
  t.signal = "\x7f";
  t.flags = {"", "plain", "caf\xc3\xa9", "\x1f", every_byte};
  t.extras = {{"", ""},
              {"k\x7f\"\\", {{"\xc3\xa9", nlohmann::json::array()}, {"o", nlohmann::json::object()}}},
              {"big", std::numeric_limits<std::int64_t>::min()},
              {"huge", std::numeric_limits<std::uint64_t>::max()},
              {"tiny", 5e-324},
              {"t", true},
              {"f", false},
              {"n", nullptr}};
  t.samplers = {{every_byte, every_byte}};
  t.metrics = {metric(every_byte, 1.0, "\x7f")};
  EXPECT_EQ(trial_event_text(every_byte, 3, t), tree_line(every_byte, 3, t));
}

}  // namespace
}  // namespace perfzero::results::trial_event_text_test
