#include "common/junit_xml.hpp"

#include <chrono>
#include <ctime>

#include <fmt/format.h>

#include "common/utf8.hpp"

namespace perfzero::junit {

namespace {

// Well-formed UTF-8 (utf8::valid) of characters XML allows: the two non-characters XML forbids
// (U+FFFE, U+FFFF) become '?'.
std::string xml_characters(std::string_view raw) {
  const std::string valid = utf8::valid(raw);
  const std::string_view text = valid;
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text.substr(i, 3) == "\xEF\xBF\xBE" || text.substr(i, 3) == "\xEF\xBF\xBF") {
      out += '?';
      i += 2;
    } else {
      out += text[i];
    }
  }
  return out;
}

}  // namespace

std::string escape(const std::string& raw) {
  const std::string text = xml_characters(raw);
  std::string out;
  out.reserve(text.size());
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        // XML 1.0 allows no C0 control characters but tab, line feed and carriage return, not even
        // as references.
        out += (c < 0x20 && c != '\t' && c != '\n' && c != '\r') ? '?' : ch;
    }
  }
  return out;
}

double now() { return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count(); }

std::string write_suite(const std::string& suite_name, const std::vector<TestCase>& cases, double timestamp) {
  int failures = 0;
  int skipped = 0;
  double seconds = 0;
  for (const auto& c : cases) {
    if (c.failure)
      ++failures;
    else if (c.skipped)
      ++skipped;
    seconds += c.seconds;
  }
  const auto t = static_cast<std::time_t>(timestamp);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char when[32];
  std::strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%S", &tm);
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n";
  out += fmt::format(
      "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"0\" skipped=\"{}\" time=\"{:.3f}\" "
      "timestamp=\"{}\">\n",
      escape(suite_name), cases.size(), failures, skipped, seconds, when);
  for (const auto& c : cases) {
    out += fmt::format("    <testcase classname=\"{}\" name=\"{}\" time=\"{:.3f}\"", escape(c.classname),
                       escape(c.name), c.seconds);
    if (!c.failure && !c.skipped && c.output.empty()) {
      out += "/>\n";
      continue;
    }
    out += ">\n";
    if (c.failure) {
      out += fmt::format("      <failure message=\"{}\" type=\"slower\">{}</failure>\n", escape(*c.failure),
                         escape(*c.failure));
    } else if (c.skipped) {
      out += fmt::format("      <skipped message=\"{}\"/>\n", escape(*c.skipped));
    }
    if (!c.output.empty()) out += fmt::format("      <system-out>{}</system-out>\n", escape(c.output));
    out += "    </testcase>\n";
  }
  out += "  </testsuite>\n</testsuites>\n";
  return out;
}

}  // namespace perfzero::junit
