#pragma once
// The methods this installation can run, learned at start-up from the worker executables
// (perfzero-worker-* beside perfzero, then in $PERFZERO_WORKER_PATH), and which worker runs each.
// Its registry is what method selection, suites, `list` and `validate` use.
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "method_catalog/list_json_parser.hpp"
#include "perfzero/registry.hpp"

namespace perfzero::method_catalog {

struct Worker {
  std::string name;  // as it names itself in its list, e.g. "core"
  std::filesystem::path executable;
};

class Catalog {
 public:
  const Registry& registry() const { return registry_; }
  const std::vector<Worker>& workers() const { return workers_; }
  // The worker that runs `method` (family.Class.method); nullptr when no worker has it.
  const Worker* worker_of(std::string_view method) const;

  // Throws ConfigError naming both workers when one of `listed`'s methods is already known.
  void add(const std::filesystem::path& executable, WorkerMethods listed);

 private:
  Registry registry_;
  std::vector<Worker> workers_;
  std::map<std::string, std::size_t, std::less<>> worker_index_;  // method -> index in workers_
};

struct DiscoveryOptions {
  std::filesystem::path bin_dir;  // where perfzero is
  std::string worker_path;        // $PERFZERO_WORKER_PATH
  std::chrono::milliseconds limit{std::chrono::seconds(5)};
};

// Runs every worker's --list-json. A worker that fails or prints bad JSON gets a one-line warning
// on `warnings` and its methods are unavailable; a method listed by two workers is a ConfigError.
Catalog discover(const DiscoveryOptions& options, std::FILE* warnings);

// The catalog of the running perfzero: its own directory and $PERFZERO_WORKER_PATH.
Catalog discover_installed(std::FILE* warnings);

}  // namespace perfzero::method_catalog
