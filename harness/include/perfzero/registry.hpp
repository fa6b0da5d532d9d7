#pragma once
// Built-in benchmark methods register themselves here; the harness and the worker look them up by
// name (family.Class.method). A family registers each method with one static Registration.
#include <string>
#include <string_view>
#include <vector>

#include "perfzero/context.hpp"
#include "perfzero/param.hpp"

namespace perfzero {

using MethodFunction = void (*)(Context&);

struct MethodInfo {
  std::string family;
  std::string class_name;
  std::string method;
  std::string description;
  std::vector<ParamSpec> params;
  MethodFunction function = nullptr;
  // What the method needs beyond a CPU, e.g. "gpu": `perfzero list` shows it; without it the method
  // ends skipped with the reason.
  std::vector<std::string> needs{};

  std::string full_name() const { return family + "." + class_name + "." + method; }
  const ParamSpec* find_param(std::string_view name) const;
};

class Registry {
 public:
  static Registry& instance();

  void add(MethodInfo info);
  const std::vector<MethodInfo>& methods() const { return methods_; }
  const MethodInfo* find(std::string_view full_name) const;

 private:
  std::vector<MethodInfo> methods_;
};

struct Registration {
  explicit Registration(MethodInfo info) { Registry::instance().add(std::move(info)); }
};

}  // namespace perfzero
