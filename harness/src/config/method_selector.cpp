#include "config/method_selector.hpp"

#include <regex>
#include <set>

#include <fmt/format.h>

#include "common/errors.hpp"
#include "common/text.hpp"
#include "method_catalog/known_workers.hpp"

namespace perfzero::config {

namespace {

std::vector<std::string> all_names(const Registry& registry) {
  std::vector<std::string> names;
  for (const auto& m : registry.methods()) names.push_back(m.full_name());
  return names;
}

std::vector<std::string> all_classes(const Registry& registry) {
  std::set<std::string> classes;
  for (const auto& m : registry.methods()) classes.insert(m.family + "." + m.class_name);
  return {classes.begin(), classes.end()};
}

// A family whose worker is known but absent (say onednn in a build without oneDNN) deserves a
// better answer than "unknown method": name the worker the build/image lacks.
void throw_if_worker_missing(const std::string& name, const std::string& spec, const std::string& origin,
                             const Registry& registry) {
  const std::string family = name.substr(0, name.find('.'));
  const bool family_present = std::any_of(registry.methods().begin(), registry.methods().end(),
                                          [&](const MethodInfo& m) { return m.family == family; });
  if (family_present) return;
  const std::string message = method_catalog::missing_worker_message(family, spec);
  if (!message.empty()) throw ConfigError(fmt::format("{}: {}", origin, message));
}

}  // namespace

std::vector<const MethodInfo*> select_methods(const std::string& raw_spec, const std::string& origin,
                                              const Registry& registry) {
  const std::string spec = text::trim(raw_spec);
  if (spec.empty()) throw ConfigError(origin + ": empty method name");
  const auto filter_at = spec.find(".filter:");
  if (filter_at != std::string::npos) {
    const std::string class_path = spec.substr(0, filter_at);
    const std::string pattern = spec.substr(filter_at + 8);
    const auto classes = all_classes(registry);
    if (std::find(classes.begin(), classes.end(), class_path) == classes.end()) {
      throw_if_worker_missing(class_path, spec, origin, registry);
      throw ConfigError(fmt::format("{}: unknown benchmark class '{}' in '{}'{}", origin, class_path, spec,
                                    text::did_you_mean(class_path, classes)));
    }
    std::regex regex;
    try {
      regex = std::regex(pattern);
    } catch (const std::regex_error& e) {
      throw ConfigError(fmt::format("{}: '{}' is not a valid regular expression: {}", origin, pattern, e.what()));
    }
    std::vector<const MethodInfo*> selected;
    std::vector<std::string> in_class;
    for (const auto& m : registry.methods()) {
      if (m.family + "." + m.class_name != class_path) continue;
      in_class.push_back(m.method);
      // As PerfZero's re.match: anchored at the start of the method name, not at its end.
      if (std::regex_search(m.method, regex, std::regex_constants::match_continuous)) selected.push_back(&m);
    }
    if (selected.empty()) {
      throw ConfigError(fmt::format("{}: filter '{}' matches no method of {} (it has: {})", origin, pattern, class_path,
                                    text::join(in_class, ", ")));
    }
    return selected;
  }
  std::string full = spec;
  const auto colon = full.rfind(':');
  if (colon != std::string::npos) full[colon] = '.';  // family.Class:method
  if (const MethodInfo* m = registry.find(full)) return {m};
  throw_if_worker_missing(full, spec, origin, registry);
  throw ConfigError(fmt::format("{}: unknown benchmark method '{}'{} (perfzero --list shows them all)", origin, spec,
                                text::did_you_mean(full, all_names(registry))));
}

}  // namespace perfzero::config
