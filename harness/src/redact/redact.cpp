#include "redact/redact.hpp"

#include "common/text.hpp"

namespace perfzero::redact {

bool looks_secret(std::string_view name) {
  static const std::vector<std::string> markers{"KEY",        "SECRET",     "TOKEN",   "PASSWORD", "PASSWD",
                                                "PASSPHRASE", "CREDENTIAL", "PRIVATE", "AUTH",     "SESSION",
                                                "COOKIE",     "SIGNATURE",  "CERT"};
  const std::string upper = text::to_upper(name);
  for (const auto& marker : markers) {
    if (upper.find(marker) != std::string::npos) return true;
  }
  return false;
}

nlohmann::json redacted_environment(char** environ_entries) {
  nlohmann::json env = nlohmann::json::object();
  for (char** entry = environ_entries; entry != nullptr && *entry != nullptr; ++entry) {
    const std::string_view text(*entry);
    const auto eq = text.find('=');
    if (eq == std::string_view::npos) continue;
    const std::string name(text.substr(0, eq));
    env[name] = looks_secret(name) ? std::string(kRedacted) : std::string(text.substr(eq + 1));
  }
  return env;
}

nlohmann::json redacted_flags(const std::vector<std::pair<std::string, std::string>>& flags) {
  nlohmann::json out = nlohmann::json::object();
  for (const auto& [name, value] : flags) out[name] = looks_secret(name) ? std::string(kRedacted) : value;
  return out;
}

}  // namespace perfzero::redact
