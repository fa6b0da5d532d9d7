// main() of every perfzero-worker-NAME (perfzero::worker_main): a worker is its benchmark families
// plus this file. The harness starts it as `perfzero-worker-NAME METHOD [PARAMS_JSON]` with
// $PERFZERO_RESULT_FILE set, and as `perfzero-worker-NAME --list-json` to learn its methods.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "api/list_protocol.hpp"
#include "api/param_json.hpp"
#include "api/result_protocol.hpp"
#include "common/files.hpp"
#include "perfzero/registry.hpp"

namespace {

constexpr std::string_view kWorkerPrefix = "perfzero-worker-";

// The worker's name comes from its file name, so an out-of-tree worker needs no configuration.
std::string worker_name(const char* argv0) {
  const std::string file = std::filesystem::path(argv0).filename().string();
  return file.rfind(kWorkerPrefix, 0) == 0 ? file.substr(kWorkerPrefix.size()) : file;
}

int usage(const std::string& program) {
  std::fprintf(stderr,
               "usage: %s METHOD [PARAMS_JSON]\n"
               "       %s --list-json\n"
               "Runs one benchmark method; the harness (perfzero) starts it. The result goes to $%s\n"
               "or to standard output when that is unset. --list-json describes the methods.\n",
               program.c_str(), program.c_str(), perfzero::detail::kResultFileEnv);
  return 2;
}

nlohmann::json run_method(const perfzero::MethodInfo& method, const char* params_json, int& exit_code) {
  try {
    perfzero::ParamMap params;
    for (const auto& spec : method.params) params[spec.name] = spec.default_value;
    if (params_json != nullptr) {
      for (auto& [name, value] : perfzero::detail::params_from_json(nlohmann::json::parse(params_json))) {
        params[name] = value;
      }
    }
    perfzero::Context context(std::move(params));
    method.function(context);
    if (context.failure()) exit_code = 1;
    return perfzero::detail::context_to_result(context);
  } catch (const std::exception& e) {
    exit_code = 1;
    return {{"protocol_version", perfzero::detail::kResultProtocolVersion},
            {"metrics", nlohmann::json::array()},
            {"error", std::string("exception: ") + e.what()}};
  }
}

}  // namespace

int main(int argc, char** argv) {
  const auto started = std::chrono::steady_clock::now();
  const std::string program = std::filesystem::path(argv[0]).filename().string();
  if (argc < 2 || argc > 3) return usage(program);
  const std::string first = argv[1];
  if (first == "--list-json" && argc == 2) {
    const auto list = perfzero::detail::method_list_json(perfzero::Registry::instance(), worker_name(argv[0]));
    std::fputs((list.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n").c_str(), stdout);
    return 0;
  }
  if (first == "--help" || first == "-h") return usage(program);
  const perfzero::MethodInfo* method = perfzero::Registry::instance().find(first);
  if (method == nullptr) {
    std::fprintf(stderr, "%s: unknown method '%s' (%s --list-json lists this worker's methods)\n", program.c_str(),
                 first.c_str(), program.c_str());
    return 2;
  }

  int exit_code = 0;
  nlohmann::json result = run_method(*method, argc == 3 ? argv[2] : nullptr, exit_code);
  const std::chrono::duration<double> self = std::chrono::steady_clock::now() - started;
  result["self_wall_time"] = self.count();

  const char* result_file = std::getenv(perfzero::detail::kResultFileEnv);
  // Launched on several ranks (launch: mpirun), rank 0 speaks for the trial; the others would only
  // have their result refused (perfzero-rank points them elsewhere, docs/multi-host.md).
  if (const char* rank = std::getenv("PERFZERO_RANK"); rank != nullptr && std::string_view(rank) != "0") {
    return exit_code;
  }
  // A method's error text or metric name may hold bytes that are not UTF-8 (a path, a DMI string):
  // replaced, not thrown, so the harness still gets a result.
  const std::string text = result.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
  try {
    if (result_file != nullptr && *result_file != '\0') {
      perfzero::files::write_atomically(result_file, text);
    } else {
      std::fputs(text.c_str(), stdout);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: cannot write result to %s: %s\n", program.c_str(), result_file, e.what());
    return 1;
  }
  return exit_code;
}
