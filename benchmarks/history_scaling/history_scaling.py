#!/usr/bin/python3
"""How the results history scales: ingest 10,000 runs, then `compare --history` over 1,000 runs of a label.

A benchmark, not a test: it prints figures for people (docs/performance.md) and asserts nothing.
The goal (issue 10): `compare --history` over 1,000 runs of a label in under 1 s.

One real run is made first (perfzero on a suite of --cases sleep-free noop cases with --trials
trials each); the other runs are copies of its run.json and journal.ndjson (all `history ingest`
reads) under new execution ids, timestamps and labels: every --label_every-th run is labelled
`main`, the rest `other-N`. They are ingested with one `perfzero history ingest` per --batch runs
(each run is its own transaction), then `compare --history --label=main --last=1000` is timed
against the first run (3 repetitions; the median is printed) and its ratio to the goal.

usage: /usr/bin/python3 benchmarks/history_scaling/history_scaling.py [--perfzero build/ci/harness/perfzero]
           [--runs 10000] [--label_every 10] [--cases 5] [--trials 5] [--batch 1000] [--db FILE_OR_URL]
"""
import argparse
import json
import pathlib
import statistics
import subprocess
import tempfile
import time


def make_base_run(perfzero, work, cases, trials):
    suite = work / "suite.yaml"
    methods = "\n".join(
        f"  - {{name: case{i}, command: [/bin/true], output: none}}" for i in range(cases))
    suite.write_text(f"defaults: {{trials: {trials}, warmup_trials: 0}}\nmethods:\n{methods}\n")
    subprocess.run([perfzero, f"--config={suite}", f"--output_dir={work / 'base'}"], check=True,
                   stdout=subprocess.DEVNULL)
    return work / "base"


def copy_runs(base, work, runs, label_every):
    run_json = json.loads((base / "run.json").read_text())
    journal = (base / "journal.ndjson").read_text()
    old_id = run_json["execution_id"]
    start = run_json["execution_timestamp"]
    dirs = []
    for i in range(runs):
        new_id = f"scale-{i:05d}"
        label = "main" if i % label_every == 0 else f"other-{i % 7}"
        d = work / "runs" / new_id
        d.mkdir(parents=True)
        doc = json.loads(json.dumps(run_json).replace(old_id, new_id))
        doc["execution_timestamp"] = start + i
        doc["run"]["execution_timestamp"] = start + i
        doc["run"]["execution_label"] = label
        (d / "run.json").write_text(json.dumps(doc))
        (d / "journal.ndjson").write_text(journal.replace(old_id, new_id))
        dirs.append(d)
    return dirs


def timed(command):
    t0 = time.perf_counter()
    result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return time.perf_counter() - t0, result


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--perfzero", default="build/ci/harness/perfzero")
    p.add_argument("--runs", type=int, default=10000)
    p.add_argument("--label_every", type=int, default=10)
    p.add_argument("--cases", type=int, default=5)
    p.add_argument("--trials", type=int, default=5)
    p.add_argument("--batch", type=int, default=1000)
    p.add_argument("--db", default="")
    a = p.parse_args()
    perfzero = str(pathlib.Path(a.perfzero).resolve())
    with tempfile.TemporaryDirectory(prefix="perfzero-history-scaling-") as tmp:
        work = pathlib.Path(tmp)
        base = make_base_run(perfzero, work, a.cases, a.trials)
        dirs = copy_runs(base, work, a.runs, a.label_every)
        db = a.db or str(work / "history.sqlite")
        ingest_seconds = 0.0
        for i in range(0, len(dirs), a.batch):
            seconds, r = timed([perfzero, "history", "ingest", f"--db={db}"] + [str(d) for d in dirs[i:i + a.batch]])
            if r.returncode != 0:
                raise SystemExit(f"ingest failed: {r.stderr}")
            ingest_seconds += seconds
        rows = a.runs * a.cases * a.trials
        print(f"ingest: {a.runs} runs ({a.cases} cases x {a.trials} trials each, {rows} trials, "
              f"{rows * 4} metrics) in {ingest_seconds:.1f} s: {1e3 * ingest_seconds / a.runs:.2f} ms per run")
        times = []
        for _ in range(3):
            seconds, r = timed([perfzero, "compare", f"--history={db}", "--label=main", "--last=1000",
                                "--format=json", str(dirs[0])])
            if r.returncode not in (0, 1):
                raise SystemExit(f"compare failed: {r.stderr}")
            times.append(seconds)
        doc = json.loads(r.stdout)
        history_runs = doc["results"][0]["baseline"]["trials"]
        median = statistics.median(times)
        print(f"compare --history over {history_runs} runs of the label: median {median:.3f} s of "
              f"{', '.join(f'{t:.3f}' for t in times)} (goal < 1 s: ratio {median / 1.0:.2f})")
        if not a.db:
            size = pathlib.Path(db).stat().st_size
            print(f"database: {size / 1e6:.1f} MB")


if __name__ == "__main__":
    main()
