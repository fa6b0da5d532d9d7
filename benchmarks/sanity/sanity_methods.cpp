// The sanity family: tiny methods with known behaviour. Tests use them to drive every outcome and
// measurement of the harness, and benchmark authors can read them as the smallest examples.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "perfzero/benchmark.hpp"

namespace {

using perfzero::Context;
using perfzero::ParamType;
using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

void noop(Context&) {}

// One sleep by default; more through the measure options, which tests use to see every repetition.
const perfzero::params::MeasureDefaults kSleepMeasure{
    .repetitions_description = "minimum timed sleeps; the median is reported", .repetitions = 1, .warmups = 0};

void sleep_for(Context& ctx) {
  const auto options = perfzero::params::measure_options(ctx, kSleepMeasure);
  const auto ms = std::chrono::milliseconds(ctx.int_param("ms"));
  const auto slept = perfzero::measure(ctx, options.named("sleep"), [&] { std::this_thread::sleep_for(ms); });
  ctx.report("slept_ms", slept.median() * 1e3, "ms", perfzero::Direction::lower_is_better);
}

std::vector<perfzero::ParamSpec> sleep_params() {
  std::vector<perfzero::ParamSpec> specs{{"ms", ParamType::integer, std::int64_t{100}, "milliseconds to sleep"}};
  for (auto& spec : perfzero::params::measure_specs(kSleepMeasure)) specs.push_back(std::move(spec));
  return specs;
}

// Touching every page makes the allocation resident, so RSS really reaches `mib`.
std::size_t allocate_and_touch(std::int64_t mib, std::int64_t hold_ms) {
  const std::size_t bytes = static_cast<std::size_t>(mib) * 1024 * 1024;
  std::unique_ptr<char[]> block(new char[bytes]);
  const long page = ::sysconf(_SC_PAGESIZE);
  for (std::size_t i = 0; i < bytes; i += static_cast<std::size_t>(page)) block[i] = static_cast<char>(i);
  std::this_thread::sleep_for(std::chrono::milliseconds(hold_ms));
  volatile char sink = block[bytes / 2];
  (void)sink;
  return bytes;
}

void allocate(Context& ctx) {
  const auto bytes = allocate_and_touch(ctx.int_param("mib"), ctx.int_param("hold_ms"));
  ctx.report("allocated_mib", static_cast<double>(bytes) / (1024.0 * 1024.0), "MiB", perfzero::Direction::unspecified);
}

void spin(Context& ctx) {
  const int threads = perfzero::params::threads_from(ctx);
  const auto duration = std::chrono::milliseconds(ctx.int_param("ms"));
  std::atomic<std::uint64_t> total{0};
  std::vector<std::thread> workers;
  workers.reserve(static_cast<std::size_t>(threads));
  const auto start = Clock::now();
  for (int t = 0; t < threads; ++t) {
    workers.emplace_back([&] {
      std::uint64_t n = 0;
      volatile std::uint64_t x = 1;
      while (Clock::now() - start < duration) {
        for (int i = 0; i < 1000; ++i) x = x * 6364136223846793005ULL + 1;
        ++n;
      }
      total += n;
    });
  }
  for (auto& w : workers) w.join();
  ctx.report("spin_kiloiterations_per_second", static_cast<double>(total.load()) / (ms_since(start) / 1000.0),
             "kiter/s", perfzero::Direction::higher_is_better);
}

// Fork and exec ourselves running `allocate`: the peak lives in a grandchild of the harness.
void spawn_allocating_child(Context& ctx) {
  const std::string params = "{\"mib\": " + std::to_string(ctx.int_param("mib")) +
                             ", \"hold_ms\": " + std::to_string(ctx.int_param("hold_ms")) + "}";
  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
  if (pid == 0) {
    ::unsetenv("PERFZERO_RESULT_FILE");  // the grandchild prints its result; only we report
    ::execl("/proc/self/exe", "perfzero-worker", "sanity.Sanity.benchmark_allocate", params.c_str(),
            static_cast<char*>(nullptr));
    ::_exit(127);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    ctx.fail("the allocating child did not exit cleanly (status " + std::to_string(status) + ")");
    return;
  }
  ctx.report("child_allocated_mib", static_cast<double>(ctx.int_param("mib")), "MiB", perfzero::Direction::unspecified);
}

void crash(Context& ctx) {
  ::signal(static_cast<int>(ctx.int_param("signal")), SIG_DFL);
  ::raise(static_cast<int>(ctx.int_param("signal")));
}

void exit_with_code(Context& ctx) { std::exit(static_cast<int>(ctx.int_param("code"))); }

void hang(Context& ctx) {
  if (ctx.bool_param("spawn_grandchild")) {
    // A grandchild in its own session, out of our process group: the harness must still find it.
    if (::fork() == 0) {
      ::setsid();
      ::execl("/bin/sleep", "sleep", "3600", static_cast<char*>(nullptr));
      ::_exit(127);
    }
  }
  while (true) std::this_thread::sleep_for(std::chrono::hours(1));
}

void no_result(Context&) { ::_exit(0); }

void bounded(Context& ctx) {
  ctx.report(perfzero::Metric{"value", ctx.number_param("value"), "1", ctx.number_param("min_value"),
                              ctx.number_param("max_value"), perfzero::Direction::unspecified});
}

void skip(Context& ctx) { ctx.skip(ctx.string_param("reason")); }

void throw_exception(Context& ctx) { throw std::runtime_error(ctx.string_param("message")); }

perfzero::MethodInfo method(std::string name, std::string description, std::vector<perfzero::ParamSpec> params,
                            perfzero::MethodFunction function) {
  return {"sanity", "Sanity", std::move(name), std::move(description), std::move(params), function};
}

const perfzero::Registration kMethods[] = {
    perfzero::Registration{
        method("benchmark_noop", "Does nothing: measures the harness's own cost per method", {}, noop)},
    perfzero::Registration{method("benchmark_sleep", "Sleeps for ms milliseconds and reports how long it slept",
                                  sleep_params(), sleep_for)},
    perfzero::Registration{method("benchmark_allocate", "Allocates mib MiB, touches every page, holds it hold_ms",
                                  {{"mib", ParamType::integer, std::int64_t{64}, "MiB to allocate"},
                                   {"hold_ms", ParamType::integer, std::int64_t{0}, "milliseconds to hold it"}},
                                  allocate)},
    perfzero::Registration{method(
        "benchmark_spin", "Busy-loops on threads threads for ms milliseconds",
        {perfzero::params::threads(2), {"ms", ParamType::integer, std::int64_t{300}, "milliseconds to spin"}}, spin)},
    perfzero::Registration{method("benchmark_spawn_allocating_child",
                                  "Starts a child process that allocates mib MiB (the whole tree is measured)",
                                  {{"mib", ParamType::integer, std::int64_t{200}, "MiB the child allocates"},
                                   {"hold_ms", ParamType::integer, std::int64_t{0}, "milliseconds the child holds it"}},
                                  spawn_allocating_child)},
    perfzero::Registration{method("benchmark_crash", "Kills itself with a signal (default SIGSEGV)",
                                  {{"signal", ParamType::integer, std::int64_t{SIGSEGV}, "signal number"}}, crash)},
    perfzero::Registration{method("benchmark_exit_code", "Exits with code without writing a result",
                                  {{"code", ParamType::integer, std::int64_t{3}, "exit code"}}, exit_with_code)},
    perfzero::Registration{method("benchmark_hang", "Never returns (and leaves a grandchild in its own session)",
                                  {{"spawn_grandchild", ParamType::boolean, true, "also start a setsid grandchild"}},
                                  hang)},
    perfzero::Registration{method("benchmark_no_result", "Exits 0 without writing a result", {}, no_result)},
    perfzero::Registration{method("benchmark_bounded", "Reports value with min_value/max_value bounds",
                                  {{"value", ParamType::number, 1.0, "the reported value"},
                                   {"min_value", ParamType::number, 0.0, "lower bound"},
                                   {"max_value", ParamType::number, 2.0, "upper bound"}},
                                  bounded)},
    perfzero::Registration{method("benchmark_skip", "Says it cannot run here",
                                  {{"reason", ParamType::string, std::string("sanity skip"), "why"}}, skip)},
    perfzero::Registration{method("benchmark_throw", "Throws an exception from the method",
                                  {{"message", ParamType::string, std::string("sanity exception"), "what()"}},
                                  throw_exception)},
};

}  // namespace
