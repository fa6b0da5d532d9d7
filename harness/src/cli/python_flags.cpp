#include "cli/python_flags.hpp"

#include <filesystem>
#include <system_error>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "common/errors.hpp"
#include "common/text.hpp"
#include "config/python_settings.hpp"

namespace perfzero::cli {

void add_python_flags(CLI::App& app, PythonFlags& flags, bool all) {
  const char* group = "Python methods (PerfZero classes; docs/python.md)";
  app.add_option("--python", flags.python,
                 "The interpreter that runs Python methods, suites' entries included (default: a suite entry's "
                 "'python' key, else $PERFZERO_PYTHON, else python3 on PATH)")
      ->group(group)
      ->type_name("PATH");
  app.add_option("--python_path", flags.python_path,
                 "Directories put on the methods' PYTHONPATH, comma-separated, instead of a suite's python_path; a "
                 "relative one is looked for in WORKSPACE/site-packages (where --git_repos checks out), else in the "
                 "working directory")
      ->group(group)
      ->type_name("DIR,...");
  if (!all) return;
  app.add_option("--git_repos", flags.git_repos,
                 "Repositories to check out into WORKSPACE/site-packages before the run, as URL;BRANCH;HASH "
                 "(branch and hash optional), comma-separated; each is recorded in site_package_info")
      ->group(group)
      ->type_name("URL;BRANCH;HASH,...");
  app.add_option("--workspace", flags.workspace, "Where --git_repos are checked out (default: ./workspace)")
      ->group(group)
      ->type_name("DIR");
  app.add_option("--benchmark_class_type", flags.class_type,
                 "perfzero (default: the class is made with output_dir, root_data_dir and tpu) or tf_benchmark "
                 "(made with no arguments, as a tf.test.Benchmark)")
      ->group(group)
      ->type_name("TYPE");
  app.add_option("--perfzero_constructor_args", flags.constructor_args,
                 "Keyword arguments for the class's constructor, as a JSON object")
      ->group(group)
      ->type_name("JSON");
  app.add_option("--data_downloads", flags.data_downloads,
                 "Data copied into --root_data_dir (default WORKSPACE/data) before the run, as "
                 "file:///PATH;RELATIVE_PATH, comma-separated")
      ->group(group)
      ->type_name("URL;PATH,...");
}

config::PythonSettings python_settings_of(const PythonFlags& flags) {
  config::PythonSettings s;
  try {
    if (!flags.python.empty()) s.python = flags.python;
    if (!flags.python_path.empty()) {
      namespace fs = std::filesystem;
      std::error_code ec;
      const fs::path site_packages = fs::absolute(fs::path(flags.workspace) / "site-packages", ec);
      std::vector<std::string> dirs;
      for (const auto& item : text::split(flags.python_path, ',')) {
        const std::string dir = text::trim(item);
        if (dir.empty()) continue;
        if (dir.find(':') != std::string::npos) {
          throw UsageError(
              fmt::format("--python_path: '{}' holds ':', which PYTHONPATH takes as a separator; "
                          "give the directories comma-separated",
                          dir));
        }
        const fs::path p(dir);
        if (p.is_absolute()) {
          dirs.push_back(p.lexically_normal().string());
        } else if (fs::is_directory(site_packages / p, ec)) {
          dirs.push_back((site_packages / p).lexically_normal().string());
        } else {
          dirs.push_back(fs::absolute(p, ec).lexically_normal().string());
        }
      }
      s.python_path = std::move(dirs);
    }
    if (!flags.class_type.empty())
      s.class_type = config::checked_class_type(flags.class_type, "--benchmark_class_type");
    if (!flags.constructor_args.empty()) {
      s.constructor_args = config::checked_constructor_args(flags.constructor_args, "--perfzero_constructor_args");
    }
  } catch (const ConfigError& e) {
    throw UsageError(e.what());
  }
  return s;
}

}  // namespace perfzero::cli
