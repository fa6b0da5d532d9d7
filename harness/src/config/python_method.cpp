#include "config/python_method.hpp"

#include <fmt/format.h>

#include "common/errors.hpp"
#include "common/text.hpp"

namespace perfzero::config {

std::string pythonpath_for(const std::string& package_dir, const PythonMethod& how, const std::string& inherited) {
  std::vector<std::string> path;
  if (!package_dir.empty()) path.push_back(package_dir);
  path.insert(path.end(), how.python_path.begin(), how.python_path.end());
  const auto own = how.env.find("PYTHONPATH");
  const std::string& rest = own != how.env.end() ? own->second : inherited;
  if (!rest.empty()) path.push_back(rest);
  return text::join(path, ":");
}

void check_python_path_entry(const std::string& dir, const std::string& where) {
  if (dir.find(':') == std::string::npos) return;
  throw ConfigError(fmt::format(
      "{}: '{}' holds ':', which PYTHONPATH takes as a separator; give the directories as a list", where, dir));
}

PythonSettings merged(const std::vector<const PythonSettings*>& layers_low_to_high) {
  PythonSettings out;
  for (const PythonSettings* layer : layers_low_to_high) {
    if (layer->python) out.python = layer->python;
    if (layer->python_path) out.python_path = layer->python_path;
    if (layer->class_type) out.class_type = layer->class_type;
    if (layer->constructor_args) out.constructor_args = layer->constructor_args;
  }
  return out;
}

}  // namespace perfzero::config
