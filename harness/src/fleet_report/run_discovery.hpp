#pragma once
// Finds the runs under the paths given to `perfzero report`: a run directory, a single report, or
// any folder holding them at any depth (a fleet's results synced from object storage:
// <prefix>/<platform>/<shape>/<execution_id>/). An unreadable run is a warning, never the end.
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "results/model.hpp"

namespace perfzero::fleet_report {

struct DiscoveryStats {
  std::size_t runs = 0;
  std::vector<std::string> problems;  // "path: why it was not read"
  // What the reader met in runs it did read: a partial run, journal lines its harness did not write.
  std::vector<std::string> notes;
};

// Calls `on_run(path, run)` for every run found under `paths`, in sorted order. Symbolic links
// to folders are not followed below the given paths (no loops); FIFOs and devices are not read.
DiscoveryStats for_each_run(const std::vector<std::string>& paths,
                            const std::function<void(const std::string&, results::Run&&)>& on_run);

}  // namespace perfzero::fleet_report
