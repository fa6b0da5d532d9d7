// The method catalog: worker list documents parsed into a registry, workers found on disk, conflicts and
// missing workers named.
#include "method_catalog/catalog.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <unistd.h>

#include <cstdio>
#include <fstream>

#include "api/list_protocol.hpp"
#include "common/errors.hpp"
#include "config/method_selector.hpp"
#include "method_catalog/known_workers.hpp"
#include "method_catalog/list_cache.hpp"
#include "method_catalog/list_json_parser.hpp"
#include "method_catalog/worker_discovery.hpp"
#include "scoped_env.hpp"
#include "temp_dir.hpp"

// A namespace of this file's own: a unity build puts several test files in one translation unit,
// where their anonymous namespaces would share helper names.
namespace perfzero::method_catalog::method_catalog_test {
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

std::string slurp_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
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

Captured discover_in(const std::filesystem::path& bin_dir, const std::string& worker_path,
                     const std::filesystem::path& cache_dir = {}) {
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
  Captured out{discover({bin_dir, worker_path, std::chrono::milliseconds(2000), cache_dir}, warnings.file), ""};
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

// A worker that notes each time it is asked, in asked.log beside it.
void write_counting_worker(const TempDir& bin, const std::string& family) {
  write_worker(bin, "perfzero-worker-" + family,
               "echo x >> \"$(dirname \"$0\")/asked.log\"; echo '" + list_text(family, family) + "'");
}

int times_asked(const TempDir& bin) {
  const std::string log = slurp_file(bin.path() / "asked.log");
  return static_cast<int>(std::count(log.begin(), log.end(), '\n'));
}

TEST(ListCache, AnUnchangedWorkerIsAskedOnceAndAChangedOneAgain) {
  TempDir bin;
  TempDir cache;
  write_counting_worker(bin, "counted");
  for (int i = 0; i < 3; ++i) {
    const auto found = discover_in(bin.path(), "", cache.path());
    EXPECT_NE(found.catalog.registry().find("counted.Example.benchmark_sum"), nullptr);
    EXPECT_EQ(found.warnings, "");
  }
  EXPECT_EQ(times_asked(bin), 1) << "the second and third start-ups read the cache";
  // Rewritten in place (same inode, same size): the change time tells.
  const auto worker = bin.path() / "perfzero-worker-counted";
  const std::string text = slurp_file(worker);
  std::ofstream(worker, std::ios::trunc) << text;
  (void)discover_in(bin.path(), "", cache.path());
  EXPECT_EQ(times_asked(bin), 2);
  // Without a cache directory every start-up asks.
  (void)discover_in(bin.path(), "");
  EXPECT_EQ(times_asked(bin), 3);
}

TEST(ListCache, ABrokenForeignOrOddEntryIsIgnoredAndRebuilt) {
  TempDir bin;
  TempDir cache;
  write_counting_worker(bin, "counted");
  (void)discover_in(bin.path(), "", cache.path());
  ASSERT_EQ(times_asked(bin), 1);
  std::filesystem::path entry;
  for (const auto& e : std::filesystem::directory_iterator(cache.path())) entry = e.path();
  ASSERT_FALSE(entry.empty());
  const std::string good = slurp_file(entry);
  int expected = 1;
  auto expect_asked_again = [&](const std::string& what) {
    const auto found = discover_in(bin.path(), "", cache.path());
    EXPECT_NE(found.catalog.registry().find("counted.Example.benchmark_sum"), nullptr) << what;
    EXPECT_EQ(times_asked(bin), ++expected) << what;
    EXPECT_EQ(slurp_file(entry), good) << what << ": rewritten";
  };
  std::ofstream(entry, std::ios::trunc) << good.substr(0, good.size() / 2);
  expect_asked_again("a torn entry");
  std::ofstream(entry, std::ios::trunc) << "\xff\xfe not json";
  expect_asked_again("bytes that are not JSON");
  // The entry says another list for this worker, under another identity: not trusted.
  auto doc = nlohmann::json::parse(good);
  doc["inode"] = doc["inode"].get<std::uint64_t>() + 1;
  std::ofstream(entry, std::ios::trunc) << doc.dump();
  expect_asked_again("another identity");
  // A link in the entry's place, to a copy of the right entry: only not following it refuses it.
  std::filesystem::remove(entry);
  const auto copy = cache.write("copy-of-entry", good);
  std::filesystem::create_symlink(copy, entry);
  (void)discover_in(bin.path(), "", cache.path());
  EXPECT_EQ(times_asked(bin), ++expected) << "a link in the entry's place is not followed";
  std::filesystem::remove(entry);
  ::mkfifo(entry.c_str(), 0600);
  (void)discover_in(bin.path(), "", cache.path());
  EXPECT_EQ(times_asked(bin), ++expected) << "a FIFO in the entry's place does not block";
  std::filesystem::remove(entry);
  if (::geteuid() == 0) {
    // Another user's entry is not read, even when it is right.
    std::ofstream(entry) << good;
    ASSERT_EQ(::chown(entry.c_str(), 12345, 12345), 0);
    (void)discover_in(bin.path(), "", cache.path());
    EXPECT_EQ(times_asked(bin), ++expected) << "another user's entry";
  }
}

TEST(ListCache, AnotherLibraryPathIsAnotherEntry) {
  TempDir bin;
  TempDir cache;
  write_counting_worker(bin, "counted");
  (void)discover_in(bin.path(), "", cache.path());
  (void)discover_in(bin.path(), "", cache.path());
  EXPECT_EQ(times_asked(bin), 1);
  {
    const testing::ScopedEnv env{{"LD_LIBRARY_PATH", "/opt/other/lib"}};
    (void)discover_in(bin.path(), "", cache.path());
    EXPECT_EQ(times_asked(bin), 2) << "the libraries it loads may differ";
  }
}

TEST(ListCache, ADirectoryThatIsALinkOrAnotherUsersIsNoCache) {
  TempDir bin;
  TempDir place;
  write_counting_worker(bin, "counted");
  // Made by the cache itself: private.
  (void)discover_in(bin.path(), "", place.path() / "made" / "workers");
  struct stat st {};
  ASSERT_EQ(::stat((place.path() / "made" / "workers").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0700U);
  // A link in the directory's place: nothing read or written through it.
  std::filesystem::create_directories(place.path() / "elsewhere");
  std::filesystem::create_symlink(place.path() / "elsewhere", place.path() / "linked");
  for (int i = 0; i < 2; ++i) (void)discover_in(bin.path(), "", place.path() / "linked");
  EXPECT_TRUE(std::filesystem::is_empty(place.path() / "elsewhere"));
  EXPECT_EQ(times_asked(bin), 3) << "once for the private directory, twice through the link";
  if (::geteuid() == 0) {
    std::filesystem::create_directories(place.path() / "theirs");
    ASSERT_EQ(::chown((place.path() / "theirs").c_str(), 12345, 12345), 0);
    for (int i = 0; i < 2; ++i) (void)discover_in(bin.path(), "", place.path() / "theirs");
    EXPECT_TRUE(std::filesystem::is_empty(place.path() / "theirs"));
    EXPECT_EQ(times_asked(bin), 5);
  }
}

TEST(ListCache, AnUnwritableCacheIsNoCacheAndABadWorkerIsNeverKept) {
  TempDir bin;
  TempDir cache;
  write_counting_worker(bin, "counted");
  const auto file_in_the_way = cache.write("file", "not a directory");
  for (int i = 0; i < 2; ++i) {
    const auto found = discover_in(bin.path(), "", file_in_the_way / "workers");
    EXPECT_NE(found.catalog.registry().find("counted.Example.benchmark_sum"), nullptr);
  }
  EXPECT_EQ(times_asked(bin), 2);
  TempDir other;
  write_worker(other, "perfzero-worker-garbage", "echo 'this is not json'");
  for (int i = 0; i < 2; ++i) {
    const auto found = discover_in(other.path(), "", cache.path());
    EXPECT_NE(found.warnings.find("is unusable"), std::string::npos) << "warned each time, never cached";
  }
  int entries = 0;
  for (const auto& e : std::filesystem::directory_iterator(cache.path())) entries += e.path().filename() != "file";
  EXPECT_EQ(entries, 0) << "a worker whose answer does not parse is never kept";
}

TEST(ListCache, TheDirectoryFollowsTheEnvironment) {
  {
    const testing::ScopedEnv env{{"PERFZERO_WORKER_CACHE", "/x/y"}, {"XDG_CACHE_HOME", "/c"}, {"HOME", "/h"}};
    EXPECT_EQ(default_cache_dir(), "/x/y");
  }
  {
    const testing::ScopedEnv env{{"PERFZERO_WORKER_CACHE", "off"}, {"XDG_CACHE_HOME", "/c"}};
    EXPECT_EQ(default_cache_dir(), "");
  }
  {
    const testing::ScopedEnv env{{"PERFZERO_WORKER_CACHE", ""}, {"XDG_CACHE_HOME", "/c"}, {"HOME", "/h"}};
    EXPECT_EQ(default_cache_dir(), "/c/perfzero/workers");
  }
  {
    const testing::ScopedEnv env{{"PERFZERO_WORKER_CACHE", ""}, {"XDG_CACHE_HOME", "relative"}, {"HOME", "/h"}};
    EXPECT_EQ(default_cache_dir(), "/h/.cache/perfzero/workers") << "XDG: a relative path is ignored";
  }
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

// Every family an optional worker brings is named with that worker when the build lacks it (nccl
// and storage were missing: their methods were called unknown).
TEST(KnownWorkers, EveryOptionalWorkersFamilyNamesItsWorker) {
  for (const auto& [family, worker] : std::vector<std::pair<std::string, std::string>>{{"onednn", "onednn"},
                                                                                       {"cuda", "cuda"},
                                                                                       {"cuda_gemm", "cuda"},
                                                                                       {"opencl", "opencl"},
                                                                                       {"mpi", "mpi"},
                                                                                       {"nccl", "cuda"},
                                                                                       {"storage", "storage"}}) {
    EXPECT_NE(missing_worker_message(family, "it").find("perfzero-worker-" + worker), std::string::npos) << family;
  }
  EXPECT_EQ(missing_worker_message("speedcube", "it"), "");
}

}  // namespace
}  // namespace perfzero::method_catalog::method_catalog_test
