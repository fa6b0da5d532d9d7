#!/usr/bin/python3
"""Issue 37, goal 3: `perfzero compare` of the same code against itself, two runs made one after the
other with a hog during one of them. The goal: at most 5 % of the pairs of runs get a directional
verdict (slower, faster, changed), and each that does carries the warning that the runs were made at
different times.

A benchmark, not a test: it prints figures for people (docs/performance.md) and asserts nothing.

Each pair: a suite of one command, a shell busy loop (--iterations, ~4 ms at 4000 on the 2-vCPU VM),
10 trials and 1 warm-up, run twice one after the other; during one of the two runs (the baseline's in
even pairs, the candidate's in odd ones) a hog, one busy process pinned to CPU 0 (taskset), runs. Then
`perfzero compare` judges them twice: with --use_flagged (the disturbed trials judged, as in the
issue) and with its defaults. Gated rows are the defaults' (wall time and the process tree's CPU time,
compare/gated_metrics.hpp).

usage: /usr/bin/python3 benchmarks/verdicts/hog_during_one_run.py [--perfzero build/ci/harness/perfzero]
           [--pairs 100] [--iterations 4000] [--work_dir DIR]
Full size (about 15 minutes on the 2-vCPU VM): --pairs 100. A quick check: --pairs 10.
"""
import argparse
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import time

from proportions import wilson

DIRECTIONAL = ("slower", "faster", "changed")


def run(perfzero, suite, out, hog):
    proc = None
    if hog:
        pin = ["taskset", "-c", "0"] if shutil.which("taskset") else []
        proc = subprocess.Popen([*pin, "/bin/sh", "-c", "while :; do :; done"])
    try:
        subprocess.run([perfzero, f"--config={suite}", f"--output_dir={out}"], capture_output=True, check=False)
    finally:
        if proc:
            proc.kill()
            proc.wait()


class Tally:
    def __init__(self, name):
        self.name, self.directional, self.warned, self.exits, self.verdicts = name, 0, 0, {}, {}

    def add(self, code, doc):
        self.exits[code] = self.exits.get(code, 0) + 1
        rows = [r for r in doc["results"] if r["gated"]]
        for r in rows:
            self.verdicts[r["verdict"]] = self.verdicts.get(r["verdict"], 0) + 1
        directed = [r for r in rows if r["verdict"] in DIRECTIONAL]
        if directed:
            self.directional += 1
            self.warned += doc.get("confounding") is not None and all("confounded" in r["reason"] for r in directed)

    def line(self, n):
        lo, hi = wilson(self.directional, n)
        return (f"{self.name}: a directional gated verdict in {self.directional}/{n} pairs of runs = "
                f"{self.directional / n:.3f} (95% CI {lo:.3f}-{hi:.3f}), {self.warned} of them with the warning; "
                f"exit statuses {self.exits}; gated verdicts {self.verdicts}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--perfzero", default="build/ci/harness/perfzero")
    parser.add_argument("--pairs", type=int, default=100)
    parser.add_argument("--iterations", type=int, default=4000)
    parser.add_argument("--work_dir")
    args = parser.parse_args()
    perfzero = str(pathlib.Path(args.perfzero).resolve())
    work = pathlib.Path(args.work_dir or tempfile.mkdtemp(prefix="pz-hog-one-run-"))
    work.mkdir(parents=True, exist_ok=True)
    suite = work / "aa.yaml"
    suite.write_text("defaults: {trials: 10, warmup_trials: 1}\n"
                     f"methods:\n  - {{name: spin, command: [/bin/sh, -c, \"i=0; while [ $i -lt {args.iterations} ];"
                     " do i=$((i+1)); done\"], output: none}\n")
    rev = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    print(f"{time.strftime('%Y-%m-%d %H:%M')} {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}; {rev}; "
          f"{args.pairs} pairs of runs")
    tallies = {"--use_flagged": Tally("compare --use_flagged"), "": Tally("compare (defaults)")}
    started = time.monotonic()
    for s in range(args.pairs):
        runs = [work / f"run-{s}-a", work / f"run-{s}-b"]
        for i, out in enumerate(runs):
            run(perfzero, suite, out, hog=(i == s % 2))
        for flag, tally in tallies.items():
            p = subprocess.run([perfzero, "compare", str(runs[0]), str(runs[1]), "--format=json",
                                *([flag] if flag else [])], capture_output=True, text=True)
            tally.add(p.returncode, json.loads(p.stdout))
        for out in runs:
            shutil.rmtree(out, ignore_errors=True)
        print(f"  {s + 1}/{args.pairs}: " + "; ".join(f"{t.name} {t.directional}" for t in tallies.values()),
              file=sys.stderr, flush=True)
    for tally in tallies.values():
        print(tally.line(args.pairs))
    print(f"{time.monotonic() - started:.0f} s")
    if not args.work_dir:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
