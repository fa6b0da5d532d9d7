#include "common/escape.hpp"

#include "common/utf8.hpp"

namespace perfzero::text {

namespace {

// The three characters HTML and Markdown both read as markup, as entities; false for any other.
bool append_entity(std::string& out, char c) {
  switch (c) {
    case '<':
      out += "&lt;";
      return true;
    case '>':
      out += "&gt;";
      return true;
    case '&':
      out += "&amp;";
      return true;
    default:
      return false;
  }
}

}  // namespace

std::string printable(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x20 || c == 0x7f) {
      out += '?';
    } else if (c == 0xc2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) >= 0x80 &&
               static_cast<unsigned char>(text[i + 1]) <= 0x9f) {
      out += '?';
      ++i;
    } else {
      out += text[i];
    }
  }
  return out;
}

std::string csv_cell(std::string_view text) {
  // The formula check looks at the raw first byte: a tab or carriage return is one of OWASP's
  // triggers before printable() turns it into '?'.
  const bool formula = !text.empty() && std::string_view("=+-@\t\r").find(text.front()) != std::string_view::npos;
  std::string value;
  if (formula) value += '\'';
  value += printable(text);
  if (value.find_first_of(",\"") == std::string::npos) return value;
  std::string out = "\"";
  for (const char c : value) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string md_cell(std::string_view text) {
  // Line breaks and tabs read as spaces (a trial's detail may span lines); a newline would end the row.
  std::string spaced(text);
  for (char& c : spaced) {
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  }
  std::string out;
  out.reserve(text.size());
  for (const char c : printable(spaced)) {
    if (c == '|') {
      out += "\\|";
    } else if (!append_entity(out, c)) {
      out += c;
    }
  }
  return out;
}

std::string markup(std::string_view text) {
  static constexpr std::string_view kReplacement = "\xEF\xBF\xBD";
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t n = utf8::sequence_length(text.substr(i));
    if (n == 0) {
      out += kReplacement;
      ++i;
      continue;
    }
    if (n > 1) {
      const std::string_view sequence = text.substr(i, n);
      out += sequence == "\xEF\xBF\xBE" || sequence == "\xEF\xBF\xBF" ? kReplacement : sequence;
      i += n;
      continue;
    }
    const char c = text[i++];
    if (append_entity(out, c)) continue;
    switch (c) {
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\t' && c != '\r') {
          out += kReplacement;
        } else {
          out += c;
        }
    }
  }
  return out;
}

}  // namespace perfzero::text
