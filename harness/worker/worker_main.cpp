// perfzero-worker: runs one built-in benchmark method in its own process and writes its result file.
// The harness starts it as `perfzero-worker METHOD [PARAMS_JSON]` with $PERFZERO_RESULT_FILE set.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

#include <nlohmann/json.hpp>

#include "api/param_json.hpp"
#include "api/result_protocol.hpp"
#include "common/files.hpp"
#include "perfzero/registry.hpp"

namespace {

int usage() {
  std::fprintf(stderr,
               "usage: perfzero-worker METHOD [PARAMS_JSON]\n"
               "Runs one built-in method; the harness (perfzero) starts it. The result goes to $%s\n"
               "or to standard output when that is unset.\n",
               perfzero::detail::kResultFileEnv);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  const auto started = std::chrono::steady_clock::now();
  if (argc < 2 || argc > 3) return usage();
  const std::string method_name = argv[1];
  const perfzero::MethodInfo* method = perfzero::Registry::instance().find(method_name);
  if (method == nullptr) {
    std::fprintf(stderr, "perfzero-worker: unknown method '%s'\n", method_name.c_str());
    return 2;
  }

  nlohmann::json result;
  int exit_code = 0;
  try {
    perfzero::ParamMap params;
    for (const auto& spec : method->params) params[spec.name] = spec.default_value;
    if (argc == 3) {
      for (auto& [name, value] : perfzero::detail::params_from_json(nlohmann::json::parse(argv[2]))) {
        params[name] = value;
      }
    }
    perfzero::Context context(std::move(params));
    method->function(context);
    result = perfzero::detail::context_to_result(context);
    if (context.failure()) exit_code = 1;
  } catch (const std::exception& e) {
    result = {{"protocol_version", perfzero::detail::kResultProtocolVersion},
              {"metrics", nlohmann::json::array()},
              {"error", std::string("exception: ") + e.what()}};
    exit_code = 1;
  }
  const std::chrono::duration<double> self = std::chrono::steady_clock::now() - started;
  result["self_wall_time"] = self.count();

  const char* result_file = std::getenv(perfzero::detail::kResultFileEnv);
  const std::string text = result.dump(2) + "\n";
  try {
    if (result_file != nullptr && *result_file != '\0') {
      perfzero::files::write_atomically(result_file, text);
    } else {
      std::fputs(text.c_str(), stdout);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "perfzero-worker: cannot write result: %s\n", e.what());
    return 1;
  }
  return exit_code;
}
