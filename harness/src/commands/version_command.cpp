// perfzero --version: what a bug report needs first (docs/cli.md).
#include <cstdio>

#include <fmt/format.h>

#include "commands/commands.hpp"
#include "common/errors.hpp"
#include "method_catalog/catalog.hpp"
#include "perfzero_build_info.hpp"

#ifndef PERFZERO_BUILD_OPTIONS
#define PERFZERO_BUILD_OPTIONS "unknown"
#endif

namespace perfzero::commands {

std::string version_line() { return fmt::format("{} ({})", build_info::kVersion, build_info::kGitHash); }

int version_command() {
  fmt::print("perfzero {}\nbuild: {}, {} {}\n", version_line(), PERFZERO_BUILD_OPTIONS, PERFZERO_COMPILER_ID,
             PERFZERO_COMPILER_VERSION);
  // The workers this installation finds now (a worker that cannot answer is warned about on stderr).
  const method_catalog::Catalog catalog = method_catalog::discover_installed(stderr);
  fmt::print("workers:");
  if (catalog.workers().empty()) fmt::print(" none found");
  fmt::print("\n");
  for (const auto& w : catalog.workers()) {
    std::size_t methods = 0;
    for (const auto& m : catalog.registry().methods()) methods += catalog.worker_of(m.full_name()) == &w ? 1 : 0;
    fmt::print("  {:<8} {:>3} methods  {}\n", w.name, methods, w.executable.string());
  }
  return to_int(ExitCode::all_succeeded);
}

}  // namespace perfzero::commands
