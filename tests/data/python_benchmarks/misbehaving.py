"""Methods that go wrong in every way a runner must survive, each named for what it does."""
import os
import sys

import perfzero


class Misbehaving(perfzero.Benchmark):
    def benchmark_raises(self):
        raise RuntimeError("the model diverged at step 3")

    def benchmark_never_reports(self):
        pass

    def benchmark_reports_twice(self):
        self.report_benchmark(iters=1, metrics=[{"name": "step", "value": 1.0}])
        self.report_benchmark(iters=2, metrics=[{"name": "step", "value": 2.0}])

    def benchmark_sys_exit(self):
        sys.exit(3)

    def benchmark_reports_then_exits(self):
        self.report_benchmark(metrics=[{"name": "done", "value": 1.0}])
        sys.exit(0)

    def benchmark_os_exit_before_report(self):
        os._exit(0)

    def benchmark_os_exit_after_report(self):
        self.report_benchmark(metrics=[{"name": "done", "value": 1.0}])
        sys.stdout.flush()
        os._exit(0)

    def benchmark_nan(self):
        self.report_benchmark(metrics=[{"name": "loss", "value": float("nan")}])

    def benchmark_not_utf8(self):
        # A file name that is not UTF-8, as os.fsdecode hands it over (lone surrogates).
        name = os.fsdecode(b"weights-\xff\xfe.bin")
        raise FileNotFoundError("no such file: " + name)

    def benchmark_interrupted(self):
        raise KeyboardInterrupt()

    def benchmark_skips(self):
        perfzero.skip("needs 2 GPUs, found 0")

    def benchmark_prints(self):
        print("progress: step 1 of 1")
        self.report_benchmark(metrics={"printed": 1.0})
