#include "perfzero/context.hpp"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

namespace perfzero {

const ParamValue& Context::param(std::string_view name) const {
  auto it = params_.find(name);
  if (it == params_.end()) {
    throw std::invalid_argument(fmt::format("parameter '{}' was not given and has no default", name));
  }
  return it->second;
}

namespace {
template <typename T>
const T& get_typed(const ParamValue& value, std::string_view name, std::string_view expected) {
  const auto* typed = std::get_if<T>(&value);
  if (typed == nullptr) {
    throw std::invalid_argument(
        fmt::format("parameter '{}' is a {}, not {}", name, to_string(type_of(value)), expected));
  }
  return *typed;
}
}  // namespace

std::int64_t Context::int_param(std::string_view name) const {
  return get_typed<std::int64_t>(param(name), name, "an integer");
}

double Context::number_param(std::string_view name) const {
  const ParamValue& value = param(name);
  if (const auto* i = std::get_if<std::int64_t>(&value)) return static_cast<double>(*i);
  return get_typed<double>(value, name, "a number");
}

bool Context::bool_param(std::string_view name) const { return get_typed<bool>(param(name), name, "a boolean"); }

const std::string& Context::string_param(std::string_view name) const {
  return get_typed<std::string>(param(name), name, "a string");
}

void Context::record_repetitions(RepetitionSeries series) {
  if (series.name.empty()) throw std::invalid_argument("a repetition series needs a name");
  if (series.values.empty()) {
    throw std::invalid_argument(fmt::format("repetition series '{}' has no values", series.name));
  }
  const bool taken = std::any_of(repetitions_.begin(), repetitions_.end(),
                                 [&](const RepetitionSeries& s) { return s.name == series.name; });
  // Two series of one name would be indistinguishable in the report: name each measure() call.
  if (taken) throw std::invalid_argument(fmt::format("repetition series '{}' is recorded twice", series.name));
  repetitions_.push_back(std::move(series));
}

}  // namespace perfzero
