#include "engines/engine.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "common/errors.hpp"

namespace perfzero::engines {

void EngineRegistry::add(EngineKind kind) {
  const auto same = std::find_if(kinds_.begin(), kinds_.end(), [&](const EngineKind& k) { return k.id == kind.id; });
  if (same != kinds_.end()) {
    *same = std::move(kind);
  } else {
    kinds_.push_back(std::move(kind));
  }
}

const EngineKind* EngineRegistry::find(config::LaunchEngine id) const {
  const auto it = std::find_if(kinds_.begin(), kinds_.end(), [&](const EngineKind& k) { return k.id == id; });
  return it == kinds_.end() ? nullptr : &*it;
}

Engine& RunEngines::engine_for(const config::PlannedCase& planned) {
  const config::LaunchEngine id = planned.launch.engine;
  if (const auto it = made_.find(id); it != made_.end()) return *it->second;
  const EngineKind* kind = registry_.find(id);
  if (kind == nullptr || !kind->make) {
    throw ConfigError(fmt::format("{}: launch: engine {}: this build has no such engine", planned.origin,
                                  config::launch_engine_name(id)));
  }
  return *made_.emplace(id, kind->make(setup_, planned)).first->second;
}

}  // namespace perfzero::engines
