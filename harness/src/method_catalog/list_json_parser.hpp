#pragma once
// Reads what `perfzero-worker-NAME --list-json` prints (src/api/list_protocol.hpp).
#include <string>
#include <string_view>
#include <vector>

#include "perfzero/registry.hpp"

namespace perfzero::method_catalog {

struct WorkerMethods {
  std::string worker;               // the name the worker gives itself
  std::vector<MethodInfo> methods;  // described only: `function` is null, the worker runs them
};

// Throws std::runtime_error saying which key is wrong and what was expected, e.g.
// "methods[2].params[0].type: expected integer, number, boolean or string, got 'float'".
WorkerMethods parse_method_list(std::string_view text);

}  // namespace perfzero::method_catalog
