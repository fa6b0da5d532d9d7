"""PerfZero-style classes on perfzero.Benchmark, constructed as PerfZero constructs them."""
import time

import perfzero


def _spin(seconds):
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        pass


class SpinBenchmark(perfzero.Benchmark):
    """Busy-waits for a fixed time: known numbers to check the report against."""

    def __init__(self, output_dir=None, root_data_dir=None, tpu=None, spin_ms=1.0, **kwargs):
        super().__init__(output_dir=output_dir, root_data_dir=root_data_dir, tpu=tpu, **kwargs)
        self.spin_ms = float(spin_ms)

    def benchmark_spin(self):
        """Spins spin_ms per repetition; reports bounds, extras and the constructor's arguments."""
        series = perfzero.measure(lambda: _spin(self.spin_ms / 1000), name="spin", warmups=2, min_repetitions=7)
        self.report_benchmark(
            iters=len(series.values), wall_time=series.median, throughput=1.0 / series.median,
            metrics=[{"name": "spin_ms", "value": series.median * 1000, "min_value": 0.0, "max_value": 1000.0,
                      "unit": "ms", "direction": "lower"},
                     {"name": "repetitions", "value": len(series.values)}],
            extras={"spin_ms_asked": self.spin_ms, "output_dir": self.output_dir,
                    "root_data_dir": self.root_data_dir, "tpu": self.tpu, "label": self.constructor_args.get("label"),
                    "not_json": {1, 2}, "nested": {"a": [1, 2.5, "x"]}})

    def benchmark_named_entry(self):
        self.report_benchmark(wall_time=0.5, name="custom_entry_name")


class OutOfBoundsBenchmark(perfzero.Benchmark):
    def benchmark_too_slow(self):
        """A metric above its max_value: the harness fails the trial."""
        self.report_benchmark(metrics=[{"name": "latency_ms", "value": 12.0, "max_value": 10.0}])
