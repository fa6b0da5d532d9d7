#include "common/si_number.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>

#include <fmt/format.h>

namespace perfzero::text {

namespace {

constexpr std::array<std::string_view, 13> kPrefixes = {"a", "f", "p", "n", "µ", "m", "",
                                                        "k", "M", "G", "T", "P", "E"};  // 10^-18 .. 10^18
constexpr int kUnitsAt = 6;                                                             // the empty prefix

}  // namespace

namespace {

struct SiUnit {
  std::string_view unit;
  int power = 0;          // the unit's own prefix: 3 for GB/s
  std::string_view base;  // the unit without it: B/s
  bool glued = false;     // a prefix joins it ("ms", "TB/s") rather than standing apart ("M points/s")
};

SiUnit parse_unit(std::string_view unit) {
  // "1" is UCUM's unit of a pure number: nothing to write after it ("11", never "11 1").
  if (unit == "1") unit = "";
  // A count of bytes reads as the prefixed unit people know: 1.17 MB, not 1.17 M bytes.
  if (unit == "bytes") return {"B", 0, "B", true};
  // A time with a prefix of its own (ms, µs, us, ns) takes the combined one: 0.005 ms is 5 µs.
  for (int at = kUnitsAt - 4; at < kUnitsAt; ++at) {
    const auto prefix = kPrefixes[static_cast<std::size_t>(at)];
    if (unit == std::string(prefix) + "s" || (prefix == "µ" && unit == "us")) {
      return {prefix == "µ" ? std::string_view("µs") : unit, at - kUnitsAt, "s", true};
    }
  }
  SiUnit u{unit, 0, unit, false};
  // A unit with an SI prefix and an upper-case base (GB/s, GFLOP/s) takes the combined prefix.
  if (unit.size() > 1 && std::isupper(static_cast<unsigned char>(unit[1])) != 0) {
    for (std::size_t at = kUnitsAt + 1; at < kPrefixes.size(); ++at) {
      if (unit.substr(0, 1) == kPrefixes[at]) {
        u.power = static_cast<int>(at) - kUnitsAt;
        u.base = unit.substr(1);
      }
    }
  }
  u.glued = u.base.empty() || u.base == "s" || std::isupper(static_cast<unsigned char>(u.base[0])) != 0;
  return u;
}

// The power of 1000 a value reads best at: none from 1 (0.01 for a count, where "m" would be odd)
// to 9999, else the one that leaves 1 to 999 after rounding to 3 digits.
int natural_power(double value, const SiUnit& u) {
  const double a = std::fabs(value);
  const double plain_from = u.glued && !u.base.empty() ? 1.0 : 0.01;
  if (a == 0 || (a >= plain_from && a < 1e4)) return 0;
  int power = static_cast<int>(std::floor(std::log10(a) / 3));
  if (fmt::format("{:.3g}", value / std::pow(1000.0, power)).find('e') != std::string::npos) ++power;
  return power;
}

// The digits and the rest (" M points/s", " ms", " GB/s") of `value` written at `power`.
std::pair<std::string, std::string> at_power(double value, const SiUnit& u, int power) {
  const std::string space = u.unit.empty() ? "" : " ";
  const int at = kUnitsAt + power + u.power;
  if (power != 0 && (at < 0 || at >= static_cast<int>(kPrefixes.size()))) {  // past the prefixes: as it is
    return {fmt::format("{:.3g}", value), space + std::string(u.unit)};
  }
  const double scaled = value / std::pow(1000.0, power);
  std::string digits = fmt::format("{:.3g}", scaled);
  if (digits.find('e') != std::string::npos) digits = fmt::format("{:.0f}", scaled);  // 1500, not 1.5e+03
  if (power == 0) return {digits, space + std::string(u.unit)};
  const std::string_view prefix = kPrefixes[static_cast<std::size_t>(at)];
  if (u.glued) return {digits, fmt::format(" {}{}", prefix, u.base)};
  return {digits, prefix.empty() ? space + std::string(u.base) : fmt::format(" {} {}", prefix, u.base)};
}

}  // namespace

std::string si(const std::optional<double>& value, std::string_view unit) {
  if (!value || !std::isfinite(*value)) return "";
  const SiUnit u = parse_unit(unit);
  const auto [digits, rest] = at_power(*value, u, natural_power(*value, u));
  return digits + rest;
}

std::vector<std::string> si_ticks(const std::vector<double>& ticks, std::string_view unit) {
  const SiUnit u = parse_unit(unit);
  double largest = 0;
  for (const double t : ticks) largest = std::max(largest, std::fabs(t));
  const int power = natural_power(largest, u);
  std::vector<std::string> out;
  // Close ticks (102, 102.5, 103 ms) need more than 3 digits to read apart.
  for (int digits = 3; digits <= 8; ++digits) {
    out.clear();
    for (const double t : ticks) {
      auto [text, rest] = at_power(t, u, power);
      if (digits > 3) text = fmt::format("{:.{}g}", t / std::pow(1000.0, power == 0 ? 0 : power), digits);
      out.push_back(t == 0 ? "0" : text + rest);
    }
    if (std::adjacent_find(out.begin(), out.end()) == out.end()) break;
  }
  return out;
}

std::string si_or(const std::optional<double>& value, std::string_view unit, std::string_view none) {
  std::string out = si(value, unit);
  return out.empty() ? std::string(none) : out;
}

std::string si_range(double median, double low, double high, std::string_view unit) {
  const SiUnit u = parse_unit(unit);
  const int power = natural_power(median, u);  // the range is written at the median's prefix
  const auto [median_text, rest] = at_power(median, u, power);
  const auto [low_text, low_rest] = at_power(low, u, power);
  const auto [high_text, high_rest] = at_power(high, u, power);
  // "(408–480 M)": a unit that stands apart from its prefix is the median's; a glued one is kept.
  std::string range_rest = rest;
  const std::string apart = fmt::format(" {}", u.base);
  if (!u.glued && range_rest.ends_with(apart)) range_rest.resize(range_rest.size() - apart.size());
  return fmt::format("{}{} ({}–{}{})", median_text, rest, low_text, high_text, range_rest);
}

}  // namespace perfzero::text
