// PerfZero's Python classes through the real binary (docs/python.md): Debian's python3 (PyTorch)
// and build/venv's (TensorFlow) as the interpreters, the classes in tests/data/python_benchmarks,
// a repository made here for --git_repos.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "perfzero_runner.hpp"

namespace fs = std::filesystem;
using nlohmann::json;
using perfzero::testing::kSourceDir;
using perfzero::testing::read_json;
using perfzero::testing::run_perfzero;
using perfzero::testing::slurp;

namespace {

const fs::path kClasses = kSourceDir / "tests" / "data" / "python_benchmarks";
const std::string kDebianPython = "/usr/bin/python3";

std::string tensorflow_python() {
  const char* venv = std::getenv("PERFZERO_VENV");
  return ((venv != nullptr && *venv != '\0') ? fs::path(venv) : kSourceDir / "build" / "venv") / "bin" / "python";
}

fs::path scratch(const std::string& name) {
  fs::path dir = fs::temp_directory_path() / ("pz_python_" + name + "_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

json report_of(const fs::path& run, const std::string& case_name) {
  return read_json(run / case_name / "trial_1" / "perfzero_summary.json");
}

const json* metric(const json& report, const std::string& name) {
  for (const auto& m : report["benchmark_result"]["metrics"]) {
    if (m["name"] == name) return &m;
  }
  return nullptr;
}

std::string outcome(const json& report) { return report["perfzero_cpp"]["outcome"].get<std::string>(); }

void run_git(const fs::path& dir, const std::string& args) {
  const std::string command =
      "git -C '" + dir.string() + "' -c user.name=t -c user.email=t@t " + args + " >/dev/null 2>&1";
  ASSERT_EQ(std::system(command.c_str()), 0) << command;
}

}  // namespace

// The PerfZero-style class: metrics with bounds, extras, the constructor's arguments; the classes
// that raise, never report, report twice, or need a framework this interpreter lacks.
TEST(PythonMethods, PerfZeroClassesRunWithTheirMetricsBoundsExtrasAndOutcomes) {
  const fs::path dir = scratch("classes");
  const std::string methods =
      "--benchmark_methods=perfzero_style.SpinBenchmark.benchmark_spin,"
      "perfzero_style.OutOfBoundsBenchmark:benchmark_too_slow,"
      "misbehaving.Misbehaving.filter:benchmark_(raises|never_reports|reports_twice)$,"
      "needs_missing_framework.NeedsJax.benchmark_jit";
  const auto r = run_perfzero({methods, "--python_path=" + kClasses.string(), "--python=" + kDebianPython,
                               "--perfzero_constructor_args={\"spin_ms\": 2, \"label\": \"from-flag\"}",
                               "--output_dir=" + (dir / "run").string()},
                              dir);
  ASSERT_EQ(r.exit_code, 1) << r.err;  // some methods did not succeed

  const json spin = report_of(dir / "run", "perfzero_style.SpinBenchmark.benchmark_spin");
  EXPECT_EQ(outcome(spin), "succeeded") << spin["perfzero_cpp"]["outcome_detail"];
  EXPECT_EQ(spin["perfzero_cpp"]["method_type"], "python");
  EXPECT_EQ(spin["perfzero_cpp"]["python"]["interpreter"], kDebianPython);
  EXPECT_EQ(spin["perfzero_cpp"]["python"]["class_type"], "perfzero");
  ASSERT_NE(metric(spin, "spin_ms"), nullptr);
  // The constructor's spin_ms (2, the class's default 1) reached the method: it spun at least that
  // long. No upper bound: on a loaded machine (tests run beside others) a 2 ms spin measured 6 ms.
  EXPECT_EQ(spin["benchmark_result"]["extras"]["spin_ms_asked"], 2.0);
  EXPECT_GE((*metric(spin, "spin_ms"))["value"].get<double>(), 1.9);
  EXPECT_EQ((*metric(spin, "spin_ms"))["max_value"], 1000.0);
  EXPECT_EQ(spin["perfzero_cpp"]["metric_directions"]["spin_ms"], "lower");
  EXPECT_EQ(spin["perfzero_cpp"]["metric_units"]["spin_ms"], "ms");
  const json& extras = spin["benchmark_result"]["extras"];
  EXPECT_EQ(extras["label"], "from-flag");
  EXPECT_EQ(extras["output_dir"], (dir / "run" / "perfzero_style.SpinBenchmark.benchmark_spin" / "trial_1").string());
  EXPECT_EQ(extras["python"]["executable"], kDebianPython);
  EXPECT_FALSE(spin["perfzero_cpp"]["repetitions"].empty());  // measure()'s every repetition
  EXPECT_EQ(spin["ml_framework_info"]["name"], "python");     // no framework imported

  const json bounds = report_of(dir / "run", "perfzero_style.OutOfBoundsBenchmark.benchmark_too_slow");
  EXPECT_EQ(outcome(bounds), "failed");
  EXPECT_FALSE(bounds["benchmark_result"]["succeeded"].get<bool>());
  EXPECT_NE(bounds["perfzero_cpp"]["outcome_detail"].get<std::string>().find("max_value"), std::string::npos);

  const json raises = report_of(dir / "run", "misbehaving.Misbehaving.benchmark_raises");
  EXPECT_EQ(outcome(raises), "failed");
  EXPECT_TRUE(raises["benchmark_info"]["has_exception"].get<bool>());
  EXPECT_NE(raises["perfzero_cpp"]["outcome_detail"].get<std::string>().find("the model diverged at step 3"),
            std::string::npos);
  EXPECT_NE(
      slurp(dir / "run" / "misbehaving.Misbehaving.benchmark_raises" / "trial_1" / "perfzero.log").find("Traceback"),
      std::string::npos);

  const json silent = report_of(dir / "run", "misbehaving.Misbehaving.benchmark_never_reports");
  EXPECT_EQ(outcome(silent), "failed");
  EXPECT_NE(silent["perfzero_cpp"]["outcome_detail"].get<std::string>().find("without calling report_benchmark"),
            std::string::npos);

  const json twice = report_of(dir / "run", "misbehaving.Misbehaving.benchmark_reports_twice");
  EXPECT_EQ(outcome(twice), "succeeded");
  EXPECT_EQ((*metric(twice, "step"))["value"], 2.0);  // the last call, as under PerfZero
  EXPECT_EQ(twice["benchmark_result"]["extras"]["python"]["report_benchmark_calls"], 2);
  EXPECT_EQ(twice["benchmark_result"]["extras"]["python"]["earlier_reports"].size(), 1U);

  const json jax = report_of(dir / "run", "needs_missing_framework.NeedsJax.benchmark_jit");
  EXPECT_EQ(outcome(jax), "skipped");
  EXPECT_NE(jax["perfzero_cpp"]["outcome_detail"].get<std::string>().find("jax"), std::string::npos);
}

// One suite, two interpreters: TensorFlow's tf.test.Benchmark class under build/venv's Python
// (named through ${VAR:-default}), PyTorch under Debian's; the BenchmarkEntries file is the result.
TEST(PythonMethods, ASuiteRunsTensorFlowAndPyTorchClassesEachUnderItsInterpreter) {
  const fs::path dir = scratch("suite");
  const fs::path suite = dir / "frameworks.yaml";
  std::ofstream(suite) << "methods:\n"
                          "  - python_method: tf_style.TinyMatmulBenchmark.benchmark_matmul\n"
                          "    python: ${PERFZERO_TEST_TF_PYTHON:-/nonexistent/python}\n"
                          "    python_path: ["
                       << kClasses.string()
                       << "]\n"
                          "    benchmark_class_type: tf_benchmark\n"
                          "  - python_method: torch_tiny.TinyTorchBenchmark.benchmark_matmul\n"
                          "    name: torch_matmul\n"
                          "    python: "
                       << kDebianPython
                       << "\n"
                          "    python_path: ["
                       << kClasses.string()
                       << "]\n"
                          "    metric_directions: {mm_us: lower}\n";
  ::setenv("PERFZERO_TEST_TF_PYTHON", tensorflow_python().c_str(), 1);
  const auto r = run_perfzero({"--config=" + suite.string(), "--output_dir=" + (dir / "run").string()}, dir);
  ::unsetenv("PERFZERO_TEST_TF_PYTHON");
  ASSERT_EQ(r.exit_code, 0) << r.err;

  const json tf = report_of(dir / "run", "tf_style.TinyMatmulBenchmark.benchmark_matmul");
  EXPECT_EQ(tf["ml_framework_info"]["name"], "tensorflow");
  EXPECT_FALSE(tf["ml_framework_info"]["version"].get<std::string>().empty());
  EXPECT_TRUE(tf["ml_framework_info"].contains("cuda_version"));
  EXPECT_EQ(tf["perfzero_cpp"]["python"]["class_type"], "tf_benchmark");
  ASSERT_NE(metric(tf, "matmul_us"), nullptr);
  EXPECT_EQ((*metric(tf, "exact"))["min_value"], 1.0);
  EXPECT_EQ((*metric(tf, "exact"))["max_value"], 1.0);
  EXPECT_EQ(tf["benchmark_result"]["extras"]["size"], 64);  // TensorFlow's double_value, unwrapped
  EXPECT_EQ(tf["benchmark_result"]["extras"]["iters"], 20);
  EXPECT_TRUE(tf["benchmark_result"]["extras"]["framework_threads"].contains("tensorflow"));

  const json torch = report_of(dir / "run", "torch_matmul");
  EXPECT_EQ(torch["perfzero_cpp"]["method"], "torch_tiny.TinyTorchBenchmark.benchmark_matmul");
  EXPECT_EQ(torch["ml_framework_info"]["name"], "pytorch");
  EXPECT_EQ(torch["perfzero_cpp"]["python"]["interpreter"], kDebianPython);
  EXPECT_EQ(torch["perfzero_cpp"]["metric_directions"]["mm_us"], "lower");
}

// A class whose module does not import is one error naming the module and the exception, exit 2,
// before anything runs (no run directory).
TEST(PythonMethods, AModuleThatDoesNotImportStopsEverythingBeforeItRuns) {
  const fs::path dir = scratch("broken");
  const auto r = run_perfzero(
      {std::string("--benchmark_methods=perfzero_style.SpinBenchmark.benchmark_spin,") +
           "broken_syntax.Anything.benchmark_x",
       "--python_path=" + kClasses.string(), "--python=" + kDebianPython, "--output_dir=" + (dir / "run").string()},
      dir);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("module 'broken_syntax' does not import: SyntaxError"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir / "run"));

  // A typo in a built-in family's name is still a built-in's unknown method, with a suggestion.
  const auto typo = run_perfzero({"--benchmark_methods=sanity.Sanity.benchmark_slep", "--dry_run"}, dir);
  EXPECT_EQ(typo.exit_code, 2);
  EXPECT_NE(typo.err.find("did you mean"), std::string::npos) << typo.err;

  const auto colon = run_perfzero({"--benchmark_methods=a.B.benchmark_c", "--python_path=/x:/y", "--dry_run"}, dir);
  EXPECT_EQ(colon.exit_code, 2);
  EXPECT_NE(colon.err.find("holds ':'"), std::string::npos) << colon.err;

  const auto no_python = run_perfzero(
      {"--benchmark_methods=perfzero_style.SpinBenchmark.benchmark_spin", "--python=/nonexistent/python3", "--dry_run"},
      dir);
  EXPECT_EQ(no_python.exit_code, 2);
  EXPECT_NE(no_python.err.find("/nonexistent/python3"), std::string::npos) << no_python.err;
}

// --git_repos checks a repository out into the workspace, --python_path finds the class in it by
// the repository's name, and the reports record its URL, branch and revision; --data_downloads
// copies a file:// source into the root data directory the class is handed.
TEST(PythonMethods, GitReposAndDataDownloadsPrepareTheWorkspaceAndAreRecorded) {
  const fs::path dir = scratch("git");
  const fs::path repo = dir / "origin" / "models";
  fs::create_directories(repo / "official");
  run_git(repo, "init -q -b main");
  std::ofstream(repo / "official" / "__init__.py") << "";
  std::ofstream(repo / "official" / "data_benchmark.py")
      << "import os\nimport perfzero\n\n\nclass DataBenchmark(perfzero.Benchmark):\n"
         "    def benchmark_read(self):\n"
         "        size = os.path.getsize(os.path.join(self.root_data_dir, 'imagenet', 'labels.txt'))\n"
         "        self.report_benchmark(metrics=[{'name': 'bytes', 'value': size}], extras={'rev': 'first'})\n";
  run_git(repo, "add -A");
  run_git(repo, "commit -q -m first");
  run_git(repo, "checkout -q -b release");
  std::string text = slurp(repo / "official" / "data_benchmark.py");
  text.replace(text.find("'first'"), 7, "'second'");
  std::ofstream(repo / "official" / "data_benchmark.py") << text;
  run_git(repo, "commit -q -am second");
  std::ofstream(dir / "labels.txt") << "0123456789";

  const auto r = run_perfzero({"--benchmark_methods=official.data_benchmark.DataBenchmark.benchmark_read",
                               "--git_repos=" + repo.string() + ";release", "--python_path=models",
                               "--python=" + kDebianPython, "--workspace=" + (dir / "ws").string(),
                               "--data_downloads=file://" + (dir / "labels.txt").string() + ";imagenet/labels.txt",
                               "--output_dir=" + (dir / "run").string()},
                              dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(fs::exists(dir / "ws" / "site-packages" / "models" / ".git"));
  EXPECT_TRUE(fs::exists(dir / "ws" / "data" / "imagenet" / "labels.txt"));
  const json report = report_of(dir / "run", "official.data_benchmark.DataBenchmark.benchmark_read");
  EXPECT_EQ((*metric(report, "bytes"))["value"], 10.0);
  EXPECT_EQ(report["benchmark_result"]["extras"]["rev"], "second");  // the release branch's head
  const json& site = report["benchmark_info"]["site_package_info"]["models"];
  EXPECT_EQ(site["url"], repo.string());
  EXPECT_EQ(site["branch"], "release");
  EXPECT_EQ(site["hash"].get<std::string>().size(), 40U);

  // A URL;BRANCH;HASH pins the revision: the first commit, on a clone that is there already.
  const std::string first = [&] {
    const fs::path out = dir / "first.txt";
    std::system(("git -C '" + repo.string() + "' rev-parse main > '" + out.string() + "'").c_str());
    std::string hash = slurp(out);
    while (!hash.empty() && std::isspace(static_cast<unsigned char>(hash.back())) != 0) hash.pop_back();
    return hash;
  }();
  const auto pinned =
      run_perfzero({"--benchmark_methods=official.data_benchmark.DataBenchmark.benchmark_read",
                    "--git_repos=" + repo.string() + ";release;" + first, "--python_path=models",
                    "--python=" + kDebianPython, "--workspace=" + (dir / "ws").string(),
                    "--root_data_dir=" + (dir / "ws" / "data").string(), "--output_dir=" + (dir / "run2").string()},
                   dir);
  ASSERT_EQ(pinned.exit_code, 0) << pinned.err;
  const json again = report_of(dir / "run2", "official.data_benchmark.DataBenchmark.benchmark_read");
  EXPECT_EQ(again["benchmark_result"]["extras"]["rev"], "first");
  EXPECT_EQ(again["benchmark_info"]["site_package_info"]["models"]["hash"], first);

  const auto bad = run_perfzero({"--benchmark_methods=x.Y.benchmark_z", "--git_repos=" + (dir / "nowhere").string(),
                                 "--workspace=" + (dir / "ws2").string(), "--dry_run"},
                                dir);
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("--git_repos: clone"), std::string::npos) << bad.err;
}

// perfzero list --python_path: every class's benchmark* methods, the modules that do not import as
// warnings; a constructor argument named like a secret never reaches a report.
TEST(PythonMethods, ListShowsTheClassesAndSecretsInConstructorArgumentsStayHidden) {
  const fs::path dir = scratch("list");
  const auto listed =
      run_perfzero({"list", "--format=names", "--python_path=" + kClasses.string(), "--python=" + kDebianPython}, dir);
  ASSERT_EQ(listed.exit_code, 0) << listed.err;
  EXPECT_NE(listed.out.find("perfzero_style.SpinBenchmark.benchmark_spin\n"), std::string::npos) << listed.out;
  EXPECT_NE(listed.out.find("torch_tiny.TinyTorchBenchmark.benchmark_matmul\n"), std::string::npos);
  EXPECT_NE(listed.err.find("broken_syntax"), std::string::npos) << listed.err;
  // An interpreter that cannot run is an error before anything is printed: no half list on stdout.
  const auto no_python =
      run_perfzero({"list", "--format=names", "--python_path=" + kClasses.string(), "--python=/nonexistent/py"}, dir);
  EXPECT_EQ(no_python.exit_code, 2);
  EXPECT_EQ(no_python.out, "");
  EXPECT_NE(no_python.err.find("/nonexistent/py"), std::string::npos) << no_python.err;

  const auto r = run_perfzero(
      {"--benchmark_methods=perfzero_style.SpinBenchmark.benchmark_spin", "--python_path=" + kClasses.string(),
       "--python=" + kDebianPython, "--perfzero_constructor_args={\"api_token\": \"hunter2-secret\", \"spin_ms\": 1}",
       "--output_dir=" + (dir / "run").string()},
      dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const auto& entry : fs::recursive_directory_iterator(dir / "run")) {
    if (!entry.is_regular_file()) continue;
    EXPECT_EQ(slurp(entry.path()).find("hunter2-secret"), std::string::npos) << entry.path();
  }
  EXPECT_EQ(r.err.find("hunter2-secret"), std::string::npos);
}

// What a suite entry's env says reaches the listing as it reaches the trials; a filter's methods
// count against max_cases; a moved --python_path is another plan for --resume; a typo in a
// built-in family's name gets the built-in's suggestion although it is asked of Python first.
TEST(PythonMethods, TheListingSeesTheTrialsEnvironmentAndThePlanCountsWhatItSelected) {
  const fs::path dir = scratch("plan");
  std::ofstream(dir / "env.yaml") << "methods:\n"
                                     "  - python_method: perfzero_style.SpinBenchmark.benchmark_spin\n"
                                     "    python: "
                                  << kDebianPython << "\n    env: {PYTHONPATH: " << kClasses.string() << "}\n";
  const auto by_env = run_perfzero({"--config=" + (dir / "env.yaml").string(), "--dry_run"}, dir);
  EXPECT_EQ(by_env.exit_code, 0) << by_env.err;

  std::ofstream(dir / "many.yaml") << "max_cases: 2\nmethods:\n"
                                      "  - python_method: misbehaving.Misbehaving.filter:benchmark_\n"
                                      "    python: "
                                   << kDebianPython << "\n    python_path: [" << kClasses.string() << "]\n";
  const auto many = run_perfzero({"--config=" + (dir / "many.yaml").string(), "--dry_run"}, dir);
  EXPECT_EQ(many.exit_code, 2);
  EXPECT_NE(many.err.find("over the limit of 2"), std::string::npos) << many.err;

  const auto first = run_perfzero(
      {"--benchmark_methods=perfzero_style.SpinBenchmark.benchmark_spin", "--python_path=" + kClasses.string(),
       "--python=" + kDebianPython, "--output_dir=" + (dir / "run").string()},
      dir);
  ASSERT_EQ(first.exit_code, 0) << first.err;
  fs::create_directories(dir / "copy");
  fs::copy(kClasses, dir / "copy", fs::copy_options::recursive);
  const auto moved = run_perfzero(
      {"--benchmark_methods=perfzero_style.SpinBenchmark.benchmark_spin", "--python_path=" + (dir / "copy").string(),
       "--python=" + kDebianPython, "--output_dir=" + (dir / "run").string(), "--resume"},
      dir);
  EXPECT_EQ(moved.exit_code, 2);
  EXPECT_NE(moved.err.find("the plan differs"), std::string::npos) << moved.err;

  // Asked for by a flag and by a suite, the same method run the same way is one case; run another
  // way (the suite's constructor arguments), it is a collision naming both places.
  const std::string spin = "perfzero_style.SpinBenchmark.benchmark_spin";
  std::ofstream(dir / "twice.yaml") << "methods:\n  - python_method: " << spin << "\n";
  const std::vector<std::string> flags{"--benchmark_methods=" + spin, "--python=" + kDebianPython,
                                       "--python_path=" + kClasses.string(), "--dry_run"};
  auto with_suite = [&](const std::string& file) {
    std::vector<std::string> args = flags;
    args.push_back("--config=" + (dir / file).string());
    return run_perfzero(args, dir);
  };
  const auto once = with_suite("twice.yaml");
  EXPECT_EQ(once.exit_code, 0) << once.err;
  EXPECT_NE(once.out.find("1 method(s)"), std::string::npos) << once.out;
  std::ofstream(dir / "other.yaml") << "methods:\n  - python_method: " << spin
                                    << "\n    constructor_args: {spin_ms: 5}\n";
  const auto other = with_suite("other.yaml");
  EXPECT_EQ(other.exit_code, 2);
  EXPECT_NE(other.err.find("already used by another method of this run (at --benchmark_methods)"), std::string::npos)
      << other.err;

  const auto typo = run_perfzero({"--benchmark_methods=sanityy.Sanity.benchmark_sleep", "--dry_run"}, dir);
  EXPECT_EQ(typo.exit_code, 2);
  EXPECT_NE(typo.err.find("as a built-in method"), std::string::npos) << typo.err;
  EXPECT_NE(typo.err.find("sanity.Sanity.benchmark_sleep"), std::string::npos) << typo.err;
}

// --data_downloads: a destination written with a trailing '/', a FIFO in the source refused by name,
// and a token in a --git_repos URL's query that names no directory and reaches no output.
TEST(PythonMethods, DataDownloadsAndRepositoryNamesRefuseWhatTheyCannotHold) {
  const fs::path dir = scratch("data");
  fs::create_directories(dir / "src" / "sub");
  std::ofstream(dir / "src" / "sub" / "labels.txt") << "0123456789";
  const auto copied = run_perfzero(
      {"--benchmark_methods=perfzero_style.SpinBenchmark.benchmark_spin", "--python_path=" + kClasses.string(),
       "--python=" + kDebianPython, "--workspace=" + (dir / "ws").string(),
       "--data_downloads=file://" + (dir / "src").string() + "/;imagenet/", "--output_dir=" + (dir / "run").string()},
      dir);
  ASSERT_EQ(copied.exit_code, 0) << copied.err;
  EXPECT_EQ(slurp(dir / "ws" / "data" / "imagenet" / "sub" / "labels.txt"), "0123456789");

  ASSERT_EQ(::mkfifo((dir / "src" / "sub" / "pipe").c_str(), 0600), 0);
  const auto fifo = run_perfzero(
      {"--benchmark_methods=perfzero_style.SpinBenchmark.benchmark_spin", "--python_path=" + kClasses.string(),
       "--python=" + kDebianPython, "--workspace=" + (dir / "ws").string(),
       "--data_downloads=file://" + (dir / "src").string() + ";other", "--output_dir=" + (dir / "run2").string()},
      dir);
  EXPECT_EQ(fifo.exit_code, 2);
  EXPECT_NE(fifo.err.find("pipe is a FIFO"), std::string::npos) << fifo.err;
  EXPECT_FALSE(fs::exists(dir / "ws" / "data" / "other"));

  const auto token = run_perfzero({"--benchmark_methods=perfzero_style.SpinBenchmark.benchmark_spin",
                                   "--git_repos=" + (dir / "nowhere").string() + "/models.git?access_token=tok3nXYZ",
                                   "--workspace=" + (dir / "ws").string(), "--dry_run"},
                                  dir);
  EXPECT_EQ(token.exit_code, 2);
  EXPECT_EQ(token.err.find("tok3nXYZ"), std::string::npos) << token.err;
  EXPECT_FALSE(fs::exists(dir / "ws" / "site-packages" / "models.git?access_token=tok3nXYZ"));
}
