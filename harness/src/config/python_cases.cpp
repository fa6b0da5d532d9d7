#include "config/python_cases.hpp"

#include <algorithm>
#include <filesystem>
#include <system_error>

#include <fmt/format.h>

#include "common/errors.hpp"
#include "common/program_path.hpp"
#include "common/text.hpp"
#include "method_catalog/known_workers.hpp"

namespace perfzero::config {

namespace {

// The family a built-in name starts with is a worker's (present or known but absent): such a name
// is never looked for as a Python class, so a typo in it still gets the built-in suggestions.
bool names_builtin_family(const std::string& spec, const Registry& registry) {
  const std::string family = text::trim(spec).substr(0, text::trim(spec).find('.'));
  for (const auto& m : registry.methods()) {
    if (m.family == family) return true;
  }
  return !method_catalog::missing_worker_message(family, spec).empty();
}

}  // namespace

PythonMethod python_how(const PlanInputs& inputs, const std::vector<const PythonSettings*>& layers,
                        const std::map<std::string, std::string>& env, const std::string& origin) {
  const PythonSettings s = merged(layers);
  PythonMethod how;
  const std::string given = s.python.value_or(inputs.default_python);
  how.python_path = s.python_path.value_or(std::vector<std::string>{});
  how.class_type = s.class_type.value_or(kPerfZeroClassType);
  how.constructor_args = s.constructor_args.value_or("{}");
  how.env = env;
  const auto path = env.find("PATH");
  const std::string search = path != env.end() ? path->second : inputs.path_env;
  if (given.find('/') != std::string::npos) {
    std::error_code ec;
    how.interpreter = std::filesystem::absolute(given, ec).lexically_normal().string();
    if (!files::is_executable_file(how.interpreter)) how.interpreter.clear();
  } else {
    how.interpreter = files::find_program(given, search);
  }
  if (how.interpreter.empty()) {
    throw ConfigError(fmt::format(
        "{}: the Python interpreter '{}' {} (name one with --python, a suite's 'python' key or $PERFZERO_PYTHON)",
        origin, given,
        given.find('/') != std::string::npos ? "is not an executable file" : "was not found on PATH (" + search + ")"));
  }
  return how;
}

// The perfzero package's runner runs it in a child, like any method.
void make_python_case(const PlanInputs& inputs, const PythonMethod& how, const PythonListed& listed, PlannedCase& c) {
  c.external = true;
  c.python = how;
  c.python->spec = listed.name;
  c.method = listed.name;
  if (c.description.empty()) c.description = listed.description;
  c.command.argv = {how.interpreter, "-m",        "perfzero.runner", "run",
                    "--method",      listed.name, "--class_type",    how.class_type};
  c.command.working_dir = inputs.python_working_dir;
  c.command.output = OutputFormat::perfzero;
  c.env["PYTHONPATH"] = pythonpath_for(inputs.python_package_dir, how, inputs.inherited_pythonpath);
  if (how.constructor_args != "{}") c.env[kConstructorArgsVariable] = how.constructor_args;
  // Its prints reach perfzero.log in the order they were made, beside the harness's own lines.
  c.env.emplace("PYTHONUNBUFFERED", "1");
}

bool is_python_name(const PlanInputs& inputs, const std::string& spec) {
  const std::string name = text::trim(spec);
  const bool perfzero_shape = std::count(name.begin(), name.end(), '.') >= 2 || name.find(':') != std::string::npos;
  return inputs.list_python && perfzero_shape && !names_builtin_family(name, inputs.catalog->registry());
}

std::string builtin_suggestions(const PlanInputs& inputs) {
  std::vector<std::string> builtins;
  for (const auto& m : inputs.catalog->registry().methods()) builtins.push_back(m.full_name());
  std::string out;
  for (const auto& spec_list : inputs.method_specs) {
    for (const auto& spec : text::split(spec_list, ',')) {
      if (!is_python_name(inputs, spec)) continue;
      const std::string hint = text::did_you_mean(text::trim(spec), builtins);
      if (!hint.empty()) out += fmt::format("\n  '{}' as a built-in method:{}", text::trim(spec), hint);
    }
  }
  return out;
}

void PythonNames::ask(const PythonMethod& how, const std::string& spec, const std::string& origin) {
  auto& queries = asked_[key_of(how)];
  queries.first = how;
  queries.second.push_back({spec, origin});
}

void PythonNames::resolve() {
  for (auto& [key, asked] : asked_) answers_[key] = lister_(asked.first, asked.second);
}

const std::vector<PythonListed>& PythonNames::methods(const PythonMethod& how, const std::string& spec) const {
  return answers_.at(key_of(how)).at(spec);
}

// The interpreter, its path and its environment decide what imports; the class type and arguments
// do not.
std::string PythonNames::key_of(const PythonMethod& how) {
  std::string key = how.interpreter + '\n' + text::join(how.python_path, "\n");
  for (const auto& [name, value] : how.env) key += '\n' + name + '=' + value;
  return key;
}

}  // namespace perfzero::config
