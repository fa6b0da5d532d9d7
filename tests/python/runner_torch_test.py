"""Real PyTorch (Debian's python3-torch, Debian's python3): a tiny method measured with
perfzero.measure, its result naming PyTorch with its thread settings; sync="auto" leaves the CPU
alone (no CUDA initialized) and would synchronize CUDA once it is."""
import statistics
import subprocess
import unittest

import pyrunner
from pyrunner import metrics_by_name

pyrunner.skip_unless(pyrunner.has_module(pyrunner.DEBIAN_PYTHON, "torch"),
                     "PyTorch is not installed for %s (Debian's python3-torch)" % pyrunner.DEBIAN_PYTHON)


class TorchMethod(unittest.TestCase):
    def test_tiny_method(self):
        run = pyrunner.run("torch_tiny.TinyTorchBenchmark.benchmark_matmul")
        self.assertEqual(run.returncode, 0, run.describe())
        result = run.result
        info = result["ml_framework_info"]
        self.assertEqual(info["name"], "pytorch")
        import_version = subprocess.run([pyrunner.DEBIAN_PYTHON, "-c", "import torch; print(torch.__version__)"],
                                        capture_output=True, text=True).stdout.strip()
        self.assertEqual(info["version"], import_version)
        self.assertIn("build_version", info)
        threads = result["extras"]["framework_threads"]["pytorch"]
        self.assertEqual(threads["intra_op"], result["extras"]["threads"])
        self.assertGreaterEqual(threads["inter_op"], 1)
        (series,) = result["repetitions"]
        self.assertEqual((series["name"], len(series["values"]), series["warmups"]), ("mm", 10, 1))
        self.assertAlmostEqual(metrics_by_name(result)["mm_us"]["value"], statistics.median(series["values"]) * 1e6)

    def test_auto_sync_with_real_torch(self):
        code = ("import sys, torch, perfzero.sync as s\n"
                "sys.exit(0 if s.resolve('auto') is None and not torch.cuda.is_initialized() else 1)\n")
        process = subprocess.run([pyrunner.DEBIAN_PYTHON, "-c", code], env=pyrunner.environment(), capture_output=True)
        self.assertEqual(process.returncode, 0, process.stderr.decode())


if __name__ == "__main__":
    unittest.main()
