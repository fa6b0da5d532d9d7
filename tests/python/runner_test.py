"""`python -m perfzero.runner` as the harness runs it (Debian's python3, no framework): each outcome a
method can have, in the result file docs/protocol.md describes, and `list` with its problems."""
import os
import unittest

import pyrunner
from pyrunner import metrics_by_name

M = "misbehaving.Misbehaving."


class RunOutcomes(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        # One process each, started together: the suite takes as long as the slowest.
        methods = {
            "spin": ("perfzero_style.SpinBenchmark.benchmark_spin", '{"spin_ms": 0.5, "label": "L"}'),
            "colon": ("perfzero_style.SpinBenchmark:benchmark_named_entry", "{}"),
            "bounds": ("perfzero_style.OutOfBoundsBenchmark.benchmark_too_slow", "{}"),
            "raises": (M + "benchmark_raises", "{}"), "never": (M + "benchmark_never_reports", "{}"),
            "twice": (M + "benchmark_reports_twice", "{}"), "sys_exit": (M + "benchmark_sys_exit", "{}"),
            "reports_then_exits": (M + "benchmark_reports_then_exits", "{}"),
            "os_exit_before": (M + "benchmark_os_exit_before_report", "{}"),
            "os_exit_after": (M + "benchmark_os_exit_after_report", "{}"), "nan": (M + "benchmark_nan", "{}"),
            "not_utf8": (M + "benchmark_not_utf8", "{}"), "interrupted": (M + "benchmark_interrupted", "{}"),
            "skips": (M + "benchmark_skips", "{}"), "prints": (M + "benchmark_prints", "{}"),
            "missing_framework": ("needs_missing_framework.NeedsJax.benchmark_jit", "{}"),
            "missing_module": ("missing_module.NeedsMissing.benchmark_x", "{}"),
            "syntax": ("broken_syntax.Broken.benchmark_x", "{}"),
            "no_method": (M + "benchmark_absent", "{}"),
            "bad_args": (M + "benchmark_raises", "[1]"),
        }
        started = {key: pyrunner.Run(method, constructor_args=args) for key, (method, args) in methods.items()}
        cls.runs = {key: run.wait() for key, run in started.items()}

    def outcome(self, key, exit_code):
        run = self.runs[key]
        self.assertEqual(run.returncode, exit_code, run.describe())
        return run.result

    def test_perfzero_style_report(self):
        result = self.outcome("spin", 0)
        metrics = metrics_by_name(result)
        self.assertEqual(metrics["spin_ms"]["unit"], "ms")
        self.assertEqual(metrics["spin_ms"]["direction"], "lower")
        self.assertEqual((metrics["spin_ms"]["min_value"], metrics["spin_ms"]["max_value"]), (0.0, 1000.0))
        self.assertGreaterEqual(metrics["spin_ms"]["value"], 0.5)
        self.assertEqual(metrics["repetitions"]["value"], 7)
        self.assertEqual(metrics["reported_wall_time"]["unit"], "s")
        self.assertEqual(metrics["reported_wall_time"]["direction"], "lower")
        self.assertEqual(metrics["reported_throughput"]["direction"], "higher")
        self.assertAlmostEqual(metrics["reported_throughput"]["value"] * metrics["reported_wall_time"]["value"], 1.0)
        extras = result["extras"]
        # PerfZero's construction: output_dir, root_data_dir, tpu, then --constructor_args.
        self.assertTrue(extras["output_dir"].endswith("trial"), extras)
        self.assertEqual(extras["root_data_dir"], "/data/root")
        self.assertIsNone(extras["tpu"])
        self.assertEqual(extras["label"], "L")
        self.assertEqual(extras["spin_ms_asked"], 0.5)
        self.assertEqual(extras["not_json"], "{1, 2}")  # a set, written as its str()
        self.assertEqual(extras["nested"], {"a": [1, 2.5, "x"]})
        self.assertEqual(extras["iters"], 7)
        self.assertEqual(extras["python"]["entry_name"], "SpinBenchmark.benchmark_spin")
        self.assertEqual(extras["python"]["report_benchmark_calls"], 1)
        self.assertEqual(extras["python"]["executable"], pyrunner.DEBIAN_PYTHON)
        (series,) = result["repetitions"]
        self.assertEqual((series["name"], series["unit"], series["warmups"]), ("spin", "s", 2))
        self.assertEqual(len(series["values"]), 7)
        self.assertEqual(series["stopped_by"], "min_repetitions_and_time")
        self.assertTrue(all(v >= 0.0005 for v in series["values"]), series["values"])
        self.assertNotIn("ml_framework_info", result)
        self.assertNotIn("error", result)
        self.assertGreater(result["self_wall_time"], 0)

    def test_colon_spec_and_entry_name(self):
        result = self.outcome("colon", 0)
        self.assertEqual(result["extras"]["python"]["entry_name"], "custom_entry_name")
        self.assertEqual(metrics_by_name(result)["reported_wall_time"]["value"], 0.5)

    def test_bounds_are_passed_for_the_harness_to_judge(self):
        result = self.outcome("bounds", 0)
        self.assertEqual(result["metrics"], [{"name": "latency_ms", "value": 12.0, "max_value": 10.0}])

    def test_exception_is_the_error(self):
        result = self.outcome("raises", 1)
        self.assertEqual(result["error"], "RuntimeError: the model diverged at step 3")
        self.assertIn("Traceback", self.runs["raises"].stderr)
        self.assertNotIn("metrics", result)

    def test_no_report_is_an_error(self):
        self.assertEqual(self.outcome("never", 1)["error"],
                         "Misbehaving.benchmark_never_reports returned without calling report_benchmark")

    def test_two_reports_keep_both(self):
        result = self.outcome("twice", 0)
        self.assertEqual(result["metrics"], [{"name": "step", "value": 2.0}])
        self.assertEqual(result["extras"]["iters"], 2)
        python = result["extras"]["python"]
        self.assertEqual(python["report_benchmark_calls"], 2)
        (earlier,) = python["earlier_reports"]
        self.assertEqual(earlier["metrics"], [{"name": "step", "value": 1.0}])
        self.assertEqual(earlier["extras"], {"iters": 1})

    def test_sys_exit(self):
        self.assertEqual(self.outcome("sys_exit", 1)["error"],
                         "Misbehaving.benchmark_sys_exit called sys.exit(3) without calling report_benchmark")
        self.assertEqual(self.outcome("reports_then_exits", 0)["metrics"], [{"name": "done", "value": 1.0}])

    def test_os_exit_keeps_what_was_reported(self):
        self.assertIn("ended the process before returning", self.outcome("os_exit_before", 0)["error"])
        self.assertEqual(self.outcome("os_exit_after", 0)["metrics"], [{"name": "done", "value": 1.0}])

    def test_non_finite_metric_is_an_error_naming_it(self):
        self.assertEqual(self.outcome("nan", 1)["error"],
                         "ValueError: metric 'loss': value is nan; the result protocol needs a finite number")

    def test_text_that_is_not_utf8(self):
        self.assertEqual(self.outcome("not_utf8", 1)["error"],
                         "FileNotFoundError: no such file: weights-\ufffd\ufffd.bin")

    def test_keyboard_interrupt(self):
        self.assertEqual(self.outcome("interrupted", 130)["error"],
                         "Misbehaving.benchmark_interrupted was interrupted (KeyboardInterrupt)")

    def test_skips(self):
        self.assertEqual(self.outcome("skips", 0)["skipped"], "needs 2 GPUs, found 0")
        skipped = self.outcome("missing_framework", 0)["skipped"]
        self.assertIn("module 'needs_missing_framework' needs jax, which is not installed for /usr/bin/python3", skipped)

    def test_printing_method(self):
        self.assertEqual(self.outcome("prints", 0)["metrics"], [{"name": "printed", "value": 1.0}])
        self.assertIn("progress: step 1 of 1", self.runs["prints"].stdout)

    def test_modules_that_do_not_import(self):
        self.assertEqual(self.outcome("missing_module", 1)["error"],
                         "module 'missing_module' does not import: ModuleNotFoundError: "
                         "No module named 'perfzero_test_no_such_module'")
        self.assertIn("module 'broken_syntax' does not import: SyntaxError: invalid syntax",
                      self.outcome("syntax", 1)["error"])
        self.assertEqual(self.outcome("no_method", 1)["error"], "misbehaving.Misbehaving has no method benchmark_absent")

    def test_usage_error(self):
        run = self.runs["bad_args"]
        self.assertEqual(run.returncode, 2, run.describe())
        self.assertIn("--constructor_args must be a JSON object", run.stderr)


class ListMethods(unittest.TestCase):
    def test_specs(self):
        code, listing, _ = pyrunner.list_methods([
            "--method", "perfzero_style.SpinBenchmark.filter:benchmark_s",
            "--method", "perfzero_style.SpinBenchmark:benchmark_named_entry",
            "--method", "prints_on_import.Chatty.benchmark_quiet",
            "--method", "needs_missing_framework.NeedsJax.benchmark_jit",
            "--method", "needs_missing_framework.NeedsJax.filter:.*",
            "--method", "missing_module.NeedsMissing.benchmark_x",
            "--method", "perfzero_style.Absent.benchmark_x",
            "--method", "perfzero_style.SpinBenchmark.benchmark_absent",
            "--method", "perfzero_style.SpinBenchmark.filter:nothing",
            "--method", "perfzero_style.SpinBenchmark.filter:(",
            "--method", "benchmark_only"])
        self.assertEqual(code, 3)
        self.assertEqual(listing["python"]["executable"], pyrunner.DEBIAN_PYTHON)
        self.assertEqual(listing["methods"], [
            {"name": "perfzero_style.SpinBenchmark.benchmark_spin",
             "doc": "Spins spin_ms per repetition; reports bounds, extras and the constructor's arguments."},
            {"name": "perfzero_style.SpinBenchmark.benchmark_named_entry", "doc": ""},
            {"name": "prints_on_import.Chatty.benchmark_quiet", "doc": ""}])
        (skipped,) = listing["skipped"]
        self.assertEqual(skipped["name"], "needs_missing_framework.NeedsJax.benchmark_jit")
        self.assertIn("needs jax", skipped["reason"])
        # The filter over the class jax keeps from importing: its methods read from the source, skipped.
        self.assertEqual(listing["selected"]["needs_missing_framework.NeedsJax.filter:.*"],
                         ["needs_missing_framework.NeedsJax.benchmark_jit"])
        self.assertEqual(listing["selected"]["perfzero_style.SpinBenchmark.filter:benchmark_s"],
                         ["perfzero_style.SpinBenchmark.benchmark_spin"])
        kinds = [(p["spec"], p["module"], p["kind"]) for p in listing["problems"]]
        self.assertEqual(kinds, [
            ("missing_module.NeedsMissing.benchmark_x", "missing_module", "import"),
            ("perfzero_style.Absent.benchmark_x", "perfzero_style", "no_class"),
            ("perfzero_style.SpinBenchmark.benchmark_absent", "perfzero_style", "no_method"),
            ("perfzero_style.SpinBenchmark.filter:nothing", "perfzero_style", "no_match"),
            ("perfzero_style.SpinBenchmark.filter:(", "", "bad_spec"),
            ("benchmark_only", "", "bad_spec")])
        self.assertEqual(listing["problems"][0]["message"],
                         "ModuleNotFoundError: No module named 'perfzero_test_no_such_module'")

    def test_clean_list_exits_zero_and_keeps_stdout_clean(self):
        code, listing, err = pyrunner.list_methods(["--method", "prints_on_import.Chatty.benchmark_quiet"])
        self.assertEqual(code, 0)
        self.assertEqual(listing["problems"], [])
        # What the module printed (Python and libc) went to stderr, not into the JSON.
        self.assertIn("hello from prints_on_import", err)
        self.assertIn("hello from libc", err)

    def test_discover(self):
        code, listing, _ = pyrunner.list_methods(["--discover", "--path", pyrunner.CLASSES_DIR])
        self.assertEqual(code, 0)  # problems are warnings when discovering
        names = [m["name"] for m in listing["methods"]]
        for name in ("perfzero_style.SpinBenchmark.benchmark_spin", "perfzero_style.OutOfBoundsBenchmark.benchmark_too_slow",
                     "misbehaving.Misbehaving.benchmark_reports_twice", "prints_on_import.Chatty.benchmark_quiet",
                     "torch_tiny.TinyTorchBenchmark.benchmark_matmul"):
            self.assertIn(name, names)
        self.assertFalse([n for n in names if ".Benchmark." in n], "perfzero.Benchmark is not defined there")
        problems = {p["module"]: p for p in listing["problems"]}
        self.assertEqual(sorted(problems), ["broken_syntax", "missing_module", "needs_missing_framework", "tf_style"])
        self.assertTrue(all(p["kind"] == "import" for p in problems.values()))

    def test_discover_skips_private_venvs_and_deep_folders(self):
        import tempfile
        with tempfile.TemporaryDirectory() as root:
            def write(relative):
                path = os.path.join(root, relative)
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with open(path, "w") as f:
                    f.write("class K:\n    def benchmark_x(self):\n        pass\n")
            write("top_one.py")
            write("pkg/inner_one.py")
            write("_private/hidden_one.py")
            write(".dot/hidden_two.py")
            write("env/lib/site-packages/installed_one.py")
            write("venv/pyvenv.cfg")
            write("venv/in_venv.py")
            write("_private_module.py")
            write("setup.py")
            write("a/b/c/d/e/f/g/deep_seven.py")  # seven folders down: beyond the limit
            write("a/b/c/d/e/f/deep_six.py")
            code, listing, _ = pyrunner.list_methods(["--discover", "--path", root])
        self.assertEqual(code, 0)
        self.assertEqual(sorted(m["name"] for m in listing["methods"]),
                         ["a.b.c.d.e.f.deep_six.K.benchmark_x", "pkg.inner_one.K.benchmark_x", "top_one.K.benchmark_x"])

    def test_usage(self):
        import subprocess
        process = subprocess.run([pyrunner.DEBIAN_PYTHON, "-m", "perfzero.runner", "list"], env=pyrunner.environment(),
                                 capture_output=True)
        self.assertEqual(process.returncode, 2)
        self.assertEqual(process.stdout, b"")


if __name__ == "__main__":
    unittest.main()
