#include "child_results/non_finite_json.hpp"

#include <array>
#include <cctype>

namespace perfzero::child_results {

namespace {

// Decodes to a string starting with a NUL character, which no counter name or label has.
constexpr std::string_view kEncodedMark = "\\u0000non-finite:";
const std::string kMark("\0non-finite:", 12);

// Longest first, so that -Infinity is not taken for -Inf followed by "inity".
constexpr std::array<std::string_view, 6> kTokens{"-Infinity", "Infinity", "-NaN", "NaN", "-Inf", "Inf"};

bool word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; }

}  // namespace

std::string quote_non_finite(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      out += c;
      if (c == '\\' && i + 1 < text.size()) {
        out += text[++i];
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == '"') in_string = true;
    bool replaced = false;
    if (c == 'N' || c == 'I' || c == '-') {
      for (const std::string_view token : kTokens) {
        const std::size_t end = i + token.size();
        if (text.substr(i, token.size()) != token || (end < text.size() && word_char(text[end]))) continue;
        out += '"';
        out += kEncodedMark;
        out += token;
        out += '"';
        i = end - 1;
        replaced = true;
        break;
      }
    }
    if (!replaced) out += c;
  }
  return out;
}

std::optional<std::string> non_finite_token(const nlohmann::json& value) {
  if (!value.is_string()) return std::nullopt;
  const auto& s = value.get_ref<const std::string&>();
  if (s.compare(0, kMark.size(), kMark) != 0) return std::nullopt;
  return s.substr(kMark.size());
}

}  // namespace perfzero::child_results
