#!/usr/bin/python3
"""Start-up: from `perfzero` starting to its first trial starting (issue 24; docs/performance.md).

From spawning perfzero to the start of its first trial (the journal's run_started time plus the
trial's started_offset), for a run of one external command (/bin/true: no worker is asked at all)
and for a run of one built-in method (sanity.Sanity.benchmark_noop) with each worker's list from the
cache (the default) and asked of every worker (PERFZERO_WORKER_CACHE=off, as every start-up did
before the cache); and `perfzero validate` of the built-in suite both ways. Beside them,
hyperfine's own start-up: the wall time of `hyperfine -N --runs 1 --warmup 0 /bin/true` minus one
run of /bin/true. Every figure is a median over ROUNDS rounds, the settings alternated within each
round.

Goal: the first trial of an external command starts at most 20 ms after perfzero does.

usage: startup.py PATH/TO/perfzero [--rounds N]
"""
import argparse
import json
import os
import pathlib
import shutil
import statistics
import subprocess
import tempfile
import time


def first_trial_delay(perfzero, suite, out_dir, env):
    started = time.time()
    subprocess.run([perfzero, f"--config={suite}", f"--output_dir={out_dir}"], env=env, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    run_started = trial_offset = None
    for line in (pathlib.Path(out_dir) / "journal.ndjson").read_text().splitlines():
        event = json.loads(line)
        if event["event"] == "run_started":
            run_started = event["time"]
        elif event["event"] == "trial" and trial_offset is None:
            trial_offset = event["trial"]["started_offset"]
    return run_started + trial_offset - started


def wall(argv, env):
    started = time.perf_counter()
    subprocess.run(argv, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - started


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("perfzero")
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        external = pathlib.Path(tmp) / "external.yaml"
        external.write_text("methods:\n  - {name: t, command: [/bin/true], output: none}\n")
        builtin = pathlib.Path(tmp) / "builtin.yaml"
        builtin.write_text("methods:\n  - sanity.Sanity.benchmark_noop\n")
        cached = dict(os.environ, XDG_CACHE_HOME=f"{tmp}/cache", PERFZERO_WORKER_CACHE="")
        asked = dict(os.environ, PERFZERO_WORKER_CACHE="off")
        subprocess.run([args.perfzero, "validate", str(builtin)], env=cached, check=True, stdout=subprocess.DEVNULL)
        figures = {k: [] for k in ("run, external command", "run, built-in method, cached",
                                   "run, built-in method, every worker asked", "validate, built-in, cached",
                                   "validate, built-in, every worker asked", "hyperfine's start-up")}
        hyperfine = shutil.which("hyperfine")
        for r in range(args.rounds):
            figures["run, external command"].append(first_trial_delay(args.perfzero, external, f"{tmp}/e{r}", asked))
            figures["run, built-in method, cached"].append(
                first_trial_delay(args.perfzero, builtin, f"{tmp}/c{r}", cached))
            figures["run, built-in method, every worker asked"].append(
                first_trial_delay(args.perfzero, builtin, f"{tmp}/a{r}", asked))
            figures["validate, built-in, cached"].append(wall([args.perfzero, "validate", str(builtin)], cached))
            figures["validate, built-in, every worker asked"].append(
                wall([args.perfzero, "validate", str(builtin)], asked))
            if hyperfine:
                whole = wall([hyperfine, "-N", "--runs", "1", "--warmup", "0", "--style", "none", "/bin/true"], asked)
                figures["hyperfine's start-up"].append(whole - wall(["/bin/true"], asked))
    print(f"start-up, medians of {args.rounds} rounds:")
    for name, values in figures.items():
        if values:
            print(f"  {name:42s} {statistics.median(values) * 1000:8.1f} ms")
    external_run = statistics.median(figures["run, external command"])
    print(f"first trial of an external command: {external_run * 1000:.1f} ms (goal at most 20 ms)")


if __name__ == "__main__":
    main()
