#!/usr/bin/env python3
"""A device-to-device copy with PyTorch: the peer cuda.Copy.benchmark_device_to_device is compared to.

usage: torch_copy.py BYTES [DEVICE [REPETITIONS]]
dst.copy_(src) of BYTES bytes, timed with CUDA events after warm-ups; GB/s count the bytes read
plus the bytes written, as perfzero's copy method does. The copy is checked element for element.
"""
import statistics
import sys

import torch

from perfzero_result import write_result


def main():
    size = int(sys.argv[1])
    device = torch.device("cuda", int(sys.argv[2]) if len(sys.argv) > 2 else 0)
    repetitions = int(sys.argv[3]) if len(sys.argv) > 3 else 10
    count = size // 4
    src = torch.arange(count, dtype=torch.int32, device=device)
    dst = torch.full((count,), -1, dtype=torch.int32, device=device)
    for _ in range(2):
        dst.copy_(src)
    torch.cuda.synchronize(device)
    times = []
    for _ in range(repetitions):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        dst.copy_(src)
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) / 1e3)
    wrong = int((dst != src).sum())
    seconds = statistics.median(times)
    write_result(
        [{"name": "bandwidth", "direction": "higher", "value": 2.0 * count * 4 / seconds / 1e9, "unit": "GB/s"},
         {"name": "copy_time", "direction": "lower", "value": seconds * 1e3, "unit": "ms", "min_value": min(times) * 1e3,
          "max_value": max(times) * 1e3}],
        extras={"bytes": count * 4, "gpu": torch.cuda.get_device_name(device), "repetitions": repetitions},
        framework={"name": "pytorch", "version": torch.__version__, "build_version": f"cuda {torch.version.cuda}"},
        error=None if wrong == 0 else f"{wrong} elements differ after the copy")


if __name__ == "__main__":
    main()
