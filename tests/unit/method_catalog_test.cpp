// The method catalog: worker list documents parsed into a registry, workers found on disk, conflicts and
// missing workers named.
#include "method_catalog/catalog.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdio>

#include "api/list_protocol.hpp"
#include "common/errors.hpp"
#include "config/method_selector.hpp"
#include "method_catalog/list_json_parser.hpp"
#include "method_catalog/worker_discovery.hpp"
#include "temp_dir.hpp"

namespace perfzero::method_catalog {
namespace {

using perfzero::testing::TempDir;

Registry sample_registry(const std::string& family) {
  Registry r;
  r.add({family,
         "Example",
         "benchmark_sum",
         "Sums a vector",
         {{"n", ParamType::integer, std::int64_t{50000}, "elements"},
          {"scale", ParamType::number, 1.5, "factor"},
          {"check", ParamType::boolean, true, ""},
          {"label", ParamType::string, std::string("x"), ""}},
         nullptr});
  return r;
}

std::string list_text(const std::string& family, const std::string& worker) {
  return detail::method_list_json(sample_registry(family), worker).dump();
}

std::string parse_error(const std::string& text) {
  try {
    parse_method_list(text);
  } catch (const std::exception& e) {
    return e.what();
  }
  return "(no error)";
}

// A worker stand-in: a shell script answering --list-json.
void write_worker(const TempDir& dir, const std::string& name, const std::string& body) {
  const auto path = dir.write(name, "#!/bin/sh\n" + body + "\n");
  ::chmod(path.c_str(), 0755);
}

struct Captured {
  Catalog catalog;
  std::string warnings;
};

Captured discover_in(const std::filesystem::path& bin_dir, const std::string& worker_path) {
  // The stream is closed and its buffer freed on the throwing path too (LeakSanitizer checks it).
  struct Memstream {
    char* buffer = nullptr;
    std::size_t size = 0;
    std::FILE* file = ::open_memstream(&buffer, &size);
    Memstream() = default;
    Memstream(const Memstream&) = delete;
    Memstream& operator=(const Memstream&) = delete;
    ~Memstream() {
      if (file != nullptr) std::fclose(file);
      std::free(buffer);
    }
    std::string close() {
      std::fclose(file);
      file = nullptr;
      return {buffer, size};
    }
  } warnings;
  Captured out{discover({bin_dir, worker_path, std::chrono::milliseconds(2000)}, warnings.file), ""};
  out.warnings = warnings.close();
  return out;
}

TEST(ListJson, RoundTripsEveryParameterType) {
  const auto listed = parse_method_list(list_text("team", "core"));
  EXPECT_EQ(listed.worker, "core");
  ASSERT_EQ(listed.methods.size(), 1U);
  const MethodInfo& m = listed.methods[0];
  EXPECT_EQ(m.full_name(), "team.Example.benchmark_sum");
  EXPECT_EQ(m.description, "Sums a vector");
  ASSERT_EQ(m.params.size(), 4U);
  EXPECT_EQ(std::get<std::int64_t>(m.params[0].default_value), 50000);
  EXPECT_EQ(std::get<double>(m.params[1].default_value), 1.5);
  EXPECT_EQ(std::get<bool>(m.params[2].default_value), true);
  EXPECT_EQ(std::get<std::string>(m.params[3].default_value), "x");
}

TEST(ListJson, BadDocumentsSayWhatIsWrong) {
  EXPECT_EQ(parse_error("not json"), "not a JSON object");
  EXPECT_NE(parse_error(R"({"worker": "x", "methods": []})").find("list_protocol_version: missing"), std::string::npos);
  EXPECT_NE(
      parse_error(R"({"worker": "x", "list_protocol_version": 9, "methods": []})").find("9 is not the supported 1"),
      std::string::npos);
  std::string text = list_text("team", "core");
  const auto at = text.find("\"integer\"");
  text.replace(at, 9, "\"float\"");
  EXPECT_NE(
      parse_error(text).find("methods[0].params[0].type: expected integer, number, boolean or string, got 'float'"),
      std::string::npos)
      << parse_error(text);
  std::string renamed = list_text("team", "core");
  renamed.replace(renamed.find("\"team.Example.benchmark_sum\""), 28, "\"other\"");
  EXPECT_NE(parse_error(renamed).find("methods[0].name: 'other' is not family.class.method"), std::string::npos);
  auto twice = nlohmann::json::parse(list_text("team", "core"));
  twice["methods"].push_back(twice["methods"][0]);
  EXPECT_EQ(parse_error(twice.dump()), "methods[1].name: 'team.Example.benchmark_sum' is listed twice");
}

TEST(ListJson, NeedsIsOptionalAndAListOfStrings) {
  auto doc = nlohmann::json::parse(list_text("team", "core"));
  EXPECT_TRUE(parse_method_list(doc.dump()).methods[0].needs.empty()) << "a worker that lists no needs";
  doc["methods"][0]["needs"] = {"gpu"};
  EXPECT_EQ(parse_method_list(doc.dump()).methods[0].needs, std::vector<std::string>{"gpu"});
  doc["methods"][0]["needs"] = "gpu";
  EXPECT_EQ(parse_error(doc.dump()), "methods[0].needs: expected an array of strings");
  doc["methods"][0]["needs"] = {1};
  EXPECT_EQ(parse_error(doc.dump()), "methods[0].needs: expected an array of strings");
}

TEST(MethodCatalog, TheSameMethodFromTwoWorkersNamesBoth) {
  Catalog catalog;
  catalog.add("/a/perfzero-worker-one", parse_method_list(list_text("team", "one")));
  try {
    catalog.add("/b/perfzero-worker-two", parse_method_list(list_text("team", "two")));
    FAIL() << "no error";
  } catch (const ConfigError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("team.Example.benchmark_sum is listed by two workers: /a/perfzero-worker-one and "
                           "/b/perfzero-worker-two"),
              std::string::npos)
        << message;
  }
  EXPECT_EQ(catalog.workers().size(), 1U);
  EXPECT_EQ(catalog.worker_of("team.Example.benchmark_sum")->name, "one");
}

TEST(Discovery, FindsWorkersBesidePerfzeroAndOnThePathAndWarnsAboutBadOnes) {
  TempDir bin;
  TempDir extra;
  write_worker(bin, "perfzero-worker-good", "echo '" + list_text("good", "good") + "'");
  write_worker(bin, "perfzero-worker-garbage", "echo 'this is not json'");
  write_worker(bin, "perfzero-worker-fails", "echo 'cannot load libfoo.so' >&2; exit 3");
  write_worker(bin, "not-a-worker", "exit 1");
  write_worker(extra, "perfzero-worker-extra", "echo '" + list_text("extra", "extra") + "'");
  const auto found = discover_in(bin.path(), "/no/such/dir:" + extra.path().string() + ":" + bin.path().string());
  EXPECT_NE(found.catalog.registry().find("good.Example.benchmark_sum"), nullptr);
  EXPECT_NE(found.catalog.registry().find("extra.Example.benchmark_sum"), nullptr);
  EXPECT_EQ(found.catalog.worker_of("extra.Example.benchmark_sum")->executable, extra.path() / "perfzero-worker-extra");
  EXPECT_NE(found.warnings.find("worker " + (bin.path() / "perfzero-worker-garbage").string() +
                                " is unusable (--list-json printed bad JSON: not a JSON object)"),
            std::string::npos)
      << found.warnings;
  EXPECT_NE(found.warnings.find("perfzero-worker-fails is unusable (--list-json exited with status 3: cannot load "
                                "libfoo.so); its methods are unavailable"),
            std::string::npos)
      << found.warnings;
  EXPECT_EQ(std::count(found.warnings.begin(), found.warnings.end(), '\n'), 2) << found.warnings;
}

TEST(Discovery, AWorkerThatHangsIsKilledAtTheLimit) {
  TempDir bin;
  write_worker(bin, "perfzero-worker-slow", "exec sleep 30");
  const auto started = std::chrono::steady_clock::now();
  const auto listings = list_workers(find_workers(bin.path(), ""), std::chrono::milliseconds(300));
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(5));
  ASSERT_EQ(listings.size(), 1U);
  EXPECT_NE(listings[0].failure.find("did not answer --list-json within"), std::string::npos) << listings[0].failure;
}

TEST(Discovery, TheSameMethodInTwoDirectoriesIsAnError) {
  TempDir bin;
  TempDir extra;
  write_worker(bin, "perfzero-worker-a", "echo '" + list_text("team", "a") + "'");
  write_worker(extra, "perfzero-worker-b", "echo '" + list_text("team", "b") + "'");
  EXPECT_THROW(discover_in(bin.path(), extra.path().string()), ConfigError);
}

TEST(MissingWorker, AKnownFamilyNamesTheWorkerTheBuildLacks) {
  const Registry core = sample_registry("sanity");
  auto message_of = [&](const std::string& spec) {
    try {
      config::select_methods(spec, "--benchmark_methods", core);
    } catch (const ConfigError& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  EXPECT_EQ(message_of("onednn.Matmul.benchmark_matmul_fp32"),
            "--benchmark_methods: onednn.Matmul.benchmark_matmul_fp32 needs the oneDNN worker "
            "(perfzero-worker-onednn), which this build/image does not include");
  EXPECT_NE(message_of("onednn.Matmul.filter:.*").find("needs the oneDNN worker"), std::string::npos);
  EXPECT_NE(message_of("cuda_stream.Copy.benchmark_copy").find("needs the CUDA worker (perfzero-worker-cuda)"),
            std::string::npos);
  EXPECT_NE(message_of("sanity.Example.benchmark_sun").find("did you mean"), std::string::npos);
}

}  // namespace
}  // namespace perfzero::method_catalog
