#!/usr/bin/python3
"""The harness's own cost per multi-host trial against a bare srun of the same step, and what the
per-host agents cost (issue 21's goals; docs/performance.md).

usage: slurm_overhead.py PERFZERO [ROUNDS]     (as root; brings up scripts/slurm-test-cluster.sh)

Rounds interleave the four ways of running one 3-host step of /bin/true, ten at a time, so a drift
of the shared machine falls on all of them alike:
  bare srun            srun -N3 --mpi=none /bin/true
  bare srun, pmix      srun -N3 --mpi=pmix /bin/true
  perfzero, none       a run of 10 trials of an `output: none` method, launch: slurm, --mpi=none
  perfzero, default    the same with perfzero's default --mpi=pmix
perfzero's figures: each trial's own time in the harness (harness_seconds in the journal: from the
trial's directory made to its reports written, srun's step included), and the whole process's wall
time divided by its trials (its start-up, the plan, the 0.2 s look at the host's load before the
first trial, every report and summary written, all counted). Then one 5 s trial on three hosts reads what
each host's agent used (agent_cpu_seconds, sampling at 10 Hz) against the wall time.
"""
import json
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
CLUSTER = ROOT / "scripts" / "slurm-test-cluster.sh"
PER_BLOCK = 10


def timed(argv, env):
    start = time.perf_counter()
    subprocess.run(argv, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def perfzero_block(perfzero, suite, out, env, per_trial):
    start = time.perf_counter()
    subprocess.run([perfzero, f"--config={suite}", f"--output_dir={out}"], env=env, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    whole = (time.perf_counter() - start) / PER_BLOCK
    for line in (out / "journal.ndjson").read_text().splitlines():
        event = json.loads(line)
        if event.get("event") == "trial":
            per_trial.append(event["trial"]["harness_seconds"])
    return whole


def suite_text(mpi):
    extra = "extra_args: [--mpi=none]" if mpi == "none" else ""
    return f"""methods:
  - name: true
    output: none
    command: [/bin/true]
    trials: {PER_BLOCK}
    launch: {{engine: slurm, nodes: 3{', ' + extra if extra else ''}}}
"""


def main():
    perfzero = sys.argv[1]
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    up = subprocess.run([str(CLUSTER), "up"], check=True, capture_output=True, text=True).stdout
    env = dict(os.environ)
    for line in up.splitlines():
        if line.startswith("export "):
            name, value = line[len("export "):].split("=", 1)
            env[name] = value
    try:
        with tempfile.TemporaryDirectory() as tmp:
            tmp = pathlib.Path(tmp)
            suites = {}
            for mpi in ("none", "pmix"):
                suites[mpi] = tmp / f"{mpi}.yaml"
                suites[mpi].write_text(suite_text(mpi))
            figures = {"bare srun": [], "bare srun, pmix": [], "perfzero, none": [], "perfzero, default (pmix)": []}
            trials = {"none": [], "pmix": []}
            for r in range(rounds):
                figures["bare srun"] += [timed(["srun", "-N3", "--mpi=none", "/bin/true"], env) for _ in range(PER_BLOCK)]
                figures["bare srun, pmix"] += [timed(["srun", "-N3", "--mpi=pmix", "/bin/true"], env)
                                               for _ in range(PER_BLOCK)]
                figures["perfzero, none"].append(
                    perfzero_block(perfzero, suites["none"], tmp / f"n{r}", env, trials["none"]))
                figures["perfzero, default (pmix)"].append(
                    perfzero_block(perfzero, suites["pmix"], tmp / f"p{r}", env, trials["pmix"]))
            med = {k: statistics.median(v) for k, v in figures.items()}
            trial = {k: statistics.median(v) for k, v in trials.items()}
            print(f"one 3-host step of /bin/true, medians over {rounds} interleaved rounds of {PER_BLOCK}")
            print(f"  bare srun --mpi=none               {med['bare srun'] * 1000:8.1f} ms")
            print(f"  bare srun --mpi=pmix               {med['bare srun, pmix'] * 1000:8.1f} ms")
            print(f"  perfzero trial, --mpi=none         {trial['none'] * 1000:8.1f} ms   "
                  f"{trial['none'] / med['bare srun']:.2f}x bare   (goal <= 1.2x)")
            print(f"  perfzero trial, default --mpi=pmix {trial['pmix'] * 1000:8.1f} ms   "
                  f"{trial['pmix'] / med['bare srun, pmix']:.2f}x bare")
            print(f"  perfzero whole run / {PER_BLOCK} trials, none {med['perfzero, none'] * 1000:8.1f} ms   "
                  f"{med['perfzero, none'] / med['bare srun']:.2f}x bare")
            print(f"  perfzero whole run / {PER_BLOCK} trials, pmix {med['perfzero, default (pmix)'] * 1000:8.1f} ms   "
                  f"{med['perfzero, default (pmix)'] / med['bare srun, pmix']:.2f}x bare")

            sleep_suite = tmp / "sleep.yaml"
            sleep_suite.write_text("""methods:
  - name: sleep
    output: none
    command: [/bin/sleep, "5"]
    launch: {engine: slurm, nodes: 3}
""")
            out = tmp / "sleep"
            subprocess.run([perfzero, f"--config={sleep_suite}", f"--output_dir={out}"], env=env, check=True,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            report = json.loads((out / "sleep" / "trial_1" / "perfzero_summary.json").read_text())
            wall = report["benchmark_result"]["wall_time"]
            print(f"per-host agent, 10 Hz, over a {wall:.2f} s trial")
            for host in report["perfzero_cpp"]["hosts"]:
                load = host["load"]
                print(f"  {host['hostname']:10s} {100 * load['agent_cpu_seconds'] / wall:.3f} % of one core, "
                      f"{load['samples']} samples   (goal < 1 %)")
    finally:
        subprocess.run([str(CLUSTER), "down"], check=False)


if __name__ == "__main__":
    main()
