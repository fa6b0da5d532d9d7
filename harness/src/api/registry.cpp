#include "perfzero/registry.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace perfzero {

const ParamSpec* MethodInfo::find_param(std::string_view name) const {
  auto it = std::find_if(params.begin(), params.end(), [&](const ParamSpec& p) { return p.name == name; });
  return it == params.end() ? nullptr : &*it;
}

Registry& Registry::instance() {
  static Registry registry;
  return registry;
}

void Registry::add(MethodInfo info) {
  // Two methods with one name would make reports ambiguous: a programming error, caught at start-up.
  if (find(info.full_name()) != nullptr) {
    std::fprintf(stderr, "perfzero: benchmark method %s is registered twice\n", info.full_name().c_str());
    std::abort();
  }
  methods_.push_back(std::move(info));
  std::sort(methods_.begin(), methods_.end(),
            [](const MethodInfo& a, const MethodInfo& b) { return a.full_name() < b.full_name(); });
}

const MethodInfo* Registry::find(std::string_view full_name) const {
  auto it =
      std::find_if(methods_.begin(), methods_.end(), [&](const MethodInfo& m) { return m.full_name() == full_name; });
  return it == methods_.end() ? nullptr : &*it;
}

}  // namespace perfzero
