#pragma once
#include <string>

namespace perfzero::text {

// Epoch seconds as "2026-11-26T18:36:46Z" (UTC, whole seconds): how history lists and reports say when.
std::string utc_time(double epoch_seconds);

}  // namespace perfzero::text
