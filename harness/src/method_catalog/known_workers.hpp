#pragma once
// Which worker executable a family lives in, for the families whose worker may be left out of a
// build or image (benchmarks/CMakeLists.txt); core families are always there.
#include <string>
#include <string_view>

namespace perfzero::method_catalog {

// "onednn.Matmul.x needs the oneDNN worker (perfzero-worker-onednn), which this build/image does not
// include", or "" when `family` is not one of the known optional families.
std::string missing_worker_message(std::string_view family, std::string_view what);

}  // namespace perfzero::method_catalog
