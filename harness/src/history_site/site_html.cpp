#include "history_site/site_html.hpp"

#include <fmt/format.h>

#include "fleet_report/figure_text.hpp"
#include "fleet_report/html_text.hpp"

namespace perfzero::history_site {

namespace {

using fleet_report::html::escape;

// The CSS class a verdict is shown with.
const char* verdict_class(compare::Verdict v) {
  switch (v) {
    case compare::Verdict::slower:
      return "slower";
    case compare::Verdict::faster:
      return "faster";
    case compare::Verdict::changed:
      return "changed";
    default:
      return "";
  }
}

}  // namespace

std::string short_commit(const std::string& commit) { return commit.substr(0, 10); }

std::string percent(double fraction) { return fmt::format("{:+.1f} %", fraction * 100); }

std::string value_text(const std::optional<double>& v, const std::string& unit) { return fleet_report::si(v, unit); }

std::string verdict_html(compare::Verdict v) {
  return fmt::format("<span class='{}'>{}</span>", verdict_class(v), escape(compare::to_string(v)));
}

std::string change_html(const Change& c) {
  return fmt::format("{} {} <span class=meta>(95 % {} to {}, p = {:.2g})</span>", verdict_html(c.verdict),
                     percent(c.change), percent(c.ci_low), percent(c.ci_high), c.p_value);
}

std::string configuration_text(const history::Series& s) {
  return s.image.empty() ? s.system_name : s.system_name + " · " + s.image;
}

}  // namespace perfzero::history_site
