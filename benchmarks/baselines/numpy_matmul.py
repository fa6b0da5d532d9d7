#!/usr/bin/python3
"""fp32 matrix multiply with NumPy: the peer the oneDNN matmul is compared to.

usage: numpy_matmul.py M N K [REPETITIONS]
NumPy must run on an optimized BLAS (Debian: libopenblas0-pthread); the reference BLAS is about 30x
slower and no fair peer, so the result says which library numpy.dot loaded.
"""
import os
import sys
import time

import numpy as np

from perfzero_result import write_result


def loaded_blas():
    """The BLAS shared object this process has mapped (Debian picks it with update-alternatives)."""
    with open("/proc/self/maps") as maps:
        names = {line.split()[-1] for line in maps if "blas" in line.lower() and "/" in line}
    return ", ".join(sorted(os.path.basename(n) for n in names)) or "unknown"


def main():
    m, n, k = (int(a) for a in sys.argv[1:4])
    repetitions = int(sys.argv[4]) if len(sys.argv) > 4 else 5
    rng = np.random.default_rng(7)
    a = rng.standard_normal((m, k), dtype=np.float32)
    b = rng.standard_normal((k, n), dtype=np.float32)
    c = a @ b  # warm-up, and loads the BLAS
    best = float("inf")
    for _ in range(repetitions):
        start = time.perf_counter()
        c = a @ b
        best = min(best, time.perf_counter() - start)
    # Check a few entries against a float64 dot product.
    rows, cols = rng.integers(0, m, 8), rng.integers(0, n, 8)
    expected = np.array([np.dot(a[i].astype(np.float64), b[:, j].astype(np.float64)) for i, j in zip(rows, cols)])
    error = float(np.max(np.abs(c[rows, cols] - expected) / (np.abs(expected) + np.sqrt(k))))
    blas = loaded_blas()
    write_result(
        [{"name": "gflops", "value": 2.0 * m * n * k / best / 1e9, "unit": "GFLOP/s"},
         {"name": "seconds", "value": best, "unit": "s"},
         {"name": "relative_error", "value": error, "unit": "1", "max_value": 1e-3}],
        extras={"m": m, "n": n, "k": k, "blas": blas, "repetitions": repetitions},
        framework={"name": "numpy", "version": np.__version__, "build_version": blas},
        error=None if "openblas" in blas or "mkl" in blas else f"numpy runs on {blas}, not an optimized BLAS")


if __name__ == "__main__":
    main()
