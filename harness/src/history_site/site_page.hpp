#pragma once
// The frame of every page of the history site: one style sheet inline, a Content-Security-Policy that
// lets nothing be fetched and no script run but the page's own inline one, and a way back to the index.
#include <string>

namespace perfzero::history_site {

// `depth`: how many folders below the site's root the page lies (0: index.html). `script`: JavaScript
// inlined at the end of the body (the index's filter); empty: none, and the policy lets none run.
std::string page(const std::string& title, const std::string& body, int depth, const std::string& script = "");

// A time's date as the pages show it and the cost pages are named: YYYY-MM-DD, UTC.
std::string date_of(double epoch_seconds);

}  // namespace perfzero::history_site
