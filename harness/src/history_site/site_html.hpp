#pragma once
// The pieces of text the site's pages share: a commit, a change, a verdict, a value, a configuration.
#include <optional>
#include <string>

#include "history_site/site_model.hpp"

namespace perfzero::history_site {

std::string short_commit(const std::string& commit);  // its first 10 characters
std::string percent(double fraction);                 // "+20.1 %"
std::string value_text(const std::optional<double>& v, const std::string& unit);
std::string verdict_html(compare::Verdict v);
// "slower +20.1 % (95 % ... to ..., p = ...)"
std::string change_html(const Change& c);
// "system · image" (the label is shown apart).
std::string configuration_text(const history::Series& s);

}  // namespace perfzero::history_site
