#!/usr/bin/python3
"""Measures perfzero's own cost, side by side in one run (docs/performance.md).

1. Per-method overhead: 51 near-empty methods (sanity.Sanity.benchmark_bounded, one trial each,
   so the run summary is rewritten after each, as in a real run). For each method, the harness's
   wall time is the gap between its start and the next method's start; the child's own wall time is
   what the worker measured from main() to writing its result. Overhead = the difference; median of 50.
   The launch-to-reap time of the child is shown too, to separate process start-up from harness work.
2. Monitor CPU: the sampling thread's own CPU time (CLOCK_THREAD_CPUTIME_ID) over a 5 s sleep,
   at 100 Hz (10 ms) and at the default 10 Hz, as a percentage of one core.

usage: measure_overhead.py PATH/TO/perfzero
"""
import json
import pathlib
import statistics
import subprocess
import sys
import tempfile


def run(perfzero, args, out):
    subprocess.run([perfzero, *args, f"--output_dir={out}"], check=True, stdout=subprocess.DEVNULL)
    reports = [json.loads(p.read_text()) for p in pathlib.Path(out).rglob("perfzero_summary.json")]
    return sorted(reports, key=lambda r: r["perfzero_cpp"]["timing"]["started_offset"])


def main():
    perfzero = sys.argv[1]
    with tempfile.TemporaryDirectory() as tmp:
        values = ", ".join(f"{i / 100:.2f}" for i in range(51))
        suite = pathlib.Path(tmp) / "overhead.yaml"
        suite.write_text(
            "methods:\n  - method: sanity.Sanity.benchmark_bounded\n"
            f"    params: {{value: [{values}], min_value: 0, max_value: 1}}\n")
        reports = run(perfzero, [f"--config={suite}"], f"{tmp}/overhead")
        assert len(reports) == 51, len(reports)
        overhead, startup, harness_total = [], [], []
        for this, nxt in zip(reports, reports[1:]):
            t = this["perfzero_cpp"]["timing"]
            per_method = nxt["perfzero_cpp"]["timing"]["started_offset"] - t["started_offset"]
            harness_total.append(per_method)
            overhead.append(per_method - t["child_self_wall_time"])
            startup.append(t["child_wall_time"] - t["child_self_wall_time"])

        monitor = {}
        for interval in (10, 100):
            s = pathlib.Path(tmp) / f"sleep{interval}.yaml"
            s.write_text("methods:\n  - method: sanity.Sanity.benchmark_sleep\n    params: {ms: 5000}\n"
                         f"    monitor_interval_ms: {interval}\n")
            monitor[interval] = run(perfzero, [f"--config={s}"], f"{tmp}/sleep{interval}")[0]

    ms = lambda xs: statistics.median(xs) * 1000
    print("perfzero harness overhead (medians of 50 methods)")
    print(f"  harness wall time per method        {ms(harness_total):8.2f} ms")
    print(f"  minus the child's own wall time     {ms(overhead):8.2f} ms   (goal < 10 ms)")
    print(f"    of which child start-up and exit  {ms(startup):8.2f} ms   (fork, exec, dynamic loading, reaping)")
    for interval, r in sorted(monitor.items()):
        p = r["perfzero_cpp"]["process"]
        wall = r["perfzero_cpp"]["timing"]["child_wall_time"]
        share = 100 * p["monitor_cpu_seconds"] / wall
        print(f"  monitor CPU at {1000 // interval:3d} Hz               {share:8.3f} % of one core over {wall:.1f} s, "
              f"{p['samples']} samples   (goal < 1 % at 100 Hz)")


if __name__ == "__main__":
    main()
