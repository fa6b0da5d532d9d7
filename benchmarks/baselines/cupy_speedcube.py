#!/usr/bin/env python3
"""The speed cube with CuPy arrays on one GPU, as users write it: the peer cuda.SpeedCube is compared to.

usage: cupy_speedcube.py N ROWS [DEVICE [REPETITIONS]]
The n x n array of normal(10, 1) doubles is drawn ROWS rows at a time (the whole array at the
brief's size, 1e10 points, would need 80 GB), every second row and column of each slab gets +1 and
is summed; the mean over the selected points must be 11 within 6 standard errors. One untimed
warm-up slab, then REPETITIONS timed runs; the median counts.
"""
import statistics
import sys
import time

import cupy as cp

from perfzero_result import write_result


def speedcube(n, rows):
    total = cp.zeros((), dtype=cp.float64)
    for row0 in range(0, n, rows):
        x = cp.random.normal(10, 1, size=(min(rows, n - row0), n), dtype=cp.float64)
        # Slabs start on even rows (ROWS is even), so x[::2, ::2] is the whole array's every second row and column.
        total += (x[::2, ::2] + 1).sum()
    return float(total) / ((n + 1) // 2) ** 2


def main():
    n, rows = int(sys.argv[1]), int(sys.argv[2])
    device = int(sys.argv[3]) if len(sys.argv) > 3 else 0
    repetitions = int(sys.argv[4]) if len(sys.argv) > 4 else 3
    if rows % 2:
        write_result([], error=f"ROWS must be even, not {rows}")
        sys.exit(1)
    cp.cuda.Device(device).use()
    cp.random.seed(42)
    cp.random.normal(10, 1, size=(min(rows, n), n), dtype=cp.float64).sum()  # warm-up: generator, kernels
    cp.cuda.Device(device).synchronize()
    times, mean = [], 0.0
    for _ in range(repetitions):
        start = time.perf_counter()
        mean = speedcube(n, rows)  # float() waits for the device
        times.append(time.perf_counter() - start)
    seconds = statistics.median(times)
    bound = 6.0 * 2.0 / n
    props = cp.cuda.runtime.getDeviceProperties(device)
    write_result(
        [{"name": "run_time", "direction": "lower", "value": seconds, "unit": "s", "min_value": min(times), "max_value": max(times)},
         {"name": "points_per_second", "direction": "higher", "value": n * n / seconds, "unit": "points/s"},
         {"name": "mean", "value": mean, "unit": "1", "min_value": 11 - bound, "max_value": 11 + bound}],
        extras={"n": n, "rows_per_slab": rows, "repetitions": repetitions, "gpu": props["name"].decode(),
                "dtype": "float64"},
        framework={"name": "cupy", "version": cp.__version__},
        error=None if abs(mean - 11) <= bound else f"mean {mean} is further than {bound} from 11")


if __name__ == "__main__":
    main()
