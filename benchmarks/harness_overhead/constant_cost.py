#!/usr/bin/python3
"""Per-method harness cost stays constant over a long sweep (issue: core v2; docs/performance.md).

Runs one sweep of N near-empty methods (sanity.Sanity.benchmark_bounded over N values, one trial
each) and, per method, takes the harness's time: the gap between this method's start and the next
one's, minus what the child measured of itself (main() to its result). Before core v2 every finished
method rewrote every summary, so this grew with the run (6 ms to 174 ms over 2,000 methods). Now
summaries are rewritten at most every few seconds; the journal is appended once per trial.

Prints the median and mean of the first 100 and the last 100 methods, and their ratio (goal: the
last 100 within 1.5x of the first 100). Timings come from the run's journal.ndjson, so reading
5,000 reports is not part of the measurement.

usage: constant_cost.py PATH/TO/perfzero [N]   (N defaults to 5000)
"""
import json
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time


def trials_from_journal(run_dir):
    trials = []
    for line in (pathlib.Path(run_dir) / "journal.ndjson").read_text().splitlines():
        event = json.loads(line)
        if event.get("event") == "trial" and not event["trial"]["warmup"]:
            trials.append(event["trial"])
    return sorted(trials, key=lambda t: t["started_offset"])


def main():
    perfzero = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 5000
    with tempfile.TemporaryDirectory() as tmp:
        values = ", ".join(str(i / n) for i in range(n))
        suite = pathlib.Path(tmp) / "sweep.yaml"
        suite.write_text("methods:\n  - method: sanity.Sanity.benchmark_bounded\n"
                         f"    params: {{value: [{values}], min_value: 0, max_value: 1}}\n")
        started = time.monotonic()
        subprocess.run([perfzero, f"--config={suite}", f"--output_dir={tmp}/run"], check=True,
                       stdout=subprocess.DEVNULL)
        wall = time.monotonic() - started
        trials = trials_from_journal(f"{tmp}/run")
        summary_bytes = (pathlib.Path(tmp) / "run" / "summary.json").stat().st_size
    assert len(trials) == n, f"expected {n} trials in the journal, found {len(trials)}"
    per_method = [nxt["started_offset"] - this["started_offset"] - this["self_wall_time"]
                  for this, nxt in zip(trials, trials[1:])]
    first, last = per_method[:100], per_method[-100:]
    ms = lambda xs: 1000 * xs
    print(f"perfzero per-method harness time over a {n}-method sweep ({wall:.1f} s in all, "
          f"summary.json {summary_bytes / 1e6:.1f} MB at the end)")
    for name, f in (("median", statistics.median), ("mean", statistics.fmean)):
        a, b = f(first), f(last)
        print(f"  {name:6s}  first 100: {ms(a):7.2f} ms   last 100: {ms(b):7.2f} ms   "
              f"last/first: {b / a:5.2f}x   (goal <= 1.5x)")
    print(f"  slowest single method: {ms(max(per_method)):.1f} ms (a checkpoint rewrites the summaries)")


if __name__ == "__main__":
    main()
