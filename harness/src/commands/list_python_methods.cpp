#include <cstdlib>

#include <fmt/format.h>

#include "commands/commands.hpp"
#include "common/text.hpp"
#include "python_methods/method_listing.hpp"
#include "python_methods/package_dir.hpp"
#include "python_methods/python_inputs.hpp"
#include "redact/redact.hpp"

namespace perfzero::commands {

nlohmann::json python_methods_listing(const cli::ListOptions& options) {
  const config::PythonSettings settings = cli::python_settings_of(options.python);
  if (!settings.python_path) return nullptr;
  config::PythonMethod how;
  how.interpreter = settings.python.value_or(python_methods::default_python());
  how.python_path = *settings.python_path;
  const char* pythonpath = std::getenv("PYTHONPATH");
  const auto found =
      python_methods::discover(how, {python_methods::package_dir(), pythonpath != nullptr ? pythonpath : ""});
  for (const auto& problem : found.problems) fmt::print(stderr, "perfzero: warning: {}\n", problem);
  nlohmann::json doc = {{"interpreter", redact::redact_urls(how.interpreter)},
                        {"python_version", found.python_version},
                        {"python_path", redact::redact_argv(how.python_path)},
                        {"methods", nlohmann::json::array()},
                        {"problems", found.problems}};
  for (const auto& m : found.methods) doc["methods"].push_back({{"name", m.name}, {"description", m.description}});
  return doc;
}

void print_python_methods(std::FILE* out, const nlohmann::json& listing, bool names_only) {
  if (listing.is_null()) return;
  if (names_only) {
    for (const auto& m : listing["methods"]) fmt::print(out, "{}\n", m["name"].get<std::string>());
    return;
  }
  std::vector<std::string> path;
  for (const auto& dir : listing["python_path"]) path.push_back(dir.get<std::string>());
  fmt::print(out, "\nPython classes under {} ({}, Python {})\n", text::join(path, ", "),
             listing["interpreter"].get<std::string>(), listing["python_version"].get<std::string>());
  for (const auto& m : listing["methods"]) {
    fmt::print(out, "  {}\n", m["name"].get<std::string>());
    if (!m["description"].get<std::string>().empty()) {
      fmt::print(out, "      {}\n", m["description"].get<std::string>());
    }
  }
  if (listing["methods"].empty()) fmt::print(out, "  (no class with benchmark* methods)\n");
}

}  // namespace perfzero::commands
