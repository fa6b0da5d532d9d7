#pragma once
// The plan's Python methods (docs/python.md): which names are Python classes', how each is run
// (interpreter, path, class type, arguments, environment), the interpreters asked once each, and the
// case a listed method becomes.
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "config/plan_builder.hpp"

namespace perfzero::config {

// A name no worker's family claims is a Python class's when an interpreter can be asked and it has
// PerfZero's shape (MODULE.CLASS.METHOD, MODULE.CLASS:METHOD, MODULE.CLASS.filter:REGEX): a bare
// word stays a built-in's unknown name, with its suggestions.
bool is_python_name(const PlanInputs& inputs, const std::string& spec);

// The interpreter and path of a Python method, every layer applied; the interpreter found as the
// child's exec will find it (a name on the case's PATH, `env`'s when it sets one) and recorded as that
// absolute path. Throws ConfigError naming `origin` when there is none.
PythonMethod python_how(const PlanInputs& inputs, const std::vector<const PythonSettings*>& layers,
                        const std::map<std::string, std::string>& env, const std::string& origin);

// Every Python name of the plan, asked of each interpreter once (an import of TensorFlow costs
// seconds), before any case is made.
class PythonNames {
 public:
  explicit PythonNames(const PythonLister& lister) : lister_(lister) {}
  void ask(const PythonMethod& how, const std::string& spec, const std::string& origin);
  // Asks every interpreter; throws the lister's ConfigError.
  void resolve();
  // What `spec` selected under `how`; both must have been asked and resolved.
  const std::vector<PythonListed>& methods(const PythonMethod& how, const std::string& spec) const;

 private:
  static std::string key_of(const PythonMethod& how);
  const PythonLister& lister_;
  std::map<std::string, std::pair<PythonMethod, std::vector<PythonQuery>>> asked_;
  std::map<std::string, std::map<std::string, std::vector<PythonListed>>> answers_;
};

// Makes `c` (its settings applied already) the perfzero package's runner running `listed`.
void make_python_case(const PlanInputs& inputs, const PythonMethod& how, const PythonListed& listed, PlannedCase& c);

// The built-in names close to the flags' Python names, for an error about them: `sanityy.Sanity.x`
// was more likely a typo than a module. "" when none is close.
std::string builtin_suggestions(const PlanInputs& inputs);

}  // namespace perfzero::config
