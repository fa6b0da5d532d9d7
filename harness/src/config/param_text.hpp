#pragma once
// A parameter's value written as text (in a suite, or on the command line) read as the type its
// method declares: the one set of rules for both.
#include <optional>
#include <string>

#include "perfzero/param.hpp"

namespace perfzero::config {

// nullopt when `text` is not a value of `type` (integers in full, finite numbers, true/false/yes/no/on/off).
std::optional<ParamValue> param_from_text(const std::string& text, ParamType type);

// An untyped value (an external command's): typed only when its typed form prints back as the same
// text, so "1.10", "007", "1e3" and "off" stay strings and the command gets exactly those bytes.
ParamValue untyped_param_from_text(const std::string& text);

}  // namespace perfzero::config
