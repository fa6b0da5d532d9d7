#pragma once
// Parses the text of a YAML file that must hold exactly one document (a suite, a price catalog),
// turning every yaml-cpp failure into a ConfigError naming the file (and the line and column
// wherever yaml-cpp knows them).
#include <string>
#include <string_view>

#include <yaml-cpp/yaml.h>

namespace perfzero::config::yaml {

struct DocumentRules {
  std::string_view nesting_hint;  // "a suite needs a few levels": why deep nesting is wrong here
  std::string_view one_document;  // "a suite file holds exactly one (...)": ends the many-documents error
};

// The one document in `text` (a null node for an empty file). `file` names it in errors.
YAML::Node load_one_document(const std::string& file, const std::string& text, const DocumentRules& rules);

}  // namespace perfzero::config::yaml
