#pragma once
// What the measured code was made of (docs/history.md, "What a run was made of"): its commit, branch
// and build label. Each comes from its flag, else from the CI system's own variables, else from the
// git checkout in the working directory; `from` says which, per field.
#include <filesystem>
#include <functional>
#include <optional>
#include <string>

#include "results/model.hpp"

namespace perfzero::provenance {

struct SourceFlags {
  std::string commit;
  std::string branch;
  std::string build_label;
  bool detect = true;  // false: only the flags (--detect_source=false)
};

// Reads one environment variable; nullopt when unset.
using Environment = std::function<std::optional<std::string>(const char* name)>;
Environment process_environment();

results::SourceInfo detect_source(const SourceFlags& flags, const Environment& env,
                                  const std::filesystem::path& working_dir);

}  // namespace perfzero::provenance
