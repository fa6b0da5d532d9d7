#!/usr/bin/env python3
"""How `perfzero report` scales with the number of result files (docs/performance.md).

Makes one real report by running perfzero once, then writes N copies of it as single-report result
files (ROOT/<shape>/<n>/perfzero_summary.json) spread over 10 instance types and 20 methods, with
varied wall times and metrics, and times `perfzero report ROOT --out DIR` (every output format) for
each N. Prints wall and CPU seconds, CPU microseconds per file, peak memory (the report process's max RSS) and the
growth from one size to the next. Usage: report_scaling.py PERFZERO [N ...] (default 1000 10000 100000).
"""
import json
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time

SHAPES = ["c7i.large", "c7i.xlarge", "c7i.2xlarge", "c7g.large", "c7g.xlarge", "m7i.large", "m7i.xlarge",
          "n2-standard-4", "t2a-standard-4", "VM.Standard.E4.Flex"]


def template(perfzero, scratch):
    out = os.path.join(scratch, "template")
    subprocess.run([perfzero, "--benchmark_methods=sanity.Sanity.benchmark_bounded", "--output_dir", out,
                    "--benchmark_num_trials=1"], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    with open(os.path.join(out, "sanity.Sanity.benchmark_bounded", "trial_1", "perfzero_summary.json")) as f:
        return json.load(f)


def write_results(base, root, n):
    rng = random.Random(n)
    for i in range(n):
        shape = SHAPES[i % len(SHAPES)]
        report = json.loads(json.dumps(base))
        report["benchmark_result"]["name"] = f"family.Class.benchmark_{(i // len(SHAPES)) % 20}"
        report["benchmark_result"]["wall_time"] = rng.uniform(0.5, 2.0)
        report["benchmark_result"]["metrics"] = [{"name": "items_per_second", "value": rng.uniform(1e6, 2e6)}]
        report["perfzero_cpp"]["metric_units"] = {"items_per_second": "items/s"}
        report["perfzero_cpp"]["system"].setdefault("cloud", {})["instance_type"] = shape
        report["execution_id"] = f"run-{i}"
        d = os.path.join(root, shape, str(i))
        os.makedirs(d)
        with open(os.path.join(d, "perfzero_summary.json"), "w") as f:
            json.dump(report, f)


def timed_report(perfzero, root, out):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([perfzero, "report", root, "--out", out, "--today", "2026-11-22"], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    # ru_maxrss of RUSAGE_CHILDREN is the largest child so far: valid because sizes only grow.
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return seconds, after.ru_maxrss / 1024, cpu


def main():
    perfzero = os.path.abspath(sys.argv[1])
    sizes = [int(a) for a in sys.argv[2:]] or [1000, 10000, 100000]
    scratch = tempfile.mkdtemp(prefix="perfzero-report-scaling-")
    try:
        base = template(perfzero, scratch)
        print(f"load average {os.getloadavg()[0]:.1f}; CPU seconds count only the report process, so they hold "
              "on a busy machine where wall seconds do not")
        print(f"{'files':>8} {'seconds':>8} {'CPU s':>8} {'us/file':>8} {'max RSS MiB':>12} {'growth':>7}")
        last = None
        for n in sizes:
            root = os.path.join(scratch, f"results-{n}")
            write_results(base, root, n)
            seconds, rss_mib, cpu = timed_report(perfzero, root, os.path.join(scratch, f"report-{n}"))
            per_file = cpu / n * 1e6
            growth = f"{per_file / last:.2f}x" if last else ""
            print(f"{n:>8} {seconds:>8.2f} {cpu:>8.2f} {per_file:>8.1f} {rss_mib:>12.0f} {growth:>7}", flush=True)
            last = per_file
            shutil.rmtree(root)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
