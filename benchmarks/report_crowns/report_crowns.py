#!/usr/bin/env python3
"""Does `perfzero report` crown a winner from noise? (issue 37, item 4; docs/performance.md)

Each round runs one real built-in method, STREAM (stream.Stream.benchmark_stream, n=2,097,152
doubles a array, 1 thread, 3 repetitions a trial), once under each of LABELS instance-type labels on
this one machine, TRIALS trials a run: identical hardware, one run per configuration, so any
"Fastest:" naming one is a crown from noise. Then `perfzero report --use_flagged` (a shared machine
flags its trials host_busy; left out, nothing would be ranked at all and a crown could not happen)
reads the round twice: as it ranks by default, and with --run_noise 0 (the bootstrap over trials
alone, as before issue 37). Prints one line per round and the count of rounds with a crown.

Usage: report_crowns.py PERFZERO [--rounds 20] [--labels 5] [--trials 5]
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

LABELS = ["c7i.large", "m7i.large", "Standard_F2s_v2", "n2-standard-2", "VM.Standard.E4.Flex-1"]
SUITE = """methods:
  - method: stream.Stream.benchmark_stream
    params: {n: 2097152, threads: 1, repetitions: 3}
"""


def run_labels(perfzero, root, labels, trials, suite):
    for label in labels:
        subprocess.run([perfzero, "--config", suite, f"--benchmark_num_trials={trials}", f"--instance_type={label}",
                        "--output_dir", os.path.join(root, label)], check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)


def crowned(perfzero, root, out, catalog, extra):
    subprocess.run([perfzero, "report", root, "--catalog", catalog, "--use_flagged", "--format", "json", "--out", out,
                    *extra], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    with open(os.path.join(out, "report.json")) as f:
        method = json.load(f)["methods"][0]
    ranking = method["fastest_ranking"]
    ratio = ranking["ratio"] or {}
    return method["fastest"], ratio.get("value"), ratio.get("low"), ratio.get("high"), method["run_noise"]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("perfzero")
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--labels", type=int, default=5)
    parser.add_argument("--trials", type=int, default=5)
    args = parser.parse_args()
    source = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    catalog = os.path.join(source, "infra", "pricing", "catalog.yaml")
    labels = LABELS[: args.labels]
    scratch = tempfile.mkdtemp(prefix="perfzero-report-crowns-")
    suite = os.path.join(scratch, "stream.yaml")
    with open(suite, "w") as f:
        f.write(SUITE)
    crowns = {"default": 0, "--run_noise 0": 0}
    started = time.monotonic()
    try:
        for r in range(args.rounds):
            root = os.path.join(scratch, f"round-{r}")
            run_labels(args.perfzero, root, labels, args.trials, suite)
            line = [f"round {r + 1:2d}"]
            for name, extra in (("default", []), ("--run_noise 0", ["--run_noise", "0"])):
                fastest, value, low, high, noise = crowned(args.perfzero, root, os.path.join(root + "-report", name),
                                                           catalog, extra)
                crowns[name] += fastest is not None
                interval = f"{value:.3f}x [{low:.3f}, {high:.3f}]" if low is not None else f"{value}"
                line.append(f"{name}: {'CROWN ' + fastest if fastest else 'tie'} {interval}"
                            f" (noise {noise['fraction']:.3g}, {noise['source']})")
            print("; ".join(line), flush=True)
            shutil.rmtree(root)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    elapsed = time.monotonic() - started
    print(f"{args.rounds} rounds x {len(labels)} labels x {args.trials} trials in {elapsed:.0f} s; "
          f"rounds with a crown: default {crowns['default']}/{args.rounds}, "
          f"--run_noise 0 (bootstrap only) {crowns['--run_noise 0']}/{args.rounds}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
