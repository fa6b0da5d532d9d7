#pragma once
// PerfZero's flags for Python benchmark classes (docs/python.md), on `run` and `list`:
// --python, --python_path, --git_repos, --workspace, --benchmark_class_type,
// --perfzero_constructor_args and --data_downloads.
#include <string>

#include "config/python_method.hpp"

namespace CLI {
class App;
}  // namespace CLI

namespace perfzero::cli {

struct PythonFlags {
  std::string python;                   // --python: the interpreter
  std::string python_path;              // --python_path: DIR,DIR (relative: the workspace's site-packages, else here)
  std::string git_repos;                // --git_repos: URL;BRANCH;HASH,...
  std::string workspace = "workspace";  // --workspace: where --git_repos are checked out (PerfZero's default)
  std::string class_type;               // --benchmark_class_type
  std::string constructor_args;         // --perfzero_constructor_args: a JSON object
  std::string data_downloads;           // --data_downloads: URL;RELATIVE_PATH,...
};

// The flags on `run`; `list` takes only --python and --python_path (all = false).
void add_python_flags(CLI::App& app, PythonFlags& flags, bool all = true);

// The flags' layer of the Python settings (config/python_method.hpp): python_path's relative entries
// resolved against <workspace>/site-packages when the entry is there (PerfZero's rule for its
// --git_repos checkouts), else against the working directory. Throws UsageError for a bad value.
config::PythonSettings python_settings_of(const PythonFlags& flags);

}  // namespace perfzero::cli
