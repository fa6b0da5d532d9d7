#!/usr/bin/env python3
"""torch.matmul on one GPU: the peer cuda.Gemm.benchmark_gemm is compared to.

usage: torch_matmul.py M N K DTYPE [DEVICE [REPETITIONS]]
DTYPE is fp32, tf32, fp16 or bf16. Random operands (never zeros: they run faster than real data),
warm-ups, then each repetition timed with CUDA events; the median counts. The product is checked
against a float64 product of the same operands on 64 sampled rows.
"""
import statistics
import sys

import torch

from perfzero_result import write_result

DTYPES = {"fp32": torch.float32, "tf32": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16}
TOLERANCE = {"fp32": 1e-5, "tf32": 5e-3, "fp16": 5e-3, "bf16": 2e-2}


def main():
    m, n, k, kind = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    device = torch.device("cuda", int(sys.argv[5]) if len(sys.argv) > 5 else 0)
    repetitions = int(sys.argv[6]) if len(sys.argv) > 6 else 20
    if kind not in DTYPES:
        write_result([], error=f"DTYPE must be one of {', '.join(DTYPES)}, not {kind}")
        sys.exit(1)
    torch.backends.cuda.matmul.allow_tf32 = kind == "tf32"
    torch.manual_seed(0)
    a = torch.randn(m, k, device=device).to(DTYPES[kind])
    b = torch.randn(k, n, device=device).to(DTYPES[kind])
    c = torch.matmul(a, b)
    for _ in range(3):
        torch.matmul(a, b, out=c)
    torch.cuda.synchronize(device)
    times = []
    for _ in range(repetitions):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        torch.matmul(a, b, out=c)
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) / 1e3)
    rows = torch.randint(0, m, (64,), device=device)
    reference = a[rows].double() @ b.double()
    error = float((c[rows].double() - reference).norm() / reference.norm())
    seconds = statistics.median(times)
    flops = 2.0 * m * n * k
    write_result(
        [{"name": "tflops", "direction": "higher", "value": flops / seconds / 1e12, "unit": "TFLOP/s"},
         {"name": "gemm_time", "direction": "lower", "value": seconds * 1e3, "unit": "ms", "min_value": min(times) * 1e3,
          "max_value": max(times) * 1e3},
         {"name": "relative_error", "value": error, "unit": "1"}],
        extras={"m": m, "n": n, "k": k, "type": kind, "gpu": torch.cuda.get_device_name(device),
                "repetitions": repetitions},
        framework={"name": "pytorch", "version": torch.__version__, "build_version": f"cuda {torch.version.cuda}"},
        error=None if error <= TOLERANCE[kind] else f"relative error {error} above {TOLERANCE[kind]}")


if __name__ == "__main__":
    main()
