#include "redact/redact.hpp"

#include <cctype>
#include <optional>

#include "common/text.hpp"

namespace perfzero::redact {

namespace {

bool is_scheme_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '+' || c == '-' || c == '.';
}

bool is_space(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

// An option's name: "--api-key=X" -> "api-key". Empty for what is not a multi-letter option:
// single letters stay (-p is a port for ssh, psql and redis-cli, a password only for mysql).
std::string_view option_name(std::string_view word) {
  if (word.size() < 3 || word[0] != '-') return {};
  std::string_view name = word.substr(word[1] == '-' ? 2 : 1);
  name = name.substr(0, name.find('='));
  return name.size() >= 2 ? name : std::string_view{};
}

// "NAME=value" with NAME an identifier, as given to env(1) or make.
std::string_view assignment_name(std::string_view word) {
  const auto eq = word.find('=');
  if (eq == std::string_view::npos || eq == 0) return {};
  const std::string_view name = word.substr(0, eq);
  for (char c : name) {
    if (std::isalnum(static_cast<unsigned char>(c)) == 0 && c != '_') return {};
  }
  return name;
}

// One word of a command line; `next_is_secret` is set when its value is the next word.
std::string redact_word(std::string_view word, bool& next_is_secret) {
  if (next_is_secret && !word.empty() && word[0] != '-') {
    next_is_secret = false;
    return kRedacted;
  }
  next_is_secret = false;
  const std::string_view option = option_name(word);
  if (!option.empty() && looks_secret(option)) {
    const auto eq = word.find('=');
    if (eq == std::string_view::npos) {
      next_is_secret = true;
      return std::string(word);
    }
    return std::string(word.substr(0, eq + 1)) + kRedacted;
  }
  const std::string_view name = option.empty() ? assignment_name(word) : std::string_view{};
  if (!name.empty() && looks_secret(name)) return std::string(name) + "=" + kRedacted;
  return redact_urls(word);
}

bool ends_query_value(char c) { return c == '&' || c == '#' || c == '"' || c == '\'' || is_space(c); }

// "?name=value", "&name=value" and ";name=value" with a secret-looking name (access_token,
// X-Amz-Signature, X-Amz-Credential, a libpq URL's password): the value is redacted up to the next
// '&', '#', quote or space. Anywhere in the text, not only after a scheme: a presigned URL is often
// given without one, and a query's secret is the same secret.
std::string redact_query_values(std::string_view text) {
  std::string out;
  std::size_t i = 0;
  while (i < text.size()) {
    const char c = text[i++];
    out += c;
    if (c != '?' && c != '&' && c != ';') continue;
    std::size_t eq = i;
    while (eq < text.size() && text[eq] != '=' && !ends_query_value(text[eq])) ++eq;
    if (eq == i || eq >= text.size() || text[eq] != '=' || !looks_secret(text.substr(i, eq - i))) continue;
    out.append(text.substr(i, eq + 1 - i)).append(kRedacted);
    i = eq + 1;
    while (i < text.size() && !ends_query_value(text[i])) ++i;
  }
  return out;
}

// A shell script given as one element (sh -c '...') is redacted word by word.
std::string redact_words(std::string_view text) {
  std::string out;
  bool next_is_secret = false;
  std::size_t i = 0;
  while (i < text.size()) {
    if (is_space(text[i])) {
      out += text[i++];
      continue;
    }
    std::size_t end = i;
    while (end < text.size() && !is_space(text[end])) ++end;
    out += redact_word(text.substr(i, end - i), next_is_secret);
    i = end;
  }
  return out;
}

}  // namespace

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

std::string redact_urls(std::string_view text) {
  const std::string queried = redact_query_values(text);
  text = queried;
  std::string out;
  std::size_t done = 0;
  for (auto sep = text.find("://"); sep != std::string_view::npos; sep = text.find("://", sep + 3)) {
    if (sep == 0 || !is_scheme_char(text[sep - 1])) continue;
    const std::size_t host = sep + 3;
    std::size_t end = host;
    while (end < text.size() && text[end] != '/' && text[end] != '?' && text[end] != '#' && !is_space(text[end])) {
      ++end;
    }
    // The last '@' ends the userinfo: an unencoded '@' in a password stays hidden.
    const auto at = text.substr(host, end - host).rfind('@');
    if (at == std::string_view::npos) continue;
    out.append(text.substr(done, host - done)).append(kRedacted);
    done = host + at;
  }
  out.append(text.substr(done));
  return out;
}

std::string redact_value(std::string_view name, std::string_view value) {
  return looks_secret(name) ? std::string(kRedacted) : redact_text(value);
}

namespace {

constexpr std::size_t kMaxJsonTextBytes = std::size_t{1} << 20;
constexpr int kMaxJsonTextDepth = 64;

// A JSON object given as text (a PerfZero class's --constructor_args, a worker's parameters): its
// members are redacted by name as a suite's parameters are, {"api_token": "..."} included, which
// word-by-word redaction cannot see. nullopt: not a JSON object (or too large or deep to look at).
std::optional<std::string> redact_json_object_text(std::string_view text) {
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos || text[first] != '{' || text.size() > kMaxJsonTextBytes) return std::nullopt;
  int depth = 0;
  bool in_string = false;
  for (std::size_t i = first; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') ++i;
      if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      if (++depth > kMaxJsonTextDepth) return std::nullopt;
    } else if (c == '}' || c == ']') {
      --depth;
    }
  }
  const auto parsed = nlohmann::json::parse(text, nullptr, false);
  if (parsed.is_discarded() || !parsed.is_object()) return std::nullopt;
  return redacted_json(parsed).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace

std::string redact_text(std::string_view text) {
  if (auto json = redact_json_object_text(text)) return *json;
  return redact_words(text);
}

std::vector<std::string> redact_argv(const std::vector<std::string>& argv) {
  std::vector<std::string> out;
  bool next_is_secret = false;
  for (const auto& arg : argv) {
    if (auto json = redact_json_object_text(arg)) {
      out.push_back(next_is_secret ? std::string(kRedacted) : *json);
      next_is_secret = false;
      continue;
    }
    const bool script = arg.find_first_of(" \t\n") != std::string::npos;
    out.push_back(script ? redact_words(arg) : redact_word(arg, next_is_secret));
    if (script) next_is_secret = false;
  }
  return out;
}

nlohmann::json redacted_environment(char** environ_entries) {
  nlohmann::json env = nlohmann::json::object();
  for (char** entry = environ_entries; entry != nullptr && *entry != nullptr; ++entry) {
    const std::string_view text(*entry);
    const auto eq = text.find('=');
    if (eq == std::string_view::npos) continue;
    const std::string name(text.substr(0, eq));
    env[name] = redact_value(name, text.substr(eq + 1));
  }
  return env;
}

nlohmann::json redacted_flags(const std::vector<std::pair<std::string, std::string>>& flags) {
  nlohmann::json out = nlohmann::json::object();
  for (const auto& [name, value] : flags) out[name] = redact_value(name, value);
  return out;
}

nlohmann::json redacted_params(const nlohmann::json& params) { return redacted_json(params); }

nlohmann::json redacted_json(const nlohmann::json& value, std::string_view name) {
  if (!name.empty() && looks_secret(name)) return kRedacted;
  if (value.is_string()) return redact_text(value.get_ref<const std::string&>());
  if (value.is_object()) {
    nlohmann::json out = nlohmann::json::object();
    for (const auto& [key, member] : value.items()) out[redact_text(key)] = redacted_json(member, key);
    return out;
  }
  if (value.is_array()) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& element : value) out.push_back(redacted_json(element));
    return out;
  }
  return value;
}

nlohmann::json redacted_reported_json(const nlohmann::json& value, std::string_view name) {
  if (value.is_string()) {
    if (!name.empty() && looks_secret(name)) return kRedacted;
    return redact_text(value.get_ref<const std::string&>());
  }
  if (value.is_object()) {
    nlohmann::json out = nlohmann::json::object();
    for (const auto& [key, member] : value.items()) {
      // A secret-named member holding an object or list: every string in it is the secret's.
      out[redact_text(key)] = looks_secret(key) && (member.is_object() || member.is_array())
                                  ? redacted_json(member, key)
                                  : redacted_reported_json(member, key);
    }
    return out;
  }
  if (value.is_array()) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& element : value) out.push_back(redacted_reported_json(element, name));
    return out;
  }
  return value;
}

}  // namespace perfzero::redact
