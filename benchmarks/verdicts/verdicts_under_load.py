#!/usr/bin/python3
"""How often `perfzero ab` and `perfzero compare` raise a false alarm under a load that comes and goes,
and how many pairs `ab` needs for a planted 3 % change against a fixed design of the same power.

A benchmark, not a test: it prints figures for people (docs/performance.md) and asserts nothing.

The load: one busy-looping process per CPU, switched on and off at random (50 to 400 ms each way) for
the whole measurement, as a shared CI runner's neighbours come and go.

  aa-ab       --sessions A/A `perfzero ab` sessions (the same command on both sides); a false alarm is a
              gated row `slower` or `faster`.
  aa-compare  --sessions A/A pairs of runs (the same suite run twice, one after the other, 10 trials
              each), then `perfzero compare` with its defaults (disturbed trials left out); a false
              alarm is any `wall_time` row `slower` or `faster`.
  planted     --sessions `ab` sessions of a command against the same command doing 3 % more work, with
              --min_change=2 so that 3 % is a change that counts. Power = the share of sessions that
              found it `slower`; ASN = their average pairs. The fixed design of the same power is the
              number of pairs a fixed-size paired test (two-sided, alpha 0.05) needs for that power
              against a 3 % change, given the spread of the paired log differences pooled over every
              session (normal approximation: n = ((z_{1-alpha/2} + z_power) * sd / ln 1.03)^2).

usage: /usr/bin/python3 benchmarks/verdicts/verdicts_under_load.py [--perfzero build/ci/harness/perfzero]
           [--sessions 200] [--only aa-ab,aa-compare,planted] [--iterations 4000] [--min_change 2] [--work_dir DIR]
"""
import argparse
import json
import math
import os
import pathlib
import random
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time

from proportions import wilson


class FlickeringLoad:
    """Busy loops on every CPU, switched on and off at random on a thread until stopped."""

    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.procs = []

    def run(self):
        on = False
        while not self.stop.is_set():
            on = not on
            if on:
                self.procs = [subprocess.Popen(["/bin/sh", "-c", "while :; do :; done"])
                              for _ in range(os.cpu_count() or 1)]
            else:
                self.kill()
            self.stop.wait(self.rng.uniform(0.05, 0.4))
        self.kill()

    def kill(self):
        for p in self.procs:
            p.kill()
            p.wait()
        self.procs = []

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        self.thread.join()


def spin(iterations):
    return f"/bin/sh -c 'i=0; while [ $i -lt {iterations} ]; do i=$((i+1)); done'"


def run_ab(perfzero, work, baseline, candidate, extra):
    out = work / f"ab-{time.monotonic_ns()}"
    p = subprocess.run([perfzero, "ab", "--baseline", baseline, "--candidate", candidate, "--format=json",
                        f"--output_dir={out}", *extra], capture_output=True, text=True)
    doc = json.loads(p.stdout)
    pairs = []
    a = out / "baseline" / "journal.ndjson"
    b = out / "candidate" / "journal.ndjson"
    walls = {}
    for side, path in (("a", a), ("b", b)):
        for line in path.read_text().splitlines():
            e = json.loads(line)
            t = e.get("trial")
            if e.get("event") == "trial" and t and not t.get("warmup") and t.get("outcome") == "succeeded":
                walls.setdefault(t["trial"], {})[side] = t["wall_time"]
    for n, w in walls.items():
        if "a" in w and "b" in w and w["a"] > 0 and w["b"] > 0:
            pairs.append(math.log(w["b"] / w["a"]))
    shutil.rmtree(out, ignore_errors=True)
    return p.returncode, doc, pairs


def alarm(doc):
    return any(r["gated"] and r["verdict"] in ("slower", "faster") for r in doc["results"])


def aa_ab(args, work):
    alarms = 0
    verdicts = {}
    pairs_used = []
    for s in range(args.sessions):
        _, doc, pairs = run_ab(args.perfzero, work, spin(args.iterations), spin(args.iterations),
                               ["--max_trials=60", "--max_time=2m"])
        alarms += alarm(doc)
        for r in doc["results"]:
            if r["gated"]:
                verdicts[r["verdict"]] = verdicts.get(r["verdict"], 0) + 1
        pairs_used.append(len(pairs))
        print(f"  aa-ab {s + 1}/{args.sessions}: alarms so far {alarms}", file=sys.stderr, flush=True)
    lo, hi = wilson(alarms, args.sessions)
    print(f"aa-ab: {alarms} false alarms in {args.sessions} sessions = {alarms / args.sessions:.3f} "
          f"(95% CI {lo:.3f}-{hi:.3f}); gated verdicts {verdicts}; mean pairs {statistics.mean(pairs_used):.1f}")


def aa_compare(args, work):
    suite = work / "aa.yaml"
    suite.write_text("defaults: {trials: 10, warmup_trials: 1}\n"
                     f"methods:\n  - {{name: spin, command: [/bin/sh, -c, \"i=0; while [ $i -lt {args.iterations} ];"
                     " do i=$((i+1)); done\"], output: none}\n")
    alarms = 0
    verdicts = {}
    for s in range(args.sessions):
        runs = []
        for side in ("a", "b"):
            out = work / f"cmp-{s}-{side}"
            subprocess.run([args.perfzero, f"--config={suite}", f"--output_dir={out}"], capture_output=True)
            runs.append(out)
        p = subprocess.run([args.perfzero, "compare", str(runs[0]), str(runs[1]), "--format=json"],
                           capture_output=True, text=True)
        doc = json.loads(p.stdout)
        for r in doc["results"]:
            if r["metric"] == "wall_time":
                verdicts[r["verdict"]] = verdicts.get(r["verdict"], 0) + 1
                alarms += r["verdict"] in ("slower", "faster")
        for out in runs:
            shutil.rmtree(out, ignore_errors=True)
        print(f"  aa-compare {s + 1}/{args.sessions}: alarms so far {alarms}", file=sys.stderr, flush=True)
    lo, hi = wilson(alarms, args.sessions)
    print(f"aa-compare: {alarms} false alarms in {args.sessions} sessions = {alarms / args.sessions:.3f} "
          f"(95% CI {lo:.3f}-{hi:.3f}); wall_time verdicts {verdicts}")


def planted(args, work):
    found = 0
    used = []
    all_pairs = []
    verdicts = {}
    for s in range(args.sessions):
        _, doc, pairs = run_ab(args.perfzero, work, spin(args.iterations), spin(round(args.iterations * 1.03)),
                               [f"--min_change={args.min_change:g}", "--max_trials=100", "--max_time=5m"])
        wall = [r for r in doc["results"] if r["metric"] == "wall_time"][0]
        verdicts[wall["verdict"]] = verdicts.get(wall["verdict"], 0) + 1
        found += wall["verdict"] == "slower"
        used.append(wall["pairs"] or 0)
        all_pairs.extend(pairs)
        print(f"  planted {s + 1}/{args.sessions}: {wall['verdict']} after {wall['pairs']} pairs", file=sys.stderr,
              flush=True)
    n = args.sessions
    power = (found + 0.5) / (n + 1)  # kept below 1, so the fixed design's size stays finite
    # The spread of one pair's log difference, without the planted shift: the pooled sd around each
    # session's own mean is close enough for the normal approximation.
    sd = statistics.stdev(all_pairs)
    z = statistics.NormalDist()
    fixed = ((z.inv_cdf(0.975) + z.inv_cdf(power)) * sd / math.log(1.03)) ** 2
    asn = statistics.mean(used)
    print(f"planted 3%: found slower in {found}/{n} sessions (power {power:.3f}); verdicts {verdicts}; "
          f"ab used {asn:.1f} pairs on average (median {statistics.median(used)}, max {max(used)}); "
          f"sd of a pair's log difference {sd:.4f}; a fixed paired design of the same power needs "
          f"{math.ceil(fixed)} pairs; ratio {asn / fixed:.2f}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--perfzero", default="build/ci/harness/perfzero")
    parser.add_argument("--sessions", type=int, default=200)
    parser.add_argument("--only", default="aa-ab,aa-compare,planted")
    parser.add_argument("--iterations", type=int, default=4000, help="the shell loop's length (~5 ms at 4000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--min_change", type=float, default=2,
                        help="planted: ab's --min_change; `slower` needs the interval past it (issue 37), so 0 "
                             "asks only that the change be real, as a fixed paired test does")
    parser.add_argument("--work_dir")
    args = parser.parse_args()
    args.perfzero = str(pathlib.Path(args.perfzero).resolve())
    work = pathlib.Path(args.work_dir or tempfile.mkdtemp(prefix="pz-verdicts-"))
    work.mkdir(parents=True, exist_ok=True)
    print(f"{time.strftime('%Y-%m-%d %H:%M')} {os.cpu_count()} CPUs; {args.sessions} sessions each; "
          f"{subprocess.run(['git', 'rev-parse', '--short', 'HEAD'], capture_output=True, text=True).stdout.strip()}")
    with FlickeringLoad(args.seed):
        for name in args.only.split(","):
            {"aa-ab": aa_ab, "aa-compare": aa_compare, "planted": planted}[name](args, work)
    if not args.work_dir:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
