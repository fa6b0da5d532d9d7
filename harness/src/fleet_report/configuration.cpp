#include "fleet_report/configuration.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>

#include <fmt/format.h>

#include "fleet_report/shape_check.hpp"

namespace perfzero::fleet_report {

namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

double number_at(const nlohmann::json& j, const char* key) {
  const auto it = j.find(key);
  return it != j.end() && it->is_number() ? it->get<double>() : 0.0;
}

// The CPUs the benchmark could use: a container's quota (a smaller shape's stand-in) before the
// machine's count.
double vcpus_of_system(const nlohmann::json& system) {
  const auto& sys = system.value("system", nlohmann::json::object());
  if (const double effective = number_at(sys, "effective_vcpus"); effective > 0) return effective;
  return number_at(system.value("system_info", nlohmann::json::object()), "logical_cpu_count");
}

// Memory as provisioned: the kernel sees a little less than the shape's GiB, so round up.
double memory_gib_of_system(const nlohmann::json& system) {
  const double gib = memory_gib_of(system.value("system", nlohmann::json::object()));
  return gib > 0 ? std::ceil(gib - 0.05) : 0.0;
}

// A flexible shape named with its size (VM.Standard.E4.Flex-2) is priced at that size: the instance
// was billed for it whatever the benchmark's container saw. Named without one, from what the run had.
void price_flexible(Configuration& c, const pricing::Shape& shape, const std::optional<pricing::FlexSize>& size) {
  double memory = memory_gib_of_system(c.system);
  if (size) {
    const double named_vcpus = shape.arch == "aarch64" ? size->ocpus : size->ocpus * 2;
    if (c.vcpus > 0 && std::fabs(c.vcpus - named_vcpus) > 0.01) {
      c.shape_mismatches.push_back(
          fmt::format("the name says {:g} OCPU{} ({:g} vCPUs), the run had {:g} vCPUs; priced and divided as named",
                      size->ocpus, size->ocpus == 1 ? "" : "s", named_vcpus, c.vcpus));
    }
    c.vcpus = named_vcpus;
    c.ocpus = size->ocpus;
    c.cpu_source = fmt::format("the shape's name ({:g} OCPUs)", size->ocpus);
    if (size->memory_gib) memory = *size->memory_gib;
  } else {
    if (c.vcpus <= 0) {
      c.pricing.unpriced_reason = "a flexible shape is priced from its OCPUs, and the run recorded no CPU count";
      return;
    }
    c.ocpus = pricing::ocpus_of(c.vcpus, shape.arch);
    c.cpu_source = "the run's system info (flexible shape)";
  }
  const pricing::Quote q = pricing::flexible_price(*shape.flexible, c.ocpus, memory);
  c.pricing.usd_per_hour = q.usd_per_hour;
  c.pricing.how = q.how;
}

// The catalog entry of `c`'s shape, or of the flexible shape its name sizes (`size` then set).
const pricing::Shape* find_shape(const Configuration& c, const pricing::Catalog& catalog,
                                 std::optional<pricing::FlexSize>& size) {
  if (const pricing::Shape* exact = catalog.find(c.provider, c.shape)) return exact;
  size = pricing::parse_flex_size(c.shape);
  const pricing::Shape* base = size ? catalog.find(c.provider, size->shape) : nullptr;
  if (base != nullptr && base->flexible) return base;
  size.reset();
  return nullptr;
}

}  // namespace

Configuration identify(const results::RunInfo& info) {
  Configuration c;
  const auto& cloud = info.system.value("cloud", nlohmann::json::object());
  const std::string platform = lower(info.platform_name);
  const std::string vendor = cloud.value("vendor", "");
  for (const char* known : {"oci", "aws", "gcp", "azure"}) {
    if (platform == known || (platform.empty() && vendor == known)) c.provider = known;
  }
  c.shape = !info.instance_type.empty() ? info.instance_type : info.system_name;
  if (c.shape.empty()) {
    c.shape = fmt::format("unlabelled ({})", info.system_info.value("hostname", "unknown host"));
  }
  c.label = info.execution_label;
  c.arch = info.system.value("architecture", "");
  return c;
}

nlohmann::json machine_of(const results::RunInfo& info) {
  return {{"system_info", info.system_info}, {"system", info.system}, {"setup_info", info.setup_info}};
}

namespace {

// One host of the shape: the catalog's price, or a flexible shape's from the run's CPUs and memory.
void price_one_host(Configuration& c, const pricing::Catalog* catalog, const std::string& today) {
  c.vcpus = vcpus_of_system(c.system);
  c.ocpus = c.vcpus > 0 ? pricing::ocpus_of(c.vcpus, c.arch) : 0;
  c.cpu_source = "the run's system info";
  std::optional<pricing::FlexSize> size;
  const pricing::Shape* shape = catalog != nullptr ? find_shape(c, *catalog, size) : nullptr;
  if (shape == nullptr) {
    c.pricing.unpriced_reason = catalog == nullptr ? "no price catalog" : not_in_catalog(c.shape, *catalog);
    return;
  }
  if (c.provider.empty()) c.provider = shape->provider;
  c.arch = shape->arch;
  c.pricing.source = shape->source;
  c.pricing.date = shape->date;
  c.pricing.age_days = pricing::days_between(shape->date, today);
  c.pricing.catalog_entry = shape->where;
  check_shape(c, *shape);
  if (shape->flexible) {
    price_flexible(c, *shape, size);
    return;
  }
  c.vcpus = *shape->vcpus;
  c.ocpus = shape->ocpus.value_or(pricing::ocpus_of(c.vcpus, shape->arch));
  c.cpu_source = "the price catalog";
  c.pricing.usd_per_hour = *shape->usd_per_hour;
  c.pricing.how = "list price";
}

// One host on spot capacity (pricing::spot_price).
void price_spot(Configuration& c, const pricing::Catalog* catalog) {
  if (catalog == nullptr || !c.pricing.usd_per_host_hour) return;
  const auto spot =
      pricing::spot_price(*catalog, catalog->find(c.provider, c.shape), c.provider, *c.pricing.usd_per_host_hour);
  if (!spot) return;
  c.pricing.spot_usd_per_host_hour = spot->usd_per_hour;
  c.pricing.spot_how = spot->how;
}

}  // namespace

void price(Configuration& c, const pricing::Catalog* catalog, const std::string& today) {
  price_one_host(c, catalog, today);
  c.pricing.usd_per_host_hour = c.pricing.usd_per_hour;
  price_spot(c, catalog);
  if (c.nodes <= 1) return;
  // A cluster of N hosts of a shape is N of them: N times the price, the CPUs and the memory's price.
  const double n = c.nodes;
  c.vcpus *= n;
  c.ocpus *= n;
  c.cpu_source += fmt::format(", x {} hosts", c.nodes);
  if (c.pricing.usd_per_hour) {
    c.pricing.how = fmt::format("{} hosts x ${:g} per hour ({})", c.nodes, *c.pricing.usd_per_hour, c.pricing.how);
    c.pricing.usd_per_hour = n * *c.pricing.usd_per_hour;
  }
}

}  // namespace perfzero::fleet_report
