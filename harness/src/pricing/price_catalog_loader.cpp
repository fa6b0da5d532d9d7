// Reads and validates a price catalog (docs/report.md documents the format). Every error names
// file:line:column, the entry and the field, so a user editing prices finds the line at once.
#include <charconv>
#include <cmath>
#include <set>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include "common/errors.hpp"
#include "config/yaml_checks.hpp"
#include "config/yaml_document.hpp"
#include "config/yaml_file.hpp"
#include "pricing/price_catalog.hpp"

namespace perfzero::pricing {

namespace {

using config::yaml::Checker;
using config::yaml::describe;

const std::vector<std::string> kProviders{"oci", "aws", "gcp", "azure"};
const std::vector<std::string> kArchs{"x86_64", "aarch64"};
const std::vector<std::string> kCpuVendors{"intel", "amd", "arm"};
const std::vector<std::string> kShapeKeys{"provider", "shape",      "region", "arch",         "vcpus",
                                          "ocpus",    "memory_gib", "gpus",   "usd_per_hour", "flexible",
                                          "spot",     "source",     "date",   "cpu_vendor"};
const std::vector<std::string> kBillingKeys{
    "provider", "granularity_seconds", "minimum_seconds", "spot_discount", "source", "date"};

// Far above any real catalog figure (a price an hour, vCPUs, GiB, seconds), and far below where a
// cost computed from it would overflow to infinity: a typo like 1e308 is refused here.
constexpr double kMaxCatalogNumber = 1e9;

double positive_number(const Checker& check, const YAML::Node& node, const std::string& key, bool allow_zero) {
  const std::string s = node.IsScalar() ? node.Scalar() : std::string();
  double value = 0;
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  const bool ok = node.IsScalar() && ec == std::errc{} && ptr == s.data() + s.size() && std::isfinite(value) &&
                  (allow_zero ? value >= 0 : value > 0) && value <= kMaxCatalogNumber;
  if (!ok)
    check.fail(node, key,
               fmt::format("expected a {} number of at most {:g}, got {}", allow_zero ? "non-negative" : "positive",
                           kMaxCatalogNumber, describe(node)));
  return value;
}

std::string member_of(const Checker& check, const YAML::Node& node, const std::string& key,
                      const std::vector<std::string>& allowed) {
  std::string value = check.string_of(node, key);
  if (std::find(allowed.begin(), allowed.end(), value) == allowed.end()) {
    check.fail(node, key, fmt::format("expected one of {}, got '{}'", fmt::join(allowed, ", "), value));
  }
  return value;
}

bool is_date(const std::string& s) { return is_calendar_date(s); }

GpuSpec read_gpus(const Checker& check, const YAML::Node& node, const std::string& key) {
  check.check_keys(node, key, {"model", "count"});
  if (!node["model"] || !node["count"]) check.fail(node, key, "expected both 'model' and 'count'");
  return {check.string_of(node["model"], key + ".model"), check.int_of(node["count"], key + ".count", 1, 64)};
}

FlexiblePrice read_flexible(const Checker& check, const YAML::Node& node, const std::string& key) {
  check.check_keys(node, key, {"usd_per_ocpu_hour", "usd_per_gib_hour"});
  if (!node["usd_per_ocpu_hour"]) check.fail(node, key, "expected 'usd_per_ocpu_hour'");
  FlexiblePrice p;
  p.usd_per_ocpu_hour = positive_number(check, node["usd_per_ocpu_hour"], key + ".usd_per_ocpu_hour", false);
  if (node["usd_per_gib_hour"])
    p.usd_per_gib_hour = positive_number(check, node["usd_per_gib_hour"], key + ".usd_per_gib_hour", true);
  return p;
}

void require_source_and_date(const Checker& check, const YAML::Node& entry, const std::string& key, std::string& source,
                             std::string& date) {
  source = check.string_of(entry["source"], key + ".source");
  if (!source.starts_with("https://") && !source.starts_with("http://")) {
    check.fail(entry["source"], key + ".source", "expected the URL of the public page the figure was read from");
  }
  date = check.string_of(entry["date"], key + ".date");
  if (!is_date(date)) check.fail(entry["date"], key + ".date", "expected a date as YYYY-MM-DD");
}

SpotPrice read_spot(const Checker& check, const YAML::Node& node, const std::string& key) {
  check.check_keys(node, key, {"usd_per_hour", "source", "date"});
  for (const char* field : {"usd_per_hour", "source", "date"}) {
    if (!node[field]) check.fail(node, key, fmt::format("missing '{}' (a spot price is dated, with its page)", field));
  }
  SpotPrice spot;
  spot.usd_per_hour = positive_number(check, node["usd_per_hour"], key + ".usd_per_hour", false);
  require_source_and_date(check, node, key, spot.source, spot.date);
  return spot;
}

void require(const Checker& check, const YAML::Node& entry, const std::string& key, const char* field) {
  if (!entry[field]) check.fail(entry, key, fmt::format("missing '{}'", field));
}

Shape read_shape(const Checker& check, const YAML::Node& entry, const std::string& key) {
  check.check_keys(entry, key, kShapeKeys);
  for (const char* field : {"provider", "shape", "arch", "source", "date"}) require(check, entry, key, field);
  Shape s;
  s.where = check.where(entry);
  s.provider = member_of(check, entry["provider"], key + ".provider", kProviders);
  s.name = check.string_of(entry["shape"], key + ".shape");
  const std::string named = fmt::format("{} ({})", key, s.name);
  s.arch = member_of(check, entry["arch"], named + ".arch", kArchs);
  if (entry["region"]) s.region = check.string_of(entry["region"], named + ".region");
  if (entry["cpu_vendor"]) s.cpu_vendor = member_of(check, entry["cpu_vendor"], named + ".cpu_vendor", kCpuVendors);
  require_source_and_date(check, entry, named, s.source, s.date);
  if (entry["vcpus"]) s.vcpus = positive_number(check, entry["vcpus"], named + ".vcpus", false);
  if (entry["ocpus"]) s.ocpus = positive_number(check, entry["ocpus"], named + ".ocpus", false);
  if (entry["memory_gib"]) s.memory_gib = positive_number(check, entry["memory_gib"], named + ".memory_gib", false);
  if (entry["gpus"]) s.gpus = read_gpus(check, entry["gpus"], named + ".gpus");
  if (entry["usd_per_hour"])
    s.usd_per_hour = positive_number(check, entry["usd_per_hour"], named + ".usd_per_hour", false);
  if (entry["flexible"]) s.flexible = read_flexible(check, entry["flexible"], named + ".flexible");
  if (entry["spot"]) s.spot = read_spot(check, entry["spot"], named + ".spot");
  if (s.spot && s.flexible) {
    check.fail(entry["spot"], named + ".spot",
               "a flexible shape has no one spot price: give the provider's spot_discount under billing");
  }
  if (s.usd_per_hour.has_value() == s.flexible.has_value()) {
    check.fail(entry, named, "expected exactly one of 'usd_per_hour' (a fixed shape) and 'flexible' (priced per OCPU)");
  }
  if (s.usd_per_hour && !s.vcpus) check.fail(entry, named, "a fixed shape needs 'vcpus'");
  return s;
}

BillingRule read_billing(const Checker& check, const YAML::Node& entry, const std::string& key) {
  check.check_keys(entry, key, kBillingKeys);
  for (const char* field : {"provider", "granularity_seconds", "source", "date"}) require(check, entry, key, field);
  BillingRule b;
  b.where = check.where(entry);
  b.provider = member_of(check, entry["provider"], key + ".provider", kProviders);
  const std::string named = fmt::format("{} ({})", key, b.provider);
  b.granularity_seconds = positive_number(check, entry["granularity_seconds"], named + ".granularity_seconds", false);
  if (entry["minimum_seconds"])
    b.minimum_seconds = positive_number(check, entry["minimum_seconds"], named + ".minimum_seconds", true);
  if (entry["spot_discount"]) {
    b.spot_discount = positive_number(check, entry["spot_discount"], named + ".spot_discount", false);
    if (*b.spot_discount >= 1) {
      check.fail(entry["spot_discount"], named + ".spot_discount",
                 "expected the fraction taken off the on-demand price, above 0 and below 1 (0.5: half price)");
    }
  }
  require_source_and_date(check, entry, named, b.source, b.date);
  return b;
}

}  // namespace

Catalog load_catalog(const std::filesystem::path& path) {
  Catalog catalog;
  catalog.file = path.string();
  const Checker check(catalog.file);
  const YAML::Node root = config::yaml::load_one_document(
      catalog.file, config::yaml::read_yaml_file(path, {"price catalog", "--catalog"}),
      {"a catalog needs three levels", "a price catalog holds exactly one (merge the lists under one shapes key)"});
  check.check_keys(root, "", {"catalog_version", "currency", "billing", "shapes"});
  if (!root["catalog_version"] || check.int_of(root["catalog_version"], "catalog_version", 1, 1000) != 1) {
    check.fail(root, "catalog_version", "expected 'catalog_version: 1' (the format this perfzero reads)");
  }
  if (root["currency"]) catalog.currency = member_of(check, root["currency"], "currency", {"USD"});
  if (!root["shapes"]) check.fail(root, "shapes", "missing: the list of priced shapes");
  check.expect_sequence(root["shapes"], "shapes");
  std::set<std::string> seen;
  for (std::size_t i = 0; i < root["shapes"].size(); ++i) {
    const YAML::Node entry = root["shapes"][i];
    Shape shape = read_shape(check, entry, fmt::format("shapes[{}]", i));
    const std::string id = shape.provider + "/" + shape.name + "/" + shape.region;
    if (!seen.insert(id).second) {
      check.fail(entry, fmt::format("shapes[{}] ({})", i, shape.name), "listed twice for this provider and region");
    }
    catalog.shapes.push_back(std::move(shape));
  }
  if (root["billing"]) {
    check.expect_sequence(root["billing"], "billing");
    for (std::size_t i = 0; i < root["billing"].size(); ++i) {
      const YAML::Node entry = root["billing"][i];
      BillingRule rule = read_billing(check, entry, fmt::format("billing[{}]", i));
      if (catalog.billing_for(rule.provider) != nullptr) {
        check.fail(entry, fmt::format("billing[{}] ({})", i, rule.provider), "a provider's billing is listed twice");
      }
      catalog.billing.push_back(std::move(rule));
    }
  }
  return catalog;
}

}  // namespace perfzero::pricing
