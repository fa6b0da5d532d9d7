#include <cstdio>
#include <ctime>

#include "pricing/price_catalog.hpp"

namespace perfzero::pricing {

const Shape* Catalog::find(const std::string& provider, const std::string& name) const {
  for (const auto& s : shapes) {
    if (s.name == name && (provider.empty() || s.provider == provider)) return &s;
  }
  return nullptr;
}

double ocpus_of(double vcpus, const std::string& arch) { return arch == "aarch64" ? vcpus : vcpus / 2.0; }

namespace {

std::optional<std::time_t> day_of(const std::string& date) {
  std::tm tm{};
  if (date.size() != 10 || std::sscanf(date.c_str(), "%4d-%2d-%2d", &tm.tm_year, &tm.tm_mon, &tm.tm_mday) != 3) {
    return std::nullopt;
  }
  tm.tm_year -= 1900;
  tm.tm_mon -= 1;
  tm.tm_hour = 12;
  return timegm(&tm);
}

}  // namespace

std::optional<int> days_between(const std::string& date, const std::string& today) {
  const auto a = day_of(date);
  const auto b = day_of(today);
  if (!a || !b) return std::nullopt;
  return static_cast<int>((*b - *a) / 86400);
}

}  // namespace perfzero::pricing
