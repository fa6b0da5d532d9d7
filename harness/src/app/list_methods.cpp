#include <fmt/format.h>

#include "app/commands.hpp"
#include "perfzero/registry.hpp"

namespace perfzero::app {

void list_methods(std::FILE* out) {
  std::string family;
  for (const auto& m : Registry::instance().methods()) {
    if (m.family != family) {
      family = m.family;
      fmt::print(out, "{}{}\n", family.empty() ? "" : "\n", "family " + family);
    }
    fmt::print(out, "  {}\n      {}\n", m.full_name(), m.description);
    for (const auto& p : m.params) {
      fmt::print(out, "      param {} ({}, default {}): {}\n", p.name, to_string(p.type),
                 format_param_value(p.default_value), p.description);
    }
  }
  fmt::print(out, "\nExternal commands are methods too: see docs/suites.md.\n");
}

}  // namespace perfzero::app
