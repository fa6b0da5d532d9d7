#!/usr/bin/python3
"""The speed cube with Dask and NumPy, as users run it: the peer the speedcube family is compared to.

usage: speedcube_dask.py N CHUNK SCHEDULER [THREADS]
SCHEDULER is single-threaded or threads; THREADS 0 means all the CPUs this process may use.
"""
import math
import os
import sys
import time

import dask
import dask.array as da
import numpy as np

from perfzero_result import write_result


def main():
    n, chunk, scheduler = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    threads = int(sys.argv[4]) if len(sys.argv) > 4 else 0
    if threads <= 0:
        threads = len(os.sched_getaffinity(0))
    # NumPy's BLAS threads would compete with Dask's workers; the computation uses none.
    x = da.random.normal(10, 1, size=(n, n), chunks=(chunk, chunk))
    y = x[::2, ::2] + 1
    # Warm-up: one chunk, untimed, as the C++ methods do.
    da.random.normal(10, 1, size=(chunk, chunk), chunks=(chunk, chunk)).mean().compute(scheduler="single-threaded")
    start = time.perf_counter()
    if scheduler == "threads":
        mean = float(y.mean().compute(scheduler="threads", num_workers=threads))
    else:
        mean = float(y.mean().compute(scheduler="single-threaded"))
    seconds = time.perf_counter() - start
    bound = 6.0 * 2.0 / n
    write_result(
        [{"name": "mean", "value": mean, "unit": "1", "min_value": 11 - bound, "max_value": 11 + bound},
         {"name": "mean_error", "value": abs(mean - 11), "unit": "1"},
         {"name": "points_per_second", "value": n * n / seconds, "unit": "points/s"}],
        extras={"n": n, "chunk": chunk, "scheduler": scheduler, "threads": threads if scheduler == "threads" else 1},
        framework={"name": "dask", "version": dask.__version__, "build_version": "numpy " + np.__version__},
        error=None if abs(mean - 11) <= bound else f"mean {mean} is further than {bound} from 11")


if __name__ == "__main__":
    main()
