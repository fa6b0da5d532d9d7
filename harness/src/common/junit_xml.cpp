#include "common/junit_xml.hpp"

#include <chrono>
#include <ctime>

#include <fmt/format.h>

#include "common/escape.hpp"

namespace perfzero::junit {

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
      text::markup(suite_name), cases.size(), failures, skipped, seconds, when);
  for (const auto& c : cases) {
    out += fmt::format("    <testcase classname=\"{}\" name=\"{}\" time=\"{:.3f}\"", text::markup(c.classname),
                       text::markup(c.name), c.seconds);
    if (!c.failure && !c.skipped && c.output.empty()) {
      out += "/>\n";
      continue;
    }
    out += ">\n";
    if (c.failure) {
      out += fmt::format("      <failure message=\"{}\" type=\"slower\">{}</failure>\n", text::markup(*c.failure),
                         text::markup(*c.failure));
    } else if (c.skipped) {
      out += fmt::format("      <skipped message=\"{}\"/>\n", text::markup(*c.skipped));
    }
    if (!c.output.empty()) out += fmt::format("      <system-out>{}</system-out>\n", text::markup(c.output));
    out += "    </testcase>\n";
  }
  out += "  </testsuite>\n</testsuites>\n";
  return out;
}

}  // namespace perfzero::junit
