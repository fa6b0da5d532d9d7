"""A tf.test.Benchmark subclass that reports through TensorFlow's own report_benchmark (the
BenchmarkEntries file at TEST_REPORT_FILE_PREFIX), as PerfZero's TensorFlow classes do."""
import time

import tensorflow as tf


class TinyMatmulBenchmark(tf.test.Benchmark):
    def benchmark_matmul(self):
        """A 64x64 matmul, timed 20 times."""
        x = tf.ones((64, 64))
        tf.linalg.matmul(x, x).numpy()
        start = time.perf_counter()
        for _ in range(20):
            tf.linalg.matmul(x, x).numpy()
        wall = (time.perf_counter() - start) / 20
        self.report_benchmark(iters=20, wall_time=wall, extras={"size": 64, "dtype": "float32"},
                              metrics=[{"name": "matmul_us", "value": wall * 1e6, "min_value": 0.0},
                                       {"name": "exact", "value": 1.0, "min_value": 1.0, "max_value": 1.0}])

    def benchmark_two_entries(self):
        """Two reports under different names: the last is the result."""
        self.report_benchmark(iters=1, name="first_entry", metrics=[{"name": "step", "value": 1.0}])
        self.report_benchmark(iters=2, name="second_entry", metrics=[{"name": "step", "value": 2.0}])


class ModelGardenStyleBenchmark(tf.test.Benchmark):
    """Built as tensorflow/models' PerfZero classes are (class type perfzero: output_dir and
    root_data_dir), timed with perfzero.measure, reported through TensorFlow's report_benchmark."""

    def __init__(self, output_dir=None, root_data_dir=None, **kwargs):
        super().__init__()
        self.output_dir = output_dir
        self.root_data_dir = root_data_dir

    def benchmark_measured_add(self):
        """Reports twice, under names whose order is not alphabetical: the last report is the result."""
        import perfzero
        self.report_benchmark(iters=1, name="zz_first_entry", metrics=[{"name": "step", "value": 1.0}])
        x = tf.ones((16, 16))
        series = perfzero.measure(lambda: tf.add(x, x), name="add", min_repetitions=5)
        self.report_benchmark(wall_time=series.median, extras={"root_data_dir": self.root_data_dir})
