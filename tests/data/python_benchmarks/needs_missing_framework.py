"""Imports jax, which neither test interpreter has: a skip, not a failure."""
import jax  # noqa: F401

import perfzero


class NeedsJax(perfzero.Benchmark):
    def benchmark_jit(self):
        self.report_benchmark(metrics={"x": 1.0})
