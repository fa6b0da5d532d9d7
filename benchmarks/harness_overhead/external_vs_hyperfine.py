#!/usr/bin/python3
"""Per-trial cost of perfzero against hyperfine, timing the same command (default /bin/true).

A benchmark, not a test: it prints figures for people (docs/performance.md) and asserts nothing.

Each round runs, back to back, so that a noisy host slows both alike:
  * hyperfine -N --runs N --export-json (no shell, no warm-up), and hyperfine --runs 1;
  * perfzero on a suite with one `output: none` method of N trials (--warmup_trials=0), and with 1 trial.

Definitions (every figure in milliseconds):
  hyperfine per run    hyperfine's own "mean" of the N runs: fork/exec to wait, as it reports it.
  perfzero per trial   the median interval between consecutive trials' `started_offset` in the run's
                       journal (journal.ndjson, the same figures as the reports' `timing`): everything
                       the harness does per trial (preparing the trial directory, launching through
                       perfzero-launch, waiting, reading the kernel's accounting, classifying,
                       recording the trial and handing its report files over, progress line).
  of which: child      the trial's `wall_time` (`timing.child_wall_time`): launch to the end of the tree
                       on perfzero-launch's clock;
            execute    `harness_seconds` (`timing.harness_trial_time`) minus child: preparation and
                       result reading;
            report     interval minus `harness_seconds`: recording the trial, its report files queued.
  marginal             (wall time of the N run - wall time of the 1 run) / (N - 1), for both tools:
                       the per-run cost with each tool's fixed start-up removed, measured from outside.
  ratio                perfzero per trial / hyperfine per run, and the same for marginal (Core v3's goal:
                       a marginal ratio of at most 1.5, docs/performance.md).

Give --perfzero more than once (e.g. a build before a change and one after) to time every build in
the same rounds, each against the hyperfine run of its round.

usage: /usr/bin/python3 benchmarks/harness_overhead/external_vs_hyperfine.py [--runs 200] [--rounds 5]
           [--perfzero build/ci/harness/perfzero ...] [--command /bin/true] [--work_dir DIR]
"""
import argparse
import json
import os
import pathlib
import shutil
import statistics
import subprocess
import sys
import tempfile
import time


def timed(argv, cwd):
    start = time.perf_counter()
    done = subprocess.run(argv, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"{' '.join(argv)} exited with {done.returncode}: {done.stderr.strip()}")
    return elapsed


def run_hyperfine(command, runs, work):
    out = work / "hyperfine.json"
    wall = timed(["hyperfine", "-N", "--style", "none", "--runs", str(runs), "--export-json", str(out), command], work)
    mean = json.loads(out.read_text())["results"][0]["mean"]
    return {"per_run": mean, "wall": wall}


def write_suite(work, command, trials):
    suite = work / f"suite_{trials}.yaml"
    argv = json.dumps(command.split())
    suite.write_text(f"defaults: {{trials: {trials}, warmup_trials: 0}}\n"
                     f"methods:\n  - {{name: overhead.command, command: {argv}, output: none}}\n")
    return suite


def trial_timings(out_dir):
    # From the journal, the run's record: one file, whatever the trials' reports hold.
    timings = []
    for line in (out_dir / "journal.ndjson").read_text().splitlines():
        event = json.loads(line)
        if event.get("event") == "trial" and event.get("case") == "overhead.command":
            t = event["trial"]
            timings.append({"started_offset": t["started_offset"], "child_wall_time": t["wall_time"],
                            "harness_trial_time": t["harness_seconds"]})
    timings.sort(key=lambda t: t["started_offset"])
    return timings


def run_perfzero(perfzero, suite, work, name):
    # A new directory every time, and none removed until the end: on ext4 without a journal (this
    # VM's disk), the inode allocator skips every inode deleted in the last minutes, so removing the
    # previous round's 1,000 files right before a run made that run's every file slower to create.
    out_dir = work / name
    wall = timed([perfzero, f"--config={suite}", f"--output_dir={out_dir}", "--warmup_trials=0"], work)
    timings = trial_timings(out_dir)
    result = {"wall": wall}
    if len(timings) > 1:
        intervals = [b["started_offset"] - a["started_offset"] for a, b in zip(timings, timings[1:])]
        # Each interval ends where the next trial starts, so it pairs with the earlier trial's figures.
        result["per_trial"] = statistics.median(intervals)
        result["child"] = statistics.median(t["child_wall_time"] for t in timings[:-1])
        result["execute"] = statistics.median(t["harness_trial_time"] - t["child_wall_time"] for t in timings[:-1])
        result["report"] = statistics.median(i - t["harness_trial_time"] for i, t in zip(intervals, timings))
    return result


def print_row(label, row):
    print(f"{label:>14} {row['hf']:8.3f} {row['pz']:9.3f} {row['child']:7.3f} {row['execute']:8.3f}"
          f" {row['report']:7.3f} {row['ratio']:6.2f} {row['hf_marginal']:8.3f} {row['pz_marginal']:8.3f}"
          f" {row['marginal_ratio']:6.2f}", flush=True)


def one_round(perfzero, args, work, suite_n, suite_1, name):
    hf = run_hyperfine(args.command, args.runs, work)
    pz = run_perfzero(perfzero, suite_n, work, name + "_n")
    hf1 = run_hyperfine(args.command, 1, work)
    pz1 = run_perfzero(perfzero, suite_1, work, name + "_1")
    ms = 1000.0
    row = {
        "hf": hf["per_run"] * ms, "pz": pz["per_trial"] * ms, "child": pz["child"] * ms,
        "execute": pz["execute"] * ms, "report": pz["report"] * ms,
        "hf_marginal": (hf["wall"] - hf1["wall"]) / (args.runs - 1) * ms,
        "pz_marginal": (pz["wall"] - pz1["wall"]) / (args.runs - 1) * ms,
    }
    row["ratio"] = row["pz"] / row["hf"]
    row["marginal_ratio"] = row["pz_marginal"] / row["hf_marginal"]
    return row


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--perfzero", action="append", help="a perfzero binary; may be given more than once")
    parser.add_argument("--command", default="/bin/true")
    parser.add_argument("--work_dir", help="where the runs are written (default: the system's temporary directory)")
    args = parser.parse_args()
    if shutil.which("hyperfine") is None:
        sys.exit("hyperfine is not installed (Debian: apt-get install hyperfine)")
    builds = [str(pathlib.Path(p).resolve()) for p in (args.perfzero or ["build/ci/harness/perfzero"])]
    rows = {build: [] for build in builds}
    with tempfile.TemporaryDirectory(prefix="perfzero-vs-hyperfine-", dir=args.work_dir) as tmp:
        work = pathlib.Path(tmp)
        suite_n = write_suite(work, args.command, args.runs)
        suite_1 = write_suite(work, args.command, 1)
        print(f"command: {args.command}; {args.runs} runs per round, {args.rounds} rounds; times in ms")
        for i, build in enumerate(builds):
            print(f"build {i + 1}: {build}")
        print(f"{'round/build':>14} {'hf/run':>8} {'pz/trial':>9} {'child':>7} {'execute':>8} {'report':>7}"
              f" {'ratio':>6} {'hf marg':>8} {'pz marg':>8} {'ratio':>6}")
        for r in range(1, args.rounds + 1):
            # Each round starts with the next build, so no build always runs right after another.
            for k in range(len(builds)):
                i = (r - 1 + k) % len(builds)
                row = one_round(builds[i], args, work, suite_n, suite_1, f"build{i}_round{r}")
                rows[builds[i]].append(row)
                print_row(f"{r}/{i + 1}", row)
    for i, build in enumerate(builds):
        median = {k: statistics.median(row[k] for row in rows[build]) for k in rows[build][0]}
        print_row(f"median/{i + 1}", median)


if __name__ == "__main__":
    main()
