"""perfzero: report benchmark results to the perfzero-cpp harness (docs/python.md).

Pure Python and standard library only: PyTorch and TensorFlow are looked up in sys.modules when
they matter, never imported here, so importing perfzero costs a benchmark nothing.
"""
from perfzero.benchmark import Benchmark
from perfzero.frameworks import FRAMEWORK_MODULES, framework_info, require
from perfzero.timing import MeasureResult, measure
from perfzero.results import Skipped, report, skip

__version__ = "0.1.0"  # the harness's version (CMakeLists.txt's project(VERSION)); a test compares them

__all__ = ["Benchmark", "FRAMEWORK_MODULES", "MeasureResult", "Skipped", "framework_info", "measure", "report",
           "require", "skip", "__version__"]
