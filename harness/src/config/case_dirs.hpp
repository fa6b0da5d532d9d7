#pragma once
// Each planned case's directory under the run directory: one path component, unique in the run.
#include <string>
#include <string_view>
#include <vector>

#include "config/run_plan.hpp"

namespace perfzero::config {

// The longest directory name a case gets; file systems allow 255 bytes per path component.
inline constexpr std::size_t kMaxCaseDirBytes = 200;

// Sets every case's `dir`: the name with unsafe characters replaced (text::path_component), plus
// "-" and a hash of the name when that replacement made it equal to another case's directory or
// to a file of the run directory, and shortened (with the hash) when over kMaxCaseDirBytes.
// Throws ConfigError naming both cases if two still share a directory.
void assign_case_dirs(std::vector<PlannedCase>& plan);

// 8 hex digits of a stable hash of `name` (FNV-1a), the same on every machine and run.
std::string short_hash(std::string_view name);

}  // namespace perfzero::config
