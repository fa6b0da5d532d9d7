#pragma once
// Which price catalog `perfzero report` and `history site` read (docs/report.md).
#include <string>

namespace perfzero::pricing {

// `given` (--catalog), else $PERFZERO_CATALOG, else the catalog installed beside perfzero, else the
// source tree's (a build tree's perfzero); empty when there is none.
std::string find_catalog(const std::string& given);

}  // namespace perfzero::pricing
