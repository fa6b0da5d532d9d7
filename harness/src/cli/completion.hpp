#pragma once
// Shell completion scripts and the manual page, written from the commands' descriptions
// (cli/describe.hpp).
#include <string>
#include <vector>

#include "cli/describe.hpp"

namespace perfzero::cli {

// "bash", "zsh" or "fish"; method names come from `perfzero list --format=names` when completing.
std::string completion_script(const std::string& shell, const std::vector<CommandDoc>& commands);

// perfzero(1) in roff (man(7) macros). `version`: "0.1.0 (abc123)".
std::string man_page(const std::vector<CommandDoc>& commands, const std::string& version);

}  // namespace perfzero::cli
