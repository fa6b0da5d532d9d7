#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <regex>

#include <fmt/format.h>

#include "pricing/price_catalog.hpp"

namespace perfzero::pricing {

const Shape* Catalog::find(const std::string& provider, const std::string& name) const {
  for (const auto& s : shapes) {
    if (s.name == name && (provider.empty() || s.provider == provider)) return &s;
  }
  return nullptr;
}

const BillingRule* Catalog::billing_for(const std::string& provider) const {
  for (const auto& b : billing) {
    if (b.provider == provider) return &b;
  }
  return nullptr;
}

Quote flexible_price(const FlexiblePrice& f, double ocpus, double memory_gib) {
  // OCI's minimums (https://docs.oracle.com/en-us/iaas/Content/Compute/References/computeshapes.htm,
  // flexible shapes): one OCPU, and memory of at least 1 GB per OCPU.
  const double billed_ocpus = std::max(ocpus, 1.0);
  const double billed_memory = memory_gib > 0 ? std::max(memory_gib, billed_ocpus) : 0.0;
  std::string how = fmt::format("{:g} OCPU x ${:g} + {:g} GiB x ${:g} per hour", billed_ocpus, f.usd_per_ocpu_hour,
                                billed_memory, f.usd_per_gib_hour);
  if (billed_ocpus != ocpus) how += fmt::format(" (OCI bills at least 1 OCPU; the run had {:g})", ocpus);
  if (billed_memory != memory_gib) {
    how += fmt::format(" (OCI bills at least 1 GB per OCPU; the run had {:g} GiB)", memory_gib);
  }
  return {billed_ocpus * f.usd_per_ocpu_hour + billed_memory * f.usd_per_gib_hour, how};
}

std::optional<FlexSize> parse_flex_size(const std::string& name) {
  static const std::regex kFlexSize(R"(^(.+\.Flex)-([0-9]+(?:\.[0-9]+)?)(?:ocpu)?(?:-([0-9]+(?:\.[0-9]+)?)gb)?$)",
                                    std::regex::icase);
  std::smatch m;
  if (!std::regex_match(name, m, kFlexSize)) return std::nullopt;
  FlexSize size;
  size.shape = m[1].str();
  size.ocpus = std::stod(m[2].str());
  if (m[3].matched) size.memory_gib = std::stod(m[3].str());
  if (size.ocpus <= 0) return std::nullopt;
  return size;
}

std::optional<Quote> spot_price(const Catalog& catalog, const Shape* shape, const std::string& provider,
                                double on_demand_usd_per_hour) {
  if (shape != nullptr && shape->spot && !shape->flexible) {
    return Quote{shape->spot->usd_per_hour, fmt::format("spot price, {} ({})", shape->spot->date, shape->spot->source)};
  }
  const BillingRule* rule = catalog.billing_for(provider);
  if (rule == nullptr || !rule->spot_discount) return std::nullopt;
  return Quote{on_demand_usd_per_hour * (1 - *rule->spot_discount),
               fmt::format("on-demand less {:g} % ({}'s fixed spot discount, {} ({}))", *rule->spot_discount * 100,
                           provider, rule->date, rule->source)};
}

double billed_seconds(const BillingRule& rule, double seconds) {
  const double steps = std::ceil(std::max(seconds, 0.0) / rule.granularity_seconds - 1e-9);
  return std::max(steps * rule.granularity_seconds, rule.minimum_seconds);
}

namespace {

std::string step_words(double s) {
  if (s == 1) return "second";
  if (s == 60) return "minute";
  if (s == 3600) return "hour";
  return fmt::format("{:g} s", s);
}

std::string span_words(double s) {
  if (s >= 3600 && std::fmod(s, 3600) == 0) return fmt::format("{:g} h", s / 3600);
  if (s >= 120 && std::fmod(s, 60) == 0) return fmt::format("{:g} min", s / 60);
  return fmt::format("{:g} s", s);
}

}  // namespace

std::string describe(const BillingRule& rule) {
  std::string out = "per " + step_words(rule.granularity_seconds);
  if (rule.minimum_seconds > rule.granularity_seconds) out += ", " + span_words(rule.minimum_seconds) + " minimum";
  return out;
}

double ocpus_of(double vcpus, const std::string& arch) { return arch == "aarch64" ? vcpus : vcpus / 2.0; }

namespace {

std::optional<std::time_t> day_of(const std::string& date) {
  std::tm tm{};
  if (!is_calendar_date(date) || std::sscanf(date.c_str(), "%4d-%2d-%2d", &tm.tm_year, &tm.tm_mon, &tm.tm_mday) != 3) {
    return std::nullopt;
  }
  tm.tm_year -= 1900;
  tm.tm_mon -= 1;
  tm.tm_hour = 12;
  return timegm(&tm);
}

}  // namespace

bool is_calendar_date(const std::string& s) {
  int y = 0;
  int m = 0;
  int d = 0;
  if (s.size() != 10 || s[4] != '-' || s[7] != '-' || std::sscanf(s.c_str(), "%4d-%2d-%2d", &y, &m, &d) != 3) {
    return false;
  }
  if (y < 2000 || y > 9999 || m < 1 || m > 12 || d < 1) return false;
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  return d <= kDays[m - 1] + (m == 2 && leap ? 1 : 0);
}

std::optional<int> days_between(const std::string& date, const std::string& today) {
  const auto a = day_of(date);
  const auto b = day_of(today);
  if (!a || !b) return std::nullopt;
  return static_cast<int>((*b - *a) / 86400);
}

}  // namespace perfzero::pricing
