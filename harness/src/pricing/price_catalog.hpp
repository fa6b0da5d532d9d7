#pragma once
// A dated price catalog of cloud instance shapes (infra/pricing/catalog.yaml, or a user's own with
// --catalog): what one hour of each shape costs, where the figure came from and when. Prices cannot
// be fetched from where benchmarks run, so every price carries its source and date, and the report
// warns when one is old.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace perfzero::pricing {

struct GpuSpec {
  std::string model;
  int count = 0;
};

// A flexible shape (OCI E4/E5/A1 Flex) is priced from the OCPUs and memory an instance was given.
struct FlexiblePrice {
  double usd_per_ocpu_hour = 0;
  double usd_per_gib_hour = 0;
};

// A dated spot / preemptible price of one shape, where the provider publishes one (most move with
// the market: a catalog records what a user saw, with its date).
struct SpotPrice {
  double usd_per_hour = 0;
  std::string source;
  std::string date;
};

struct Shape {
  std::string provider;  // oci, aws, gcp, azure
  std::string name;      // the provider's shape or instance type name, e.g. c7i.2xlarge
  std::string region;
  std::string arch;                    // x86_64 or aarch64
  std::string cpu_vendor;              // intel, amd or arm (an Arm design: Graviton, Ampere); empty: not stated
  std::optional<double> vcpus;         // fixed shapes
  std::optional<double> ocpus;         // as the catalog states it; otherwise from vCPUs (ocpus_of)
  std::optional<double> memory_gib;    // fixed shapes
  std::optional<GpuSpec> gpus;         // GPU shapes
  std::optional<double> usd_per_hour;  // fixed shapes
  std::optional<FlexiblePrice> flexible;
  std::optional<SpotPrice> spot;
  std::string source;  // the public price page the figure was read from
  std::string date;    // YYYY-MM-DD: when the figure was read
  std::string where;   // file:line:column of the entry, for messages
};

// How a provider bills an instance's time: in steps of `granularity_seconds`, never less than
// `minimum_seconds` an instance (AWS: per second, 60 s minimum). `spot_discount`: a fixed fraction
// off the on-demand price for spot capacity, where the provider sets one (OCI preemptible: 0.5).
struct BillingRule {
  std::string provider;
  double granularity_seconds = 1;
  double minimum_seconds = 0;
  std::optional<double> spot_discount;
  std::string source;
  std::string date;
  std::string where;  // file:line:column
};

struct Catalog {
  std::string file;
  std::string currency = "USD";
  std::vector<Shape> shapes;
  std::vector<BillingRule> billing;

  // The entry for `name` (and `provider` when not empty); nullptr when the catalog has none.
  const Shape* find(const std::string& provider, const std::string& name) const;
  // The provider's billing rule; nullptr when the catalog has none.
  const BillingRule* billing_for(const std::string& provider) const;
};

// An hourly price and how it was reached, in words for the report.
struct Quote {
  double usd_per_hour = 0;
  std::string how;
};

// A flexible shape's hour for `ocpus` and `memory_gib`: "4 OCPU x $0.025 + 16 GiB x $0.0015 per hour".
// OCI bills at least 1 OCPU, and at least 1 GB per OCPU (memory_gib 0: unknown, left out); a size
// under those is billed at them, and the words say so.
Quote flexible_price(const FlexiblePrice& f, double ocpus, double memory_gib);

// A flexible shape named with its size, as the fleet and the README do: VM.Standard.E4.Flex-2,
// VM.Standard.E4.Flex-2ocpu, VM.Standard.E4.Flex-2ocpu-16gb.
struct FlexSize {
  std::string shape;  // VM.Standard.E4.Flex
  double ocpus = 0;
  std::optional<double> memory_gib;
};
// nullopt when `name` is not "<...>.Flex-N[ocpu][-Mgb]".
std::optional<FlexSize> parse_flex_size(const std::string& name);

// One host of `shape` on spot capacity: the shape's dated spot price (fixed shapes), else the
// provider's fixed discount off `on_demand_usd_per_hour`; nullopt when the catalog has neither.
// `shape` may be null (a shape the catalog does not list is priced by its provider's discount).
std::optional<Quote> spot_price(const Catalog& catalog, const Shape* shape, const std::string& provider,
                                double on_demand_usd_per_hour);

// What an instance that ran `seconds` is billed for under `rule`: whole steps, at least the minimum.
double billed_seconds(const BillingRule& rule, double seconds);

// "per second, 60 s minimum", "per hour", "per minute, 5 min minimum".
std::string describe(const BillingRule& rule);

// Loads and validates a catalog; throws ConfigError naming file:line:column, the entry and the field.
Catalog load_catalog(const std::filesystem::path& file);

// The brief's rule: 1 OCPU = 1 physical core = 2 vCPUs on x86 (AMD, Intel), 1 vCPU on Arm.
double ocpus_of(double vcpus, const std::string& arch);

// Days from `date` (YYYY-MM-DD) to `today` (same form); nullopt when either is not a date.
std::optional<int> days_between(const std::string& date, const std::string& today);
// A real day as YYYY-MM-DD from 2000 on (no February 30th, February 29th only in leap years).
bool is_calendar_date(const std::string& s);

}  // namespace perfzero::pricing
