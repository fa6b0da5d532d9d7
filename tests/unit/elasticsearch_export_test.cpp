// The bulk file against the bulk API's rules and the generated mapping against every document;
// no Elasticsearch or OpenSearch server is packaged in Debian to load them into (docs/exports.md).
#include "export_formats/elasticsearch_export.hpp"
#include "common/utf8.hpp"

#include <gtest/gtest.h>

#include <set>

#include "common/files.hpp"
#include "elasticsearch_bulk_checks.hpp"
#include "export_formats/export_text.hpp"
#include "export_test_runs.hpp"
#include "temp_dir.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::export_formats::elasticsearch_export_test {
namespace {

using nlohmann::json;
using testing::check_bulk;
using testing::check_mapping_covers;

struct Loaded {
  testing::BulkCheck bulk;
  json properties;
};

Loaded load(const results::Run& run) {
  const auto e = elasticsearch_export(run);
  Loaded l{check_bulk(e.bulk), json::parse(e.index_template)["template"]["mappings"]["properties"]};
  EXPECT_TRUE(l.bulk.problems.empty()) << ::testing::PrintToString(l.bulk.problems);
  EXPECT_TRUE(check_mapping_covers(l.properties, l.bulk.documents).empty())
      << ::testing::PrintToString(check_mapping_covers(l.properties, l.bulk.documents));
  return l;
}

const json* find_doc(const Loaded& l, const std::string& metric, int trial, std::size_t nth = 0) {
  for (const auto& d : l.bulk.documents) {
    if (d.value("metric", "") == metric && d.value("trial", 0) == trial && nth-- == 0) return &d;
  }
  return nullptr;
}

TEST(ElasticsearchExport, OneDocumentPerMeasuredTrialAndMetricWithRunAndMachineFieldsFlat) {
  const auto l = load(testing::plain_export_run());
  // 3 trials x (wall_time, bandwidth, max_rss) + the failed trial's wall_time and max_rss; no warm-up.
  ASSERT_EQ(l.bulk.documents.size(), 11U);
  std::set<std::string> ids;
  for (const auto& a : l.bulk.actions) {
    EXPECT_EQ(a["index"]["_index"], kElasticsearchIndex);
    ids.insert(a["index"]["_id"].get<std::string>());
  }
  EXPECT_EQ(ids.size(), 11U) << "every document has its own id";
  const json* d = find_doc(l, "bandwidth", 2);
  ASSERT_NE(d, nullptr);
  EXPECT_EQ((*d)["value"], 20.0);
  EXPECT_EQ((*d)["unit"], "GB/s");
  EXPECT_EQ((*d)["case"], "stream.Stream.triad[n=1000000]");
  EXPECT_EQ((*d)["method"], "stream.Stream.triad");
  EXPECT_EQ((*d)["param_n"], 1000000);
  EXPECT_EQ((*d)["param_kind"], "triad");
  EXPECT_EQ((*d)["execution_id"], "20261122T151200Z-abc123");
  EXPECT_EQ((*d)["execution_label"], "nightly");
  EXPECT_EQ((*d)["platform_name"], "oci");
  EXPECT_EQ((*d)["system_name"], "VM.Standard.E4.Flex-2");
  EXPECT_EQ((*d)["instance_type"], "VM.Standard.E4.Flex");
  EXPECT_EQ((*d)["cpu_model"], "AMD EPYC 7J13");
  EXPECT_EQ((*d)["cloud"], "oci");
  EXPECT_EQ((*d)["outcome"], "succeeded");
  EXPECT_EQ((*d)["@timestamp"], "2026-11-22T15:12:01.250Z") << "the run's start plus the trial's offset";
  EXPECT_EQ((*d)["run_timestamp"], "2026-11-22T15:12:00.250Z");
  for (const auto& doc : l.bulk.documents) EXPECT_NE(doc.value("value", 0.0), 99.0) << "a warm-up was exported";
  const json* failed = find_doc(l, "wall_time", 1, 1);
  ASSERT_NE(failed, nullptr);
  EXPECT_EQ((*failed)["outcome"], "failed");
  EXPECT_EQ((*failed)["detail"], "exited with code 1");
}

TEST(ElasticsearchExport, MappingIsGeneratedFromTheValues) {
  const auto l = load(testing::plain_export_run());
  EXPECT_EQ(l.properties["value"]["type"], "double");
  EXPECT_EQ(l.properties["trial"]["type"], "long");
  EXPECT_EQ(l.properties["param_n"]["type"], "long");
  EXPECT_EQ(l.properties["@timestamp"]["type"], "date");
  EXPECT_EQ(l.properties["run_timestamp"]["type"], "date");
  EXPECT_EQ(l.properties["case"]["type"], "keyword");
  EXPECT_EQ(l.properties["param_kind"]["type"], "keyword");
  EXPECT_EQ(l.properties.size(), l.bulk.documents[0].size() + 1) << "every field, and the failed trial's detail";
  const auto t = json::parse(elasticsearch_export(testing::plain_export_run()).index_template);
  EXPECT_EQ(t["index_patterns"], json::array({std::string(kElasticsearchIndex) + "*"}));
  EXPECT_EQ(t["template"]["mappings"]["date_detection"], false);
}

TEST(ElasticsearchExport, AFieldWhoseValuesDisagreeBecomesKeywordInMappingAndDocuments) {
  auto run = testing::plain_export_run();
  run.cases[1].params = {{"n", "large"}};  // a number in one case, text in the other
  const auto l = load(run);
  EXPECT_EQ(l.properties["param_n"]["type"], "keyword");
  EXPECT_EQ((*find_doc(l, "bandwidth", 1))["param_n"], "1000000");
}

TEST(ElasticsearchExport, HostileNamesAndNonFiniteValuesStayValid) {
  const auto l = load(testing::hostile_export_run());
  std::set<std::string> ids;
  for (const auto& a : l.bulk.actions) ids.insert(a["index"]["_id"].get<std::string>());
  EXPECT_EQ(ids.size(), l.bulk.actions.size()) << "repeated metrics and twin names still get their own ids";
  const std::map<std::string, std::string> non_finite{
      {"nan metric", "NaN"}, {"inf metric", "Infinity"}, {"neg inf", "-Infinity"}};
  for (const auto& [metric, text] : non_finite) {
    const json* d = find_doc(l, metric, 1);
    ASSERT_NE(d, nullptr) << metric;
    EXPECT_FALSE(d->contains("value")) << "JSON has no " << text;
    EXPECT_EQ((*d)["value_non_finite"], text);
    EXPECT_EQ((*d)["flags"], json::array({"non_finite_metric", "host_busy"}));
  }
  EXPECT_EQ((*find_doc(l, "huge", 1))["value"], 1e300);
  const json* hostile = find_doc(l, utf8::valid(testing::kHostileName), 1);
  ASSERT_NE(hostile, nullptr);
  EXPECT_EQ((*hostile)["unit"], "it/s, \"fast\"");
  EXPECT_EQ((*hostile)["case"], utf8::valid(testing::kHostileName));
  EXPECT_EQ((*hostile)["execution_label"], "label with spaces, commas=equals \"quotes\"\n");
  EXPECT_EQ((*hostile)["cpu_model"], "CPU \xEF\xBF\xBD( bad UTF-8");
  // "a b" sorts before "a.b": it keeps the plain name, the other gets the suffix.
  EXPECT_EQ((*hostile)["param_a_b"], "two");
  EXPECT_EQ((*hostile)["param_a_b_2"], 1) << "two names that reduce alike both stay";
  EXPECT_EQ((*hostile)["param_flag"], "true");
  EXPECT_EQ((*hostile)["param_list"], "[1,2]");
  EXPECT_EQ(l.properties["param_when"]["type"], "keyword") << "text shaped like a date but no date";
  EXPECT_EQ(l.properties["flags"]["type"], "keyword");
  EXPECT_EQ(l.properties["value_non_finite"]["type"], "keyword");
  EXPECT_NE(find_doc(l, "twice", 1, 1), nullptr) << "a metric reported twice is two documents";
}

TEST(ElasticsearchExport, AnEmptyRunIsAnEmptyBulkAndATemplateWithoutProperties) {
  results::Run run;
  const auto e = elasticsearch_export(run);
  EXPECT_EQ(e.bulk, "");
  EXPECT_EQ(json::parse(e.index_template)["template"]["mappings"]["properties"], json::object());
}

TEST(ElasticsearchExport, WritesBothFilesIntoTheDirectory) {
  testing::TempDir dir;
  const auto run = testing::plain_export_run();
  write_elasticsearch(run, dir.path());
  const auto expected = elasticsearch_export(run);
  EXPECT_EQ(files::read_text(dir.path() / kElasticsearchBulkFile), expected.bulk);
  EXPECT_EQ(files::read_text(dir.path() / kElasticsearchTemplateFile), expected.index_template);
}

}  // namespace
}  // namespace perfzero::export_formats::elasticsearch_export_test
