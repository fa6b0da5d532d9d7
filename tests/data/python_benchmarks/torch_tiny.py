"""A tiny PyTorch method (Debian's python3-torch): measure() on a small matmul."""
import torch

import perfzero


class TinyTorchBenchmark(perfzero.Benchmark):
    def benchmark_matmul(self):
        x = torch.ones(32, 32)
        series = perfzero.measure(lambda: torch.mm(x, x), name="mm", min_repetitions=10)
        self.report_benchmark(wall_time=series.median, metrics=[{"name": "mm_us", "value": series.median * 1e6}],
                              extras={"threads": torch.get_num_threads()})
