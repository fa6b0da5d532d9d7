#!/usr/bin/env python3
"""MPI_Allreduce through mpi4py with NumPy buffers, as users write it: the peer mpi.Collectives.benchmark_allreduce
is compared to (both call the same MPI library, so the ratio shows the harness's and the binding's cost).

usage: mpi4py_allreduce.py BYTES [ITERS [WARMUPS]]   (under mpirun: launch: {engine: mpirun})
float32 sum, every element checked before timing; the slowest rank's mean time counts, and busbw
uses nccl-tests' factor 2(n-1)/n, as ours does. Only rank 0 writes the result.
"""
import sys

import numpy as np
from mpi4py import MPI

from perfzero_result import write_result


def main():
    nbytes = int(sys.argv[1])
    iters = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    warmups = int(sys.argv[3]) if len(sys.argv) > 3 else 5
    comm = MPI.COMM_WORLD
    rank, n = comm.Get_rank(), comm.Get_size()
    count = nbytes // 4
    pattern = (np.arange(count) % 7).astype(np.float32)
    send = pattern + np.float32(rank + 1)
    recv = np.empty_like(send)
    comm.Allreduce(send, recv, op=MPI.SUM)
    wrong = not np.array_equal(recv, pattern * n + np.float32(n * (n + 1) // 2))
    any_wrong = comm.allreduce(wrong, op=MPI.LOR)
    for _ in range(warmups):
        comm.Allreduce(send, recv, op=MPI.SUM)
    comm.Barrier()
    start = MPI.Wtime()
    for _ in range(iters):
        comm.Allreduce(send, recv, op=MPI.SUM)
    seconds = comm.allreduce((MPI.Wtime() - start) / iters, op=MPI.MAX)
    if rank != 0:
        return
    algbw = count * 4 / seconds / 1e9
    factor = 2 * (n - 1) / n if n > 1 else 0
    write_result(
        [{"name": "time_us", "direction": "lower", "value": seconds * 1e6, "unit": "us"},
         {"name": "algbw", "direction": "higher", "value": algbw, "unit": "GB/s"},
         {"name": "busbw", "direction": "higher", "value": algbw * factor, "unit": "GB/s"}],
        extras={"ranks": n, "bytes": count * 4, "bus_factor": factor, "dtype": "float32"},
        framework={"name": "mpi4py", "version": __import__("mpi4py").__version__},
        error="a rank received a wrong result" if any_wrong else None)


if __name__ == "__main__":
    main()
