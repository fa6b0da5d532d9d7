#!/usr/bin/python3
"""The product brief's PyOpenCL vector sum: the peer opencl.VectorAdd.benchmark_vecadd is compared to.

usage: pyopencl_vecadd.py N [PLATFORM_INDEX DEVICE_INDEX [REPETITIONS]]
PyOpenCL's own example (a + b into a third buffer, the kernel written in OpenCL C), timed the way
perfzero times ours: buffers on the device, warm-ups, then each repetition one kernel launch waited
for; the median counts. Device indices are OpenCL's (the `pN`/`dN` of perfzero's device extras).
"""
import statistics
import sys
import time

import numpy as np
import pyopencl as cl

from perfzero_result import write_result

KERNEL = """
__kernel void sum(__global const float *a_g, __global const float *b_g, __global float *res_g) {
  int gid = get_global_id(0);
  res_g[gid] = a_g[gid] + b_g[gid];
}
"""


def main():
    n = int(sys.argv[1])
    platform_index = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    device_index = int(sys.argv[3]) if len(sys.argv) > 3 else 0
    repetitions = int(sys.argv[4]) if len(sys.argv) > 4 else 200
    try:
        platform = cl.get_platforms()[platform_index]
    except (cl.LogicError, IndexError) as e:
        write_result([], error=f"no OpenCL platform {platform_index}: {e}")
        sys.exit(1)
    device = platform.get_devices()[device_index]
    ctx = cl.Context([device])
    queue = cl.CommandQueue(ctx)
    a_np = (np.arange(n) % 1000).astype(np.float32) * 0.5
    b_np = (np.arange(n) % 7).astype(np.float32) * 0.25
    mf = cl.mem_flags
    a_g = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=a_np)
    b_g = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=b_np)
    res_g = cl.Buffer(ctx, mf.WRITE_ONLY, a_np.nbytes)
    program = cl.Program(ctx, KERNEL).build()
    kernel = cl.Kernel(program, "sum")  # one Kernel object: program.sum would build a new one per call
    for _ in range(3):
        kernel(queue, a_np.shape, None, a_g, b_g, res_g)
        queue.finish()
    times = []
    for _ in range(repetitions):
        start = time.perf_counter()
        kernel(queue, a_np.shape, None, a_g, b_g, res_g)
        queue.finish()
        times.append(time.perf_counter() - start)
    res_np = np.empty_like(a_np)
    cl.enqueue_copy(queue, res_np, res_g)
    wrong = int(np.count_nonzero(res_np != a_np + b_np))
    median = statistics.median(times)
    write_result(
        [{"name": "gbps", "value": 3 * a_np.nbytes / median / 1e9, "unit": "GB/s"},
         {"name": "microseconds", "value": median * 1e6, "unit": "us"},
         {"name": "wrong_elements", "value": wrong, "unit": "1", "max_value": 0}],
        extras={"n": n, "device": device.name, "platform": platform.name, "repetitions": repetitions},
        framework={"name": "pyopencl", "version": cl.VERSION_TEXT, "build_version": platform.version},
        error=f"{wrong} elements of a + b are wrong" if wrong else None)


if __name__ == "__main__":
    main()
