#include "fleet_report/html_text.hpp"

#include <cmath>

#include <fmt/format.h>

#include "common/utf8.hpp"

namespace perfzero::fleet_report::html {

std::string escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t n = utf8::sequence_length(text.substr(i));
    if (n == 0) {
      out += "\xEF\xBF\xBD";
      ++i;
      continue;
    }
    if (n > 1) {
      out.append(text.substr(i, n));
      i += n;
      continue;
    }
    switch (const char c = text[i++]) {
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '&':
        out += "&amp;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        // Control characters other than tab and newline have no business in a page.
        if (static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\t') {
          out += "\xEF\xBF\xBD";
        } else {
          out += c;
        }
    }
  }
  return out;
}

std::string breakable(std::string_view text) {
  // Escaped a part at a time: the break characters are ASCII, never inside a UTF-8 sequence.
  std::string out;
  std::size_t start = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '[' && i > start) {
      out += escape(text.substr(start, i - start)) + "<wbr>";
      start = i;
    } else if ((c == '.' || c == '-' || c == '_' || c == '/') && i + 1 < text.size()) {
      out += escape(text.substr(start, i + 1 - start)) + "<wbr>";
      start = i + 1;
    }
  }
  return out + escape(text.substr(start));
}

std::string sort_value(const std::optional<double>& value) {
  if (!value || !std::isfinite(*value)) return "";
  return fmt::format(" data-v=\"{}\"", *value);
}

}  // namespace perfzero::fleet_report::html
