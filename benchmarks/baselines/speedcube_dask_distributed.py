#!/usr/bin/python3
"""The speed cube with Dask distributed across hosts, as users run it on a cluster: the peer
mpi.SpeedCube.benchmark_fused is compared to (the seeds' tool at cluster scale).

usage: speedcube_dask_distributed.py N CHUNK [THREADS]    (launched on several ranks:
       launch: {engine: slurm|mpirun}; one rank per host)
Rank 0 (PERFZERO_RANK) starts the scheduler, writes its address to a scheduler file in the trial
directory (PERFZERO_TRIAL_DIR, which every host must see: on a cluster it is on the shared file
system perfzero's run directory is on) and runs a worker and the client; every other rank runs one
worker. THREADS per worker, 0 meaning all the CPUs the rank may use. Rank 0 writes the result and
shuts the cluster down, which ends every other rank's worker.
"""
import asyncio
import os

# Only warnings in the trial's log: its INFO lines name every connection.
os.environ.setdefault("DASK_LOGGING__DISTRIBUTED", "warning")

import socket
import sys
import time

import dask  # noqa: E402 (after the logging setting, which dask reads on import)
import dask.array as da
import distributed
import numpy as np

from perfzero_result import write_result


def own_address():
    # The address other hosts reach this one at: what its name resolves to (cluster /etc/hosts or
    # DNS), not the loopback address some distributions map the hostname to.
    try:
        address = socket.gethostbyname(socket.gethostname())
    except OSError:
        return "127.0.0.1"
    return address


async def compute(client, n, chunk, world):
    await client.wait_for_workers(world, timeout=120)
    workers = client.scheduler_info()["workers"]
    hosts = {info["host"] for info in workers.values()}
    x = da.random.normal(10, 1, size=(n, n), chunks=(chunk, chunk))
    y = x[::2, ::2] + 1
    # Warm-up: one chunk on every worker, untimed, as the C++ methods do.
    warm = da.random.normal(10, 1, size=(chunk * world, chunk), chunks=(chunk, chunk)).mean()
    await client.compute(warm)
    start = time.perf_counter()
    mean = float(await client.compute(y.mean()))
    return mean, time.perf_counter() - start, len(workers), len(hosts)


async def rank_zero(n, chunk, threads, world, scheduler_file):
    host = own_address()
    async with distributed.Scheduler(host=host, port=0, dashboard=False,
                                     scheduler_file=scheduler_file) as scheduler:
        async with distributed.Worker(scheduler.address, host=host, nthreads=threads, dashboard=False):
            async with distributed.Client(scheduler.address, asynchronous=True) as client:
                answer = await compute(client, n, chunk, world)
                await client.shutdown()
    return answer


async def other_rank(threads, scheduler_file):
    # Waits for rank 0's scheduler file, then serves until rank 0 shuts the cluster down.
    async with distributed.Worker(scheduler_file=scheduler_file, host=own_address(), nthreads=threads,
                                  dashboard=False) as worker:
        await worker.finished()


def main():
    n, chunk = int(sys.argv[1]), int(sys.argv[2])
    threads = int(sys.argv[3]) if len(sys.argv) > 3 else 0
    if threads <= 0:
        threads = len(os.sched_getaffinity(0))
    rank = int(os.environ.get("PERFZERO_RANK", "0"))
    world = int(os.environ.get("PERFZERO_WORLD_SIZE", "1"))
    trial_dir = os.environ.get("PERFZERO_TRIAL_DIR", os.getcwd())
    scheduler_file = os.path.join(trial_dir, "dask-scheduler.json")
    dask.config.set({"distributed.worker.daemon": False, "distributed.comm.timeouts.connect": "60s"})
    if rank != 0:
        asyncio.run(other_rank(threads, scheduler_file))
        return
    mean, seconds, workers, hosts = asyncio.run(rank_zero(n, chunk, threads, world, scheduler_file))
    bound = 6.0 * 2.0 / n
    write_result(
        [{"name": "mean", "value": mean, "unit": "1", "min_value": 11 - bound, "max_value": 11 + bound},
         {"name": "mean_error", "value": abs(mean - 11), "unit": "1"},
         {"name": "points_per_second", "value": n * n / seconds, "unit": "points/s"}],
        extras={"n": n, "chunk": chunk, "workers": workers, "worker_hosts": hosts, "threads_per_worker": threads},
        framework={"name": "dask.distributed", "version": distributed.__version__,
                   "build_version": "dask " + dask.__version__ + ", numpy " + np.__version__},
        error=None if abs(mean - 11) <= bound else f"mean {mean} is further than {bound} from 11")


if __name__ == "__main__":
    main()
