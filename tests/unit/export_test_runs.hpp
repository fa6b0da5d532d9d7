#pragma once
// Runs in memory for the export tests: a plain one, and a hostile one whose names and labels hold
// spaces, quotes, commas, equals signs, backslashes, line breaks and bytes that are not UTF-8, and
// whose values are NaN and infinite (the model may hold non-finite values, flagged).
#include <cmath>
#include <limits>
#include <string>

#include "results/model.hpp"

namespace perfzero::testing {

inline results::Trial export_trial(int number, Outcome outcome, double wall_time) {
  results::Trial t;
  t.number = number;
  t.outcome = outcome;
  t.wall_time = wall_time;
  t.started_offset = number * 0.5;
  t.exit_code = outcome == Outcome::succeeded ? 0 : 1;
  t.process.max_rss = 1000000 + static_cast<std::uint64_t>(number);
  return t;
}

inline results::Run plain_export_run() {
  results::Run run;
  run.status = "completed";
  run.info.execution_id = "20261122T151200Z-abc123";
  run.info.execution_timestamp = 1795360320.25;
  run.info.execution_label = "nightly";
  run.info.platform_name = "oci";
  run.info.system_name = "VM.Standard.E4.Flex-2";
  run.info.instance_type = "VM.Standard.E4.Flex";
  run.info.harness_version = "0.1.0";
  run.info.system_info = {{"cpu_model", "AMD EPYC 7J13"}};
  run.info.system = {{"cloud", {{"vendor", "oci"}}}};
  results::Case c;
  c.name = "stream.Stream.triad[n=1000000]";
  c.method = "stream.Stream.triad";
  c.params = {{"n", 1000000}, {"kind", "triad"}};
  c.trials_planned = 3;
  for (int n = 1; n <= 3; ++n) {
    auto t = export_trial(n, Outcome::succeeded, 1.0 + n);
    t.metrics.push_back({"bandwidth", 10.0 * n, "GB/s", std::nullopt, std::nullopt});
    c.trials.push_back(t);
  }
  c.warmups.push_back(export_trial(1, Outcome::succeeded, 99.0));  // never exported
  results::Case failed;
  failed.name = "sanity.Sanity.benchmark_fail";
  failed.method = failed.name;
  failed.trials.push_back(export_trial(1, Outcome::failed, 0.1));
  failed.trials.back().detail = "exited with code 1";
  results::Case unreached;
  unreached.name = "not.reached";
  run.cases = {c, failed, unreached};
  return run;
}

inline const std::string kHostileName = "we ird,name=\"x\" \\ \n tab\there \xff\xfe end";

inline results::Run hostile_export_run() {
  results::Run run = plain_export_run();
  run.info.execution_label = "label with spaces, commas=equals \"quotes\"\n";
  run.info.system_name = "sys\\tem\\";
  run.info.system_info = {{"cpu_model", "CPU \xc3\x28 bad UTF-8"}};
  results::Case c;
  c.name = kHostileName;
  c.method = "ext.hostile";
  c.external = true;
  // "a.b" and "a b" reduce to the same field name; a bool, a list and text that looks like a date.
  c.params = {{"a.b", 1}, {"a b", "two"}, {"flag", true}, {"list", {1, 2}}, {"when", "2026-13-45T99:99:99.000Z"}};
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  auto t = export_trial(1, Outcome::succeeded, 0.5);
  t.metrics = {{kHostileName, 1.5, "it/s, \"fast\"", std::nullopt, std::nullopt},
               {"nan metric", nan, "s", std::nullopt, std::nullopt},
               {"inf metric", inf, "s", std::nullopt, std::nullopt},
               {"neg inf", -inf, "s", std::nullopt, std::nullopt},
               {"twice", 1, "", std::nullopt, std::nullopt},
               {"twice", 2, "", std::nullopt, std::nullopt},
               {"huge", 1e300, "B", std::nullopt, std::nullopt}};
  t.flags = {"non_finite_metric", "host_busy"};
  c.trials.push_back(t);
  // A second case whose name differs from the first only in bytes that are not UTF-8.
  results::Case twin = c;
  twin.name = "we ird,name=\"x\" \\ \n tab\there \xfe\xff end";
  twin.trials[0].started_offset = 7.0;  // cases never start together
  run.cases.push_back(c);
  run.cases.push_back(twin);
  return run;
}

}  // namespace perfzero::testing
