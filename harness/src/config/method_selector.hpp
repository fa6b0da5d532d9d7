#pragma once
// Resolves PerfZero-style method names against the registry:
//   family.Class.method, family.Class:method, family.Class.filter:REGEX
#include <string>
#include <vector>

#include "perfzero/registry.hpp"

namespace perfzero::config {

// Throws ConfigError naming `origin` and suggesting the closest names when nothing matches.
std::vector<const MethodInfo*> select_methods(const std::string& spec, const std::string& origin,
                                              const Registry& registry = Registry::instance());

}  // namespace perfzero::config
