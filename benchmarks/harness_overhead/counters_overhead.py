#!/usr/bin/python3
"""What perf_event_open counters cost a trial (issue 25; docs/performance.md).

Runs the same suite again and again, alternating --counters=none and --counters=default (none,
default, default, none, ... so drift hits both alike), and compares the medians of three timings:
the run's total, each trial's wall time (perfzero-launch's, exec to exit: what the counters the
method inherits cost it), and the harness's time per trial (harness_seconds in the journal).

Goals: at most 2 % on a trial of /bin/true, nothing measurable on a 1 s method.

usage: counters_overhead.py PATH/TO/perfzero [--rounds N] [--trials N] [--command 'ARGV ...']
  --command defaults to /bin/true; for the 1 s goal, e.g. --trials 3 --command
  "/usr/bin/python3 -c 'import time; t=time.time()\nwhile time.time()-t<1: pass'"
"""
import argparse
import json
import pathlib
import shlex
import statistics
import subprocess
import tempfile
import time


def trials(run_dir):
    out = []
    for line in (pathlib.Path(run_dir) / "journal.ndjson").read_text().splitlines():
        event = json.loads(line)
        if event.get("event") == "trial" and not event["trial"]["warmup"]:
            out.append(event["trial"])
    return out


def one_run(perfzero, suite, counters, out_dir):
    started = time.monotonic()
    subprocess.run([perfzero, f"--config={suite}", f"--output_dir={out_dir}", f"--counters={counters}"],
                   check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    total = time.monotonic() - started
    ts = trials(out_dir)
    bad = [t for t in ts if t["outcome"] != "succeeded"]
    if bad:
        raise SystemExit(f"{len(bad)} trial(s) did not succeed in {out_dir}: {bad[0]['outcome']} {bad[0]['detail']}")
    return total, [t["wall_time"] for t in ts], [t["harness_seconds"] for t in ts]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("perfzero")
    parser.add_argument("--rounds", type=int, default=10, help="runs of each setting (default 10)")
    parser.add_argument("--trials", type=int, default=300, help="trials per run (default 300)")
    parser.add_argument("--command", default="/bin/true", help="the method's command line (default /bin/true)")
    parser.add_argument("--counters", default="default", help="the set compared with none (default: default)")
    args = parser.parse_args()
    argv = shlex.split(args.command)
    with tempfile.TemporaryDirectory() as tmp:
        suite = pathlib.Path(tmp) / "suite.yaml"
        suite.write_text("methods:\n  - name: m\n    command: " + json.dumps(argv) + "\n    output: none\n"
                         f"    trials: {args.trials}\n")
        results = {"none": [], args.counters: []}
        order = []
        for r in range(args.rounds):
            order += ["none", args.counters] if r % 2 == 0 else [args.counters, "none"]
        for i, counters in enumerate(order):
            results[counters].append(one_run(args.perfzero, suite, counters, f"{tmp}/run{i}"))
            print(f"  {i + 1}/{len(order)} --counters={counters}", flush=True)

    def medians(setting):
        runs = results[setting]
        return (statistics.median(r[0] for r in runs),
                statistics.median(w for r in runs for w in r[1]),
                statistics.median(h for r in runs for h in r[2]))

    none, counted = medians("none"), medians(args.counters)
    print(f"counters' cost, {args.rounds} rounds of {args.trials} trials of {args.command!r}, "
          f"ratios {args.counters}/none:")
    for name, a, b in zip(("run total", "trial wall time", "harness time per trial"), none, counted):
        print(f"  {name:24s} none {a * 1000:9.3f} ms   {args.counters} {b * 1000:9.3f} ms   {b / a:6.3f}x")
    print("goal: trial wall time at most 1.02x for /bin/true; 1.00x (within noise) for a 1 s method")


if __name__ == "__main__":
    main()
