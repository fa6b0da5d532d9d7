"""Real TensorFlow (PyPI, build/venv): tf.test.Benchmark subclasses report through TensorFlow's own
report_benchmark and BenchmarkEntries file (TEST_REPORT_FILE_PREFIX), as under PerfZero, and the
result names TensorFlow. Three processes started together: TensorFlow's import is most of the time."""
import unittest

import pyrunner
from pyrunner import metrics_by_name

pyrunner.skip_unless(pyrunner.has_module(pyrunner.VENV_PYTHON, "tensorflow"),
                     "TensorFlow is not installed in %s (scripts/install-deps.sh makes it)" % pyrunner.VENV)


class TensorFlowClasses(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        python = pyrunner.VENV_PYTHON
        matmul = pyrunner.Run("tf_style.TinyMatmulBenchmark.benchmark_matmul", python=python, class_type="tf_benchmark")
        garden = pyrunner.Run("tf_style.ModelGardenStyleBenchmark.benchmark_measured_add", python=python)
        listing = pyrunner.Listing(["--method", "tf_style.TinyMatmulBenchmark.filter:.*"], python=python)
        cls.matmul, cls.garden = matmul.wait(120), garden.wait(120)
        cls.listing = listing.wait(120)

    def check_framework(self, result):
        info = result["ml_framework_info"]
        self.assertEqual(info["name"], "tensorflow")
        self.assertRegex(info["version"], r"^2\.\d+\.\d+")
        self.assertTrue(info["build_version"].startswith("v2."), info)
        self.assertIn("cuda_version", info)
        self.assertEqual(set(result["extras"]["framework_threads"]["tensorflow"]), {"intra_op", "inter_op"})

    def test_tf_benchmark_entries_file(self):
        self.assertEqual(self.matmul.returncode, 0, self.matmul.describe())
        result = self.matmul.result
        metrics = metrics_by_name(result)
        self.assertEqual(metrics["exact"], {"name": "exact", "value": 1.0, "min_value": 1.0, "max_value": 1.0})
        self.assertEqual(metrics["matmul_us"]["min_value"], 0.0)
        self.assertNotIn("max_value", metrics["matmul_us"])
        self.assertGreater(metrics["matmul_us"]["value"], 0)
        self.assertAlmostEqual(metrics["reported_wall_time"]["value"] * 1e6, metrics["matmul_us"]["value"], places=3)
        extras = result["extras"]
        # TensorFlow's {double_value} / {string_value} unwrapped.
        self.assertEqual((extras["size"], extras["dtype"], extras["iters"]), (64, "float32", 20))
        self.assertEqual(extras["python"]["entry_name"], "TinyMatmulBenchmark.benchmark_matmul")
        self.check_framework(result)

    def test_model_garden_style_with_measure(self):
        self.assertEqual(self.garden.returncode, 0, self.garden.describe())
        result = self.garden.result
        (series,) = result["repetitions"]
        self.assertEqual((series["name"], len(series["values"])), ("add", 5))
        self.assertEqual(metrics_by_name(result)["reported_wall_time"]["value"], sorted(series["values"])[2])
        self.assertEqual(result["extras"]["root_data_dir"], "/data/root")
        self.check_framework(result)
        # Two entry files: the last written is the result, the other kept.
        python = result["extras"]["python"]
        self.assertEqual((python["entry_name"], python["report_benchmark_calls"]),
                         ("ModelGardenStyleBenchmark.benchmark_measured_add", 2))
        (earlier,) = python["earlier_reports"]
        self.assertEqual((earlier["entry_name"], earlier["metrics"]),
                         ("ModelGardenStyleBenchmark.zz_first_entry", [{"name": "step", "value": 1.0}]))

    def test_list_with_tensorflow(self):
        code, listing, _ = self.listing
        self.assertEqual(code, 0)
        self.assertEqual([m["name"] for m in listing["methods"]],
                         ["tf_style.TinyMatmulBenchmark.benchmark_matmul", "tf_style.TinyMatmulBenchmark.benchmark_two_entries"])
        self.assertEqual(listing["methods"][0]["doc"], "A 64x64 matmul, timed 20 times.")


if __name__ == "__main__":
    unittest.main()
