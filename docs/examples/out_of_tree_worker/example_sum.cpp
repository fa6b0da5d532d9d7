// team.Example.benchmark_sum: the "hello world" kernel (a sum of 50,000 floats), in a team's own
// worker built out of tree. It reports the sum, so a check of the report can see it ran.
#include <chrono>
#include <numeric>
#include <vector>

#include <perfzero/benchmark.hpp>

namespace {

void sum(perfzero::Context& ctx) {
  const auto n = ctx.int_param("n");
  if (n <= 0) return ctx.fail("n must be positive");
  const std::vector<float> values(static_cast<std::size_t>(n), 1.0F);
  const auto start = std::chrono::steady_clock::now();
  const double total = std::accumulate(values.begin(), values.end(), 0.0);
  const std::chrono::duration<double, std::micro> took = std::chrono::steady_clock::now() - start;
  if (total != static_cast<double>(n)) return ctx.fail("the sum is wrong");
  ctx.report("sum", total, "");
  ctx.report("sum_time_us", took.count(), "us");
}

const perfzero::Registration kSum{{"team",
                                   "Example",
                                   "benchmark_sum",
                                   "Sum of N floats, each 1 (expected: N)",
                                   {{"n", perfzero::ParamType::integer, std::int64_t{50000}, "elements"}},
                                   sum}};

}  // namespace
