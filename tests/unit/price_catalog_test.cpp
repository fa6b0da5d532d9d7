// The price catalog: the shipped one loads and covers the shapes users rent; broken catalogs are
// refused with the entry, the field and the line.
#include "pricing/price_catalog.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <fstream>
#include <iterator>
#include <regex>

#include "common/errors.hpp"
#include "temp_dir.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::pricing::price_catalog_test {
namespace {

using perfzero::testing::TempDir;

const std::string kShipped = std::string(PERFZERO_SOURCE_DIR) + "/infra/pricing/catalog.yaml";

std::string load_error(const std::string& yaml) {
  TempDir dir;
  try {
    load_catalog(dir.write("catalog.yaml", yaml));
  } catch (const ConfigError& e) {
    const std::string message = e.what();
    return message.substr(message.find("catalog.yaml"));
  }
  return "(no error)";
}

const std::string kHead = "catalog_version: 1\nshapes:\n";
const std::string kGood =
    "  - provider: aws\n    shape: c7i.large\n    arch: x86_64\n    vcpus: 2\n    usd_per_hour: 0.08925\n"
    "    source: https://aws.amazon.com/ec2/pricing/on-demand/\n    date: 2025-01-15\n";

TEST(PriceCatalog, TheShippedCatalogCoversEveryFamilyUsersRent) {
  const Catalog c = load_catalog(kShipped);
  for (const auto& [provider, shape] :
       std::vector<std::pair<std::string, std::string>>{{"oci", "VM.Standard.E4.Flex"},
                                                        {"oci", "VM.Standard.E5.Flex"},
                                                        {"oci", "VM.Standard.A1.Flex"},
                                                        {"oci", "VM.Standard2.4"},
                                                        {"oci", "VM.GPU3.1"},
                                                        {"oci", "BM.GPU4.8"},
                                                        {"oci", "BM.GPU.H100.8"},
                                                        {"aws", "c5.xlarge"},
                                                        {"aws", "c6i.xlarge"},
                                                        {"aws", "c7i.2xlarge"},
                                                        {"aws", "m5.large"},
                                                        {"aws", "m7i.large"},
                                                        {"aws", "c7g.xlarge"},
                                                        {"aws", "c8g.xlarge"},
                                                        {"aws", "p3.2xlarge"},
                                                        {"aws", "p4d.24xlarge"},
                                                        {"aws", "p5.48xlarge"},
                                                        {"gcp", "n1-standard-4"},
                                                        {"gcp", "n2-standard-8"},
                                                        {"gcp", "c3-standard-8"},
                                                        {"gcp", "t2a-standard-4"},
                                                        {"gcp", "a2-highgpu-1g"},
                                                        {"gcp", "a3-highgpu-8g"},
                                                        {"azure", "Standard_D4s_v5"},
                                                        {"azure", "Standard_F4s_v2"},
                                                        {"azure", "Standard_NC24ads_A100_v4"},
                                                        {"azure", "Standard_ND96isr_H100_v5"}}) {
    const Shape* s = c.find(provider, shape);
    ASSERT_NE(s, nullptr) << provider << " " << shape;
    EXPECT_TRUE(s->source.starts_with("https://")) << shape;
    EXPECT_TRUE(days_between(s->date, "2030-01-01").has_value()) << shape;
  }
  EXPECT_TRUE(c.find("oci", "VM.Standard.A1.Flex")->flexible.has_value());
  EXPECT_EQ(c.find("oci", "VM.Standard.A1.Flex")->arch, "aarch64");
  EXPECT_EQ(c.find("aws", "p5.48xlarge")->gpus->count, 8);
}

// The shapes infra/terraform/examples/fleet launches when given no `shapes`: { cloud = "aws", shape = "g5.xlarge" }.
std::vector<std::pair<std::string, std::string>> fleet_default_shapes() {
  std::ifstream in(std::string(PERFZERO_SOURCE_DIR) + "/infra/terraform/examples/fleet/variables.tf");
  const std::string tf((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto block = tf.find("variable \"shapes\"");
  const auto defaults = tf.find("default", block);
  const auto end = tf.find("\n  ]", defaults);
  if (block == std::string::npos || defaults == std::string::npos || end == std::string::npos) return {};
  const std::string list = tf.substr(defaults, end - defaults);
  static const std::regex kEntry(R"re(\{\s*cloud\s*=\s*"([a-z]+)"\s*,\s*shape\s*=\s*"([^"]+)")re");
  std::vector<std::pair<std::string, std::string>> shapes;
  for (auto it = std::sregex_iterator(list.begin(), list.end(), kEntry); it != std::sregex_iterator(); ++it) {
    shapes.emplace_back((*it)[1].str(), (*it)[2].str());
  }
  return shapes;
}

TEST(PriceCatalog, EveryShapeTheFleetExampleLaunchesByDefaultIsPriced) {
  const auto shapes = fleet_default_shapes();
  // The fleet's default lists three clouds x (x86, Arm, GPU): fewer means the file was misread.
  ASSERT_GE(shapes.size(), 9U) << "could not read the default shapes of infra/terraform/examples/fleet/variables.tf";
  const Catalog c = load_catalog(kShipped);
  for (const auto& [cloud, shape] : shapes) {
    const Shape* s = c.find(cloud, shape);
    EXPECT_NE(s, nullptr) << cloud << " " << shape << " is launched by the fleet example but missing from " << kShipped;
    if (s != nullptr && !s->flexible) {
      EXPECT_TRUE(s->vcpus.has_value()) << shape;
    }
  }
  // The GPU shapes among them, with what `perfzero report` checks a run against.
  const Shape* g5 = c.find("aws", "g5.xlarge");
  const Shape* g2 = c.find("gcp", "g2-standard-4");
  const Shape* a10 = c.find("oci", "VM.GPU.A10.1");
  ASSERT_TRUE(g5 && g2 && a10);
  EXPECT_EQ(g5->gpus->model, "NVIDIA A10G");
  EXPECT_EQ(g2->gpus->count, 1);
  EXPECT_EQ(*a10->ocpus, 15);
}

TEST(PriceCatalog, OcpusFollowTheBriefsRule) {
  EXPECT_EQ(ocpus_of(8, "x86_64"), 4);
  EXPECT_EQ(ocpus_of(8, "aarch64"), 8);
}

TEST(PriceCatalog, DaysBetweenDates) {
  EXPECT_EQ(days_between("2025-01-15", "2026-01-15"), 365);
  EXPECT_EQ(days_between("2024-02-28", "2024-03-01"), 2);
  EXPECT_FALSE(days_between("yesterday", "2026-01-15").has_value());
}

TEST(PriceCatalog, BrokenCatalogsNameTheEntryAndTheField) {
  EXPECT_EQ(load_error(kHead + kGood), "(no error)");
  std::string bad_price = kHead + kGood;
  bad_price.replace(bad_price.find("0.08925"), 7, "cheap");
  EXPECT_EQ(load_error(bad_price),
            "catalog.yaml:7:19: shapes[0] (c7i.large).usd_per_hour: expected a positive number of at most 1e+09, got "
            "'cheap'");
  std::string no_date = kHead + kGood;
  no_date.erase(no_date.find("    date:"));
  EXPECT_EQ(load_error(no_date), "catalog.yaml:3:5: shapes[0]: missing 'date'");
  std::string typo = kHead + kGood + "    usd_per_hr: 1\n";
  EXPECT_NE(load_error(typo).find("unknown key 'usd_per_hr'; did you mean 'usd_per_hour'?"), std::string::npos);
  EXPECT_NE(load_error(kHead + kGood + kGood).find("listed twice for this provider and region"), std::string::npos);
  std::string both = kHead + kGood + "    flexible: {usd_per_ocpu_hour: 0.01}\n";
  EXPECT_NE(load_error(both).find("expected exactly one of 'usd_per_hour'"), std::string::npos);
  std::string provider = kHead + kGood;
  provider.replace(provider.find("aws"), 3, "ibm");
  EXPECT_NE(load_error(provider).find("provider: expected one of oci, aws, gcp, azure, got 'ibm'"), std::string::npos);
  std::string date = kHead + kGood;
  date.replace(date.find("2025-01-15"), 10, "15/01/2025");
  EXPECT_NE(load_error(date).find("date: expected a date as YYYY-MM-DD"), std::string::npos);
  EXPECT_NE(load_error("catalog_version: 2\nshapes: []\n").find("catalog_version: 1"), std::string::npos);
  EXPECT_NE(load_error("shapes: [").find("YAML syntax error"), std::string::npos);
  EXPECT_NE(load_error(kHead + kGood + "---\n" + kHead + kGood).find("holds 2 YAML documents"), std::string::npos);
  EXPECT_NE(load_error(std::string(100000, '[')).find("nested too deeply"), std::string::npos);
}

TEST(PriceCatalog, TheShippedCatalogSaysHowEachProviderBillsWithItsSource) {
  const Catalog c = load_catalog(kShipped);
  for (const char* provider : {"aws", "gcp", "oci", "azure"}) {
    const BillingRule* rule = c.billing_for(provider);
    ASSERT_NE(rule, nullptr) << provider;
    EXPECT_TRUE(rule->source.starts_with("https://")) << provider;
    EXPECT_EQ(rule->date.size(), 10U) << provider;
  }
  EXPECT_EQ(describe(*c.billing_for("aws")), "per second, 60 s minimum");
  EXPECT_EQ(describe(*c.billing_for("azure")), "per second, 5 min minimum");
  EXPECT_DOUBLE_EQ(c.billing_for("oci")->spot_discount.value_or(0), 0.5);
}

TEST(PriceCatalog, BilledTimeIsWholeStepsAndAtLeastTheMinimum) {
  BillingRule per_second{"aws", 1, 60, std::nullopt, "", "", ""};
  EXPECT_DOUBLE_EQ(billed_seconds(per_second, 0), 60);
  EXPECT_DOUBLE_EQ(billed_seconds(per_second, 59.9), 60);
  EXPECT_DOUBLE_EQ(billed_seconds(per_second, 61.2), 62);
  EXPECT_DOUBLE_EQ(billed_seconds(per_second, 120), 120);
  BillingRule per_minute{"x", 60, 300, std::nullopt, "", "", ""};
  EXPECT_DOUBLE_EQ(billed_seconds(per_minute, 301), 360);
  EXPECT_DOUBLE_EQ(billed_seconds(per_minute, 100), 300);
  EXPECT_EQ(describe(per_minute), "per minute, 5 min minimum");
  BillingRule per_hour{"x", 3600, 0, std::nullopt, "", "", ""};
  EXPECT_DOUBLE_EQ(billed_seconds(per_hour, 3601), 7200);
  EXPECT_DOUBLE_EQ(billed_seconds(per_hour, -5), 0);  // a clock that went back bills nothing, not less
  EXPECT_EQ(describe(per_hour), "per hour");
}

// The report's configurations and `--estimate` price spot capacity and flexible shapes through the
// same two functions: the shape's dated spot price first, then the provider's fixed discount.
TEST(PriceCatalog, SpotIsTheShapesSpotPriceElseTheProvidersDiscountElseUnknown) {
  Catalog c;
  c.billing.push_back({"oci", 1, 60, 0.5, "https://oci.example/billing", "2026-11-01", ""});
  c.billing.push_back({"aws", 1, 60, std::nullopt, "https://aws.example/billing", "2026-11-01", ""});
  Shape listed;
  listed.provider = "aws";
  listed.name = "m7i.large";
  listed.spot = SpotPrice{0.04, "https://aws.example/spot", "2026-11-20"};
  const auto own = spot_price(c, &listed, "aws", 0.1008);
  ASSERT_TRUE(own.has_value());
  EXPECT_DOUBLE_EQ(own->usd_per_hour, 0.04);
  EXPECT_EQ(own->how, "spot price, 2026-11-20 (https://aws.example/spot)");
  const auto discounted = spot_price(c, nullptr, "oci", 0.30);
  ASSERT_TRUE(discounted.has_value());
  EXPECT_DOUBLE_EQ(discounted->usd_per_hour, 0.15);
  EXPECT_EQ(discounted->how,
            "on-demand less 50 % (oci's fixed spot discount, 2026-11-01 (https://oci.example/billing))");
  Shape flexible = listed;
  flexible.provider = "oci";
  flexible.flexible = FlexiblePrice{0.025, 0.0015};  // a flexible shape's spot entry is refused; the discount applies
  EXPECT_DOUBLE_EQ(spot_price(c, &flexible, "oci", 0.30)->usd_per_hour, 0.15);
  EXPECT_FALSE(spot_price(c, nullptr, "aws", 0.1).has_value());    // no spot price, no discount
  EXPECT_FALSE(spot_price(c, nullptr, "azure", 0.1).has_value());  // no billing rule at all
  const Quote flex = flexible_price(FlexiblePrice{0.025, 0.0015}, 4, 16);
  EXPECT_DOUBLE_EQ(flex.usd_per_hour, 4 * 0.025 + 16 * 0.0015);
  EXPECT_EQ(flex.how, "4 OCPU x $0.025 + 16 GiB x $0.0015 per hour");
}

TEST(PriceCatalog, FlexibleShapesBillOcisMinimums) {
  // A 1-CPU run of an x86 flexible shape is half an OCPU; OCI bills one, and 1 GB per OCPU.
  const Quote half = flexible_price(FlexiblePrice{0.025, 0.0015}, 0.5, 0.5);
  EXPECT_DOUBLE_EQ(half.usd_per_hour, 0.025 + 0.0015);
  EXPECT_EQ(half.how,
            "1 OCPU x $0.025 + 1 GiB x $0.0015 per hour (OCI bills at least 1 OCPU; the run had 0.5) (OCI bills at "
            "least 1 GB per OCPU; the run had 0.5 GiB)");
  EXPECT_DOUBLE_EQ(flexible_price(FlexiblePrice{0.025, 0.0015}, 2, 0).usd_per_hour, 0.05);  // memory unknown
}

TEST(PriceCatalog, AFlexibleShapeNamedWithItsSizeIsParsed) {
  const auto two = parse_flex_size("VM.Standard.E4.Flex-2");
  ASSERT_TRUE(two);
  EXPECT_EQ(two->shape, "VM.Standard.E4.Flex");
  EXPECT_EQ(two->ocpus, 2);
  EXPECT_FALSE(two->memory_gib);
  const auto sized = parse_flex_size("VM.Standard.A1.Flex-4ocpu-24gb");
  ASSERT_TRUE(sized);
  EXPECT_EQ(sized->shape, "VM.Standard.A1.Flex");
  EXPECT_EQ(sized->ocpus, 4);
  EXPECT_EQ(sized->memory_gib, 24);
  EXPECT_EQ(parse_flex_size("VM.Standard.E4.Flex-1.5ocpu")->ocpus, 1.5);
  for (const char* bad : {"VM.Standard.E4.Flex", "VM.Standard.E4.Flex-", "VM.Standard.E4.Flex-0", "c7i.large-2",
                          "VM.Standard.E4.Flex-two", "VM.Standard.E4.Flex-2-16"}) {
    EXPECT_FALSE(parse_flex_size(bad)) << bad;
  }
}

TEST(PriceCatalog, BillingRulesAndSpotPricesAreCheckedLikePrices) {
  const std::string billing =
      "billing:\n  - {provider: aws, granularity_seconds: 1, minimum_seconds: 60, "
      "source: \"https://example.org/b\", date: 2026-01-01}\n";
  TempDir dir;
  const Catalog ok = load_catalog(
      dir.write("ok.yaml", kHead + kGood +
                               "    spot: {usd_per_hour: 0.03, source: \"https://example.org/s\", date: 2026-02-01}\n" +
                               billing));
  ASSERT_TRUE(ok.shapes.at(0).spot);
  EXPECT_DOUBLE_EQ(ok.shapes[0].spot->usd_per_hour, 0.03);
  EXPECT_EQ(ok.shapes[0].spot->date, "2026-02-01");
  EXPECT_NE(ok.billing_for("aws"), nullptr);
  EXPECT_EQ(ok.billing_for("gcp"), nullptr);
  EXPECT_NE(load_error(kHead + kGood + billing + billing.substr(billing.find("  -"))).find("listed twice"),
            std::string::npos);
  std::string discount = kHead + kGood + billing;
  discount.insert(discount.find("source: \"https://example.org/b"), "spot_discount: 1.5, ");
  EXPECT_NE(load_error(discount).find("spot_discount: expected the fraction taken off"), std::string::npos);
  std::string granularity = kHead + kGood + billing;
  granularity.replace(granularity.find("granularity_seconds: 1"), 22, "granularity_seconds: 0");
  EXPECT_NE(load_error(granularity).find("granularity_seconds: expected a positive number"), std::string::npos);
  EXPECT_NE(load_error(kHead + kGood + "    spot: {usd_per_hour: 0.03}\n").find("missing 'source'"), std::string::npos);
  const std::string flex_spot =
      kHead +
      "  - provider: oci\n    shape: E.Flex\n    arch: x86_64\n    flexible: {usd_per_ocpu_hour: 0.03}\n"
      "    spot: {usd_per_hour: 0.01, source: \"https://example.org/s\", date: 2026-02-01}\n"
      "    source: https://example.org/o\n    date: 2025-01-15\n";
  EXPECT_NE(load_error(flex_spot).find("a flexible shape has no one spot price"), std::string::npos)
      << load_error(flex_spot);
  std::string undated = kHead + kGood + billing;
  undated.replace(undated.find("date: 2026-01-01"), 16, "date: soon");
  EXPECT_NE(load_error(undated).find("billing[0] (aws).date: expected a date"), std::string::npos);
}

TEST(PriceCatalog, OnlyARegularFileIsRead) {
  TempDir dir;
  EXPECT_THROW(load_catalog(dir.path()), ConfigError);
  EXPECT_THROW(load_catalog(dir.path() / "missing.yaml"), ConfigError);
  const auto fifo = dir.path() / "fifo.yaml";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_THROW(load_catalog(fifo), ConfigError);  // refused, not read (it would block for ever)
}

}  // namespace
}  // namespace perfzero::pricing::price_catalog_test
