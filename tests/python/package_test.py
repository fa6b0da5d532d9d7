"""The perfzero package in-process: measure()'s stopping rules and statistics (as the C++ measure()),
device synchronization choices, metric and extras validation, and report()/skip() in a plain script."""
import json
import math
import os
import re
import subprocess
import sys
import tempfile
import time
import types
import unittest

import pyrunner  # puts harness/python first on sys.path

import perfzero
from perfzero import results, sync, timing as measure_module


class Fresh(unittest.TestCase):
    """Each test with its own session, so recorded series do not collide."""

    def setUp(self):
        self.saved = results.current
        results.current = results.Session(runner_info={})

    def tearDown(self):
        results.current = self.saved


class Measure(Fresh):
    def test_minimums(self):
        calls = []
        series = perfzero.measure(lambda: calls.append(1), warmups=3, min_repetitions=4)
        self.assertEqual(len(calls), 7)
        self.assertEqual(len(series.values), 4)
        self.assertEqual((series.warmups, series.stopped_by, series.name), (3, "min_repetitions_and_time", "time"))

    def test_min_time(self):
        series = perfzero.measure(lambda: time.sleep(0.002), name="sleep", min_repetitions=1, min_time=0.03)
        self.assertGreaterEqual(sum(series.values), 0.03)
        self.assertGreater(len(series.values), 1)
        self.assertLess(len(series.values), 20)
        self.assertEqual(series.stopped_by, "min_repetitions_and_time")

    def test_caps_come_first(self):
        series = perfzero.measure(lambda: None, name="reps", min_repetitions=5, max_repetitions=5, noise_target=1e-12)
        self.assertEqual((len(series.values), series.stopped_by), (5, "max_repetitions"))
        series = perfzero.measure(lambda: time.sleep(0.01), name="cap", min_repetitions=1000, max_time=0.05)
        self.assertEqual(series.stopped_by, "time_cap")
        self.assertLess(len(series.values), 10)

    def test_noise_target(self):
        series = perfzero.measure(lambda: time.sleep(0.001), name="noise", min_repetitions=3, noise_target=0.5)
        self.assertEqual(series.stopped_by, "noise_target")
        self.assertLessEqual(series.relative_noise, 0.5)

    def test_setup_untimed_and_sync_called(self):
        events = []
        series = perfzero.measure(lambda: events.append("fn"), name="s", warmups=1, min_repetitions=2,
                                  setup=lambda: (events.append("setup"), time.sleep(0.02)), sync=lambda: events.append("sync"))
        self.assertEqual(events, ["setup", "fn", "sync"] * 3)
        self.assertLess(max(series.values), 0.015)  # the setup's sleep is not in the values

    def test_statistics_and_noise_formula(self):
        series = measure_module.MeasureResult("x", [1.0, 2.0, 3.0, 10.0], 0, "max_repetitions")
        self.assertEqual((series.median, series.mean, series.min, series.max), (2.5, 4.0, 1.0, 10.0))
        stddev = math.sqrt(((3) ** 2 + 2 ** 2 + 1 + 6 ** 2) / 3)
        self.assertAlmostEqual(series.stddev, stddev)
        self.assertAlmostEqual(series.relative_noise, 3.182 * stddev / 2 / 4.0)
        self.assertEqual(measure_module.MeasureResult("one", [1.0], 0, "x").relative_noise, math.inf)
        self.assertIsNone(measure_module.MeasureResult("one", [1.0], 0, "x").to_protocol()["relative_noise"])

    def test_t_quantile_matches_the_harness(self):
        # The same table and expansion as harness/src/api/repetition_series.cpp.
        with open(os.path.join(pyrunner.SOURCE_DIR, "harness", "src", "api", "repetition_series.cpp")) as f:
            table = re.search(r"kTable\{([^}]*)\}", f.read()).group(1)
        cpp = [float(v) for v in table.split(",")]
        self.assertEqual([measure_module.t_quantile_975(df) for df in range(1, 31)], cpp)
        self.assertAlmostEqual(measure_module.t_quantile_975(31), 2.0395, places=3)
        self.assertAlmostEqual(measure_module.t_quantile_975(1000), 1.9623, places=3)

    def test_recorded_and_names_unique(self):
        perfzero.measure(lambda: None, name="a", min_repetitions=2)
        with self.assertRaisesRegex(ValueError, "repetition series 'a' is recorded twice"):
            perfzero.measure(lambda: None, name="a")
        (recorded,) = results.current.repetitions
        self.assertEqual((recorded["name"], len(recorded["values"]), recorded["unit"]), ("a", 2, "s"))

    def test_bad_options(self):
        for kwargs, message in (({"min_repetitions": 0}, "min_repetitions must be at least 1"),
                                ({"max_repetitions": 2}, r"max_repetitions \(2\) is below min_repetitions \(5\)"),
                                ({"warmups": -1}, "warmups must be at least 0"), ({"max_time": 0}, "max_time 0 is not > 0"),
                                ({"noise_target": 0}, "noise_target 0 is not > 0"), ({"name": ""}, "needs a name"),
                                ({"sync": "cuda"}, "sync must be 'auto', None or a callable")):
            with self.assertRaisesRegex(ValueError, message):
                perfzero.measure(lambda: None, **kwargs)

    def test_exception_propagates_and_records_nothing(self):
        def boom():
            raise RuntimeError("x")
        with self.assertRaises(RuntimeError):
            perfzero.measure(boom, name="boom")
        self.assertEqual(results.current.repetitions, [])


class AutoSync(unittest.TestCase):
    """sync="auto" with stand-ins for the frameworks in sys.modules (the real ones: the torch and
    TensorFlow tests)."""

    def with_modules(self, **modules):
        saved = {name: sys.modules.get(name) for name in modules}
        sys.modules.update(modules)

        def restore():
            for name, module in saved.items():
                if module is None:
                    sys.modules.pop(name, None)
                else:
                    sys.modules[name] = module
        self.addCleanup(restore)

    def test_nothing_imported(self):
        self.with_modules(torch=None, tensorflow=None)
        self.assertIsNone(sync.resolve("auto"))
        self.assertIsNone(sync.resolve(None))

    def test_torch_cuda_only_when_initialized(self):
        calls = []
        cuda = types.SimpleNamespace(is_initialized=lambda: initialized[0], synchronize=lambda: calls.append("sync"))
        initialized = [False]
        self.with_modules(torch=types.SimpleNamespace(cuda=cuda), tensorflow=None)
        self.assertIsNone(sync.resolve("auto"))
        initialized[0] = True
        sync.resolve("auto")(None)
        self.assertEqual(calls, ["sync"])

    def test_tensorflow_waits_for_returned_tensors_without_gpu(self):
        class Tensor:
            def __init__(self):
                self.waited = False

            def numpy(self):
                self.waited = True
        tf = types.SimpleNamespace(Tensor=Tensor, config=types.SimpleNamespace(list_logical_devices=lambda kind: []),
                                   test=types.SimpleNamespace(experimental=types.SimpleNamespace(sync_devices=None)))
        self.with_modules(torch=None, tensorflow=tf)
        one, pair = Tensor(), (Tensor(), Tensor())
        wait = sync.resolve("auto")
        wait(one)
        wait(pair)
        wait("not a tensor")
        self.assertTrue(one.waited and pair[0].waited and pair[1].waited)

    def test_tensorflow_gpu_syncs_devices(self):
        calls = []
        tf = types.SimpleNamespace(Tensor=object, config=types.SimpleNamespace(list_logical_devices=lambda kind: ["GPU:0"]),
                                   test=types.SimpleNamespace(experimental=types.SimpleNamespace(
                                       sync_devices=lambda: calls.append("sync_devices"))))
        self.with_modules(torch=None, tensorflow=tf)
        sync.resolve("auto")(None)
        self.assertEqual(calls, ["sync_devices"])


class Validation(Fresh):
    def test_metric_forms(self):
        self.assertEqual(results.normalize_metrics({"a": 1, "b": 2.5}),
                         [{"name": "a", "value": 1.0}, {"name": "b", "value": 2.5}])
        self.assertEqual(results.normalize_metrics([{"name": "t", "value": 3, "unit": "ms", "direction": "lower",
                                                     "min_value": 0, "max_value": None}]),
                         [{"name": "t", "value": 3.0, "min_value": 0.0, "unit": "ms", "direction": "lower"}])

    def test_metric_errors_name_the_metric(self):
        for metrics, message in (({"loss": float("nan")}, "metric 'loss': value is nan"),
                                 ({"x": float("inf")}, "metric 'x': value is inf"),
                                 ([{"name": "b", "value": 1, "max_value": float("-inf")}], "metric 'b': max_value is -inf"),
                                 ([{"name": "d", "value": 1, "direction": "up"}], "metric 'd': direction must be"),
                                 ([{"name": "", "value": 1}], "non-empty string 'name'"),
                                 ([{"name": "v"}], "metric 'v' has no 'value'"),
                                 ({"s": "fast"}, "metric 's': value must be a number, not str"),
                                 ([{"name": "r", "value": 1}, {"name": "r", "value": 2}], "metric 'r' is reported twice")):
            with self.assertRaisesRegex((TypeError, ValueError), message):
                results.normalize_metrics(metrics)

    def test_extras_made_json(self):
        extras = results.normalize_extras({"set": {1}, "nan": float("nan"), "bytes": b"\xff",
                                           "text": os.fsdecode(b"a\xffb"), 3: (1, True, None), "obj": object})
        json.dumps(extras, allow_nan=False).encode("utf-8")  # strict JSON, valid UTF-8
        self.assertEqual(extras["set"], "{1}")
        self.assertEqual(extras["nan"], "nan")
        self.assertEqual(extras["bytes"], "\ufffd")
        self.assertEqual(extras["text"], "a\ufffdb")
        self.assertEqual(extras["3"], [1, True, None])
        deep = {}
        node = deep
        for _ in range(100):
            node["d"] = {}
            node = node["d"]
        def depth(value):
            return 1 + max(map(depth, value.values()), default=0) if isinstance(value, dict) else 0
        self.assertLess(depth(results.normalize_extras(deep)), 64)


def script(body, env_file=True):
    """Runs a plain script that imports perfzero: (exit status, stdout, the result file or None)."""
    with tempfile.TemporaryDirectory() as folder:
        result_file = os.path.join(folder, "result.json")
        env = pyrunner.environment(result_file if env_file else None)
        process = subprocess.run([sys.executable, "-c", body], env=env, capture_output=True, timeout=60)
        result = None
        if os.path.exists(result_file):
            with open(result_file, encoding="utf-8") as f:
                result = json.load(f)
        leftovers = [n for n in os.listdir(folder) if n != "result.json"]
        assert not leftovers, "temporary files left: %s" % leftovers
        return process.returncode, process.stdout.decode(), process.stderr.decode(), result


class PlainScripts(unittest.TestCase):
    def test_report_writes_the_protocol_file(self):
        code, _, err, result = script(
            "import perfzero\n"
            "perfzero.measure(lambda: None, name='noop', min_repetitions=3)\n"
            "perfzero.report({'first': 1.0})\n"
            "perfzero.report([{'name': 'rate', 'value': 5, 'unit': 'items/s', 'direction': 'higher', 'min_value': 1}],"
            " extras={'batch': 32})\n")
        self.assertEqual(code, 0, err)
        self.assertEqual(result["protocol_version"], 1)
        self.assertEqual(result["metrics"], [{"name": "rate", "value": 5.0, "min_value": 1.0, "unit": "items/s",
                                              "direction": "higher"}])
        self.assertEqual(result["extras"]["batch"], 32)
        self.assertEqual(result["extras"]["python"]["report_benchmark_calls"], 2)
        self.assertEqual(result["extras"]["python"]["earlier_reports"][0]["metrics"], [{"name": "first", "value": 1.0}])
        self.assertEqual([(s["name"], len(s["values"])) for s in result["repetitions"]], [("noop", 3)])
        self.assertNotIn("ml_framework_info", result)

    def test_without_the_variable_json_goes_to_stdout(self):
        code, out, err, result = script("import perfzero\nperfzero.report({'x': 2})\n", env_file=False)
        self.assertEqual(code, 0, err)
        self.assertIsNone(result)
        self.assertEqual(json.loads(out)["metrics"], [{"name": "x", "value": 2.0}])

    def test_nan_is_an_error_in_the_file(self):
        code, _, err, result = script("import perfzero\nperfzero.report({'loss': float('nan')})\n")
        self.assertEqual(code, 1)
        self.assertIn("metric 'loss': value is nan", err)
        self.assertEqual(result["error"], "ValueError: metric 'loss': value is nan; the result protocol needs a finite number")

    def test_skip_and_require(self):
        code, _, err, result = script("import perfzero\nperfzero.skip('no GPU here')\nraise SystemExit(5)\n")
        self.assertEqual((code, result), (0, {"protocol_version": 1, "skipped": "no GPU here"}), err)
        code, _, err, result = script("import perfzero\nperfzero.require('jax')\nraise SystemExit(5)\n")
        self.assertEqual(code, 0, err)
        self.assertRegex(result["skipped"], r"^jax is not installed for .*python.* \(ModuleNotFoundError: No module named 'jax'\)$")
        code, _, err, result = script("import perfzero\nprint(perfzero.require('json').__name__)\nperfzero.report({'ok': 1})\n")
        self.assertEqual((code, result["metrics"]), (0, [{"name": "ok", "value": 1.0}]), err)

    def test_benchmark_class_by_hand(self):
        code, _, err, result = script(
            "import perfzero\n"
            "class B(perfzero.Benchmark):\n"
            "    def benchmark_one(self):\n"
            "        self.report_benchmark(iters=3, cpu_time=0.5, throughput=7, metrics={'m': 1})\n"
            "B().benchmark_one()\n")
        self.assertEqual(code, 0, err)
        self.assertEqual(result["extras"]["python"]["entry_name"], "B.benchmark_one")
        self.assertEqual((result["extras"]["iters"], result["extras"]["cpu_time"]), (3, 0.5))
        self.assertEqual([m["name"] for m in result["metrics"]], ["m", "reported_throughput"])


class Version(unittest.TestCase):
    def test_matches_the_harness(self):
        with open(os.path.join(pyrunner.SOURCE_DIR, "CMakeLists.txt")) as f:
            cmake_version = re.search(r"project\(\S+ VERSION (\S+)", f.read()).group(1)
        self.assertEqual(perfzero.__version__, cmake_version)

    def test_framework_info_without_frameworks(self):
        code = subprocess.run([sys.executable, "-c", "import perfzero, sys; sys.exit(perfzero.framework_info() is not None)"],
                              env=pyrunner.environment()).returncode
        self.assertEqual(code, 0)


if __name__ == "__main__":
    unittest.main()
