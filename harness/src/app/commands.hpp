#pragma once
// The harness's top-level commands, each in its own file.
#include <cstdio>
#include <vector>

#include "cli/options.hpp"
#include "config/run_plan.hpp"

namespace perfzero::app {

// Entry point behind main(): parses flags, then lists, dry-runs or runs. Returns the exit status.
int perfzero_main(int argc, const char* const* argv);

void list_methods(std::FILE* out);
void print_plan(std::FILE* out, const std::vector<config::PlannedCase>& plan);
int run_benchmarks(const cli::Options& options, const std::vector<config::PlannedCase>& plan,
                   const std::vector<config::Comparison>& comparisons, bool interleave);

}  // namespace perfzero::app
