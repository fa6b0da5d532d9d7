#pragma once
// Reports record the environment, flags and commands, as PerfZero does, but never a secret's value.
// Only what is recorded or printed is redacted: the child still receives the real values.
// The rules are listed in docs/reports.md ("Redaction").
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace perfzero::redact {

inline constexpr const char* kRedacted = "<redacted>";

// True when the name looks like it holds a secret (KEY, SECRET, TOKEN, PASSWORD, CREDENTIAL, ...).
bool looks_secret(std::string_view name);

// Every URL's userinfo ("scheme://user:password@host") becomes "scheme://<redacted>@host", wherever
// the URL stands in the text.
std::string redact_urls(std::string_view text);

// A named value as recorded: <redacted> when the name looks secret, else the value with URLs redacted.
std::string redact_value(std::string_view name, std::string_view value);

// A command line as recorded or printed: URLs redacted in every element, and the value of secret-looking
// options (--password=X, --token X, -api-key=X) and NAME=value assignments with a secret-looking NAME.
std::vector<std::string> redact_argv(const std::vector<std::string>& argv);

nlohmann::json redacted_environment(char** environ_entries);
nlohmann::json redacted_flags(const std::vector<std::pair<std::string, std::string>>& flags);
// Parameters (a JSON object of name -> value) with redact_value applied to string values.
nlohmann::json redacted_params(const nlohmann::json& params);

}  // namespace perfzero::redact
