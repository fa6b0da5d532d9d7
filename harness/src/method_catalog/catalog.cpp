#include "method_catalog/catalog.hpp"

#include <cstdlib>
#include <stdexcept>

#include <fmt/format.h>

#include "common/errors.hpp"
#include "common/text.hpp"
#include "method_catalog/worker_discovery.hpp"

namespace perfzero::method_catalog {

const Worker* Catalog::worker_of(std::string_view method) const {
  const auto it = worker_index_.find(method);
  return it == worker_index_.end() ? nullptr : &workers_[it->second];
}

void Catalog::add(const std::filesystem::path& executable, WorkerMethods listed) {
  for (const auto& m : listed.methods) {
    if (const Worker* other = worker_of(m.full_name())) {
      throw ConfigError(
          fmt::format("benchmark method {} is listed by two workers: {} and {}; remove one of them "
                      "(or its directory from $PERFZERO_WORKER_PATH)",
                      m.full_name(), other->executable.string(), executable.string()));
    }
  }
  // Checked first so that a rejected worker leaves the catalog as it was.
  workers_.push_back({std::move(listed.worker), executable});
  for (auto& m : listed.methods) {
    worker_index_.emplace(m.full_name(), workers_.size() - 1);
    registry_.add(std::move(m));
  }
}

Catalog discover(const DiscoveryOptions& options, std::FILE* warnings) {
  Catalog catalog;
  for (auto& listing : list_workers(find_workers(options.bin_dir, options.worker_path), options.limit)) {
    if (listing.failure.empty()) {
      try {
        catalog.add(listing.worker, parse_method_list(listing.out));
        continue;
      } catch (const ConfigError&) {
        throw;
      } catch (const std::exception& e) {
        listing.failure = fmt::format("--list-json printed bad JSON: {}", e.what());
      }
    }
    const auto err = text::split(text::trim(listing.err), '\n');
    fmt::print(warnings, "perfzero: warning: worker {} is unusable ({}{}); its methods are unavailable\n",
               listing.worker.string(), listing.failure, err.empty() || err.front().empty() ? "" : ": " + err.front());
  }
  return catalog;
}

Catalog discover_installed(std::FILE* warnings) {
  DiscoveryOptions options;
  std::error_code ec;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  options.bin_dir = ec ? std::filesystem::current_path() : self.parent_path();
  if (const char* path = std::getenv("PERFZERO_WORKER_PATH")) options.worker_path = path;
  return discover(options, warnings);
}

}  // namespace perfzero::method_catalog
