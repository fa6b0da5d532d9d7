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
// the URL stands in the text, and so does the value of every query parameter with a secret-looking
// name ("?access_token=X", "&X-Amz-Signature=X", a libpq URL's "?password=X"), with or without a scheme.
std::string redact_urls(std::string_view text);

// Free text from outside (a label, a description, a fact's string, a flag's value): redacted word by
// word as a command line is (secret NAME=value assignments and --secret options too), URLs included.
std::string redact_text(std::string_view text);

// A named value as recorded: <redacted> when the name looks secret, else redact_text(value).
std::string redact_value(std::string_view name, std::string_view value);

// A command line as recorded or printed: URLs redacted in every element, and the value of secret-looking
// options (--password=X, --token X, -api-key=X) and NAME=value assignments with a secret-looking NAME.
std::vector<std::string> redact_argv(const std::vector<std::string>& argv);

nlohmann::json redacted_environment(char** environ_entries);
nlohmann::json redacted_flags(const std::vector<std::pair<std::string, std::string>>& flags);
// Parameters (a JSON object of name -> value) as redacted_json redacts them.
nlohmann::json redacted_params(const nlohmann::json& params);
// Any JSON from outside (parameters, a run fact), at every depth: a member with a secret-looking name
// is <redacted> whatever its value; every string (keys too) goes through redact_text.
nlohmann::json redacted_json(const nlohmann::json& value, std::string_view name = {});

// What a method reported of itself (its extras): a string under a secret-looking name is
// <redacted> and every other string goes through redact_text, but numbers and booleans stay, so that
// "keys_per_second": 1e6 is still a figure. A class that echoes its constructor's api_token, or a
// URL with a password, leaves neither in a report.
nlohmann::json redacted_reported_json(const nlohmann::json& value, std::string_view name = {});

}  // namespace perfzero::redact
