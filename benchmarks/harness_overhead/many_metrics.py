#!/usr/bin/python3
"""The harness's cost per trial for a result of many metrics: 10,000 against 40,000, side by side.

A benchmark, not a test: it prints figures for people (docs/performance.md) and asserts nothing.

Issue 20 found each metric checked against every earlier one (0.9 s at 10k, 3.2 s at 40k, 24-34 s at
100k). Linear means 40k costs about 4x 10k; the goal is at most 6x. One `--interleave` run holds both
methods, each a command that copies a ready result file of N metrics to $PERFZERO_RESULT_FILE, so both
sizes meet the same machine. Per trial:
  harness   the trial's harness_seconds (launch preparation to outcome: reading, parsing, classifying)
  interval  the time from its start to the next trial's start: everything the harness does for it,
            its reports and journal line included (the last trial of the run has none)

usage: /usr/bin/python3 benchmarks/harness_overhead/many_metrics.py [--perfzero build/ci/harness/perfzero]
           [--trials 5] [--sizes 10000,40000]
"""
import argparse
import json
import pathlib
import statistics
import subprocess
import tempfile


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--perfzero", default="build/ci/harness/perfzero")
    parser.add_argument("--trials", type=int, default=5)
    parser.add_argument("--sizes", default="10000,40000")
    args = parser.parse_args()
    perfzero = str(pathlib.Path(args.perfzero).resolve())
    sizes = [int(s) for s in args.sizes.split(",")]
    with tempfile.TemporaryDirectory(prefix="pz-metrics-") as tmp:
        work = pathlib.Path(tmp)
        methods = []
        for n in sizes:
            result = work / f"r{n}.json"
            result.write_text(json.dumps({"metrics": [{"name": f"m{i}", "value": i * 0.5, "unit": "ms"}
                                                      for i in range(n)]}))
            methods.append(f"  - {{name: m{n}, command: [/bin/cp, '{result}', '$PERFZERO_RESULT_FILE']}}")
        # cp with the variable as an argument needs a shell: perfzero runs no shell.
        methods = [m.replace("[/bin/cp, '", "[/bin/sh, -c, 'cp ").replace("', '$PERFZERO_RESULT_FILE']",
                                                                         " \"$PERFZERO_RESULT_FILE\"']")
                   for m in methods]
        suite = work / "s.yaml"
        suite.write_text(f"defaults: {{trials: {args.trials}, warmup_trials: 1}}\nmethods:\n" + "\n".join(methods) + "\n")
        subprocess.run([perfzero, f"--config={suite}", f"--output_dir={work / 'run'}", "--interleave"],
                       check=True, capture_output=True)
        trials = []
        for line in (work / "run" / "journal.ndjson").read_text().splitlines():
            e = json.loads(line)
            if e.get("event") == "trial" and not e["trial"].get("warmup"):
                trials.append((e["case"], e["trial"]["started_offset"], e["trial"]["harness_seconds"]))
        trials.sort(key=lambda t: t[1])
        harness = {f"m{n}": [] for n in sizes}
        interval = {f"m{n}": [] for n in sizes}
        for i, (case, start, seconds) in enumerate(trials):
            harness[case].append(seconds)
            if i + 1 < len(trials):
                interval[case].append(trials[i + 1][1] - start)
        base = f"m{sizes[0]}"
        for n in sizes:
            case = f"m{n}"
            h = statistics.median(harness[case])
            iv = statistics.median(interval[case])
            print(f"{n:>7} metrics: harness {h * 1000:8.1f} ms, interval {iv * 1000:8.1f} ms "
                  f"({h / statistics.median(harness[base]):.2f}x and {iv / statistics.median(interval[base]):.2f}x "
                  f"the {sizes[0]}-metric figures)")


if __name__ == "__main__":
    main()
