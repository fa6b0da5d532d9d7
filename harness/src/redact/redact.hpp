#pragma once
// Reports record the environment and flags, as PerfZero does, but never a secret's value.
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace perfzero::redact {

inline constexpr const char* kRedacted = "<redacted>";

// True when the name looks like it holds a secret (KEY, SECRET, TOKEN, PASSWORD, CREDENTIAL, ...).
bool looks_secret(std::string_view name);
nlohmann::json redacted_environment(char** environ_entries);
nlohmann::json redacted_flags(const std::vector<std::pair<std::string, std::string>>& flags);

}  // namespace perfzero::redact
