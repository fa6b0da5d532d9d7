#!/usr/bin/python3
"""How well and how fast `perfzero history changes` finds change points (issue 23's goals).

A benchmark, not a test: it prints figures for people (docs/performance.md) and asserts nothing.
The series are synthetic and written into the database directly (rows of `runs`, `series` and
`series_points`, all `history changes` reads), after `perfzero history ingest` of one real run has
created the schema, so that 200,000 runs take seconds to make rather than hours to run.

- detection: --series series of --runs runs each, noise cv drawn uniformly from 1-3 %, a +2 % step
  planted at a uniform position in [--margin, runs - --margin); found = a change point within 5 runs
  of it. Goal: at least 90 % of series. Beside it, the ceiling: an oracle told that each series has
  exactly one step, placing it by least squares (the most likely place of a step in the mean) and
  counting it when it is within 5 runs and significant (t-test at the same --max_pvalue 0.001).
  Two noise models, each printed: the cv of the trials, as perfzero's reports, compare and history
  site give a cv (--trials trials a run, the point their median, as a run's point is stored), and
  the cv of the points themselves (run-to-run noise of the medians, a harsher reading).
- A/A: as many series with no step, in each model. Goal: at most 1 false change point per 1,000 runs.
- speed: `history changes` over --speed_runs runs (the detection series, 200 runs each, as many as
  needed), median of 3. Goal: under 5 s for 100,000 runs.

usage: /usr/bin/python3 benchmarks/history_changes/history_changes.py [--perfzero build/ci/harness/perfzero]
           [--series 1000] [--runs 200] [--margin 20] [--speed_runs 100000] [--seed 1] [--cv_max 0.03] [--trials 5]
           [--extra=--FLAG=VALUE ...]
"""
import argparse
import json
import pathlib
import random
import sqlite3
import statistics
import subprocess
import tempfile
import time


def make_schema(perfzero, work):
    suite = work / "suite.yaml"
    suite.write_text("defaults: {trials: 1, warmup_trials: 0}\nmethods:\n"
                     "  - {name: case0, command: [/bin/true], output: none}\n")
    subprocess.run([perfzero, f"--config={suite}", f"--output_dir={work / 'base'}"], check=True,
                   stdout=subprocess.DEVNULL)
    db = work / "history.sqlite"
    subprocess.run([perfzero, "history", "ingest", f"--db={db}", str(work / "base")], check=True,
                   stdout=subprocess.DEVNULL)
    con = sqlite3.connect(db)
    # An empty database at this build's schema (Python's sqlite3 leaves foreign keys off: no cascade).
    for table in ("series_points", "run_documents", "runs"):
        con.execute(f"DELETE FROM {table}")
    con.commit()
    return db, con


def oracle_found(values, step, t_critical):
    """The step placed by least squares, given that there is exactly one: within 5 runs and significant?"""
    n = len(values)
    prefix = [0.0]
    for x in values:
        prefix.append(prefix[-1] + x)
    best, at = -1.0, 0
    for s in range(2, n - 1):
        d = prefix[s] / s - (prefix[n] - prefix[s]) / (n - s)
        between = s * (n - s) / n * d * d
        if between > best:
            best, at = between, s
    left, right = values[:at], values[at:]
    ml, mr = sum(left) / len(left), sum(right) / len(right)
    pooled = (sum((x - ml) ** 2 for x in left) + sum((x - mr) ** 2 for x in right)) / (n - 2)
    t = abs(mr - ml) / (pooled * (1 / len(left) + 1 / len(right))) ** 0.5
    return abs(at - step) <= 5 and t > t_critical


def write_series(con, label, count, runs, step_of, rng, oracle=None, cv_max=0.03, trials=1):
    """`count` series (one system each) of `runs` runs; step_of(k) -> planted index or None. With
    `oracle` (a list), appends whether the least-squares oracle finds each planted step. The cv is
    that of `trials` trials a run, whose median is the run's point (trials=1: the points' own cv)."""
    planted = {}
    run_id = con.execute("SELECT COALESCE(MAX(id), 0) FROM runs").fetchone()[0]
    run_rows, point_rows = [], []
    con.execute("INSERT INTO series (case_name, metric, unit, direction) VALUES ('case0', 'wall_time', 's', 'lower') "
                "ON CONFLICT DO NOTHING")
    series_id = con.execute("SELECT id FROM series WHERE case_name = 'case0' AND metric = 'wall_time'").fetchone()[0]
    for k in range(count):
        system = f"{label}-sys{k:05d}"
        cv = rng.uniform(0.01, cv_max)
        step = step_of(k)
        planted[system] = step
        values = []
        for i in range(runs):
            run_id += 1
            mean = 100.0 * (1.02 if step is not None and i >= step else 1.0)
            value = statistics.median(rng.gauss(mean, mean * cv) for _ in range(trials))
            values.append(value)
            run_rows.append((run_id, f"{system}-{i:04d}", 1.7e9 + 3600 * i, label, system, "", "completed", 0.0,
                             f"c{i:04d}"))
            point_rows.append((run_id, series_id, value, trials, value, trials))
        if oracle is not None and step is not None:
            # Student's t at p = 0.001 two-sided, df = runs - 2 (198: 3.340).
            oracle.append(oracle_found(values, step, 3.340))
    con.executemany("INSERT INTO runs (id, execution_id, execution_timestamp, execution_label, system_name, image, "
                    "status, ingested_at, commit_id) VALUES (?,?,?,?,?,?,?,?,?)", run_rows)
    con.executemany("INSERT INTO series_points (run_id, series_id, value, trials, value_all, trials_all) "
                    "VALUES (?,?,?,?,?,?)", point_rows)
    con.commit()
    return planted


def changes(perfzero, db, label, extra):
    t0 = time.perf_counter()
    r = subprocess.run([perfzero, "history", "changes", f"--db={db}", f"--label={label}", "--format=json"] + extra,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    seconds = time.perf_counter() - t0
    if r.returncode != 0:
        raise SystemExit(f"history changes failed: {r.stderr}")
    return seconds, json.loads(r.stdout)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--perfzero", default="build/ci/harness/perfzero")
    p.add_argument("--series", type=int, default=1000)
    p.add_argument("--runs", type=int, default=200)
    p.add_argument("--margin", type=int, default=20)
    p.add_argument("--speed_runs", type=int, default=100000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--cv_max", type=float, default=0.03, help="noise cv drawn from [0.01, this]")
    p.add_argument("--trials", type=int, default=5, help="trials a run in the trials noise model (a suite with trials: 5; perfzero run defaults to 1)")
    p.add_argument("--extra", action="append", default=[], help="a flag for history changes (--extra=--window=100); repeatable")
    a = p.parse_args()
    perfzero = str(pathlib.Path(a.perfzero).resolve())
    rng = random.Random(a.seed)
    with tempfile.TemporaryDirectory(prefix="perfzero-history-changes-") as tmp:
        db, con = make_schema(perfzero, pathlib.Path(tmp))
        for model, trials in (("trials", a.trials), ("points", 1)):
            oracle = []
            planted = write_series(con, f"step-{model}", a.series, a.runs,
                                   lambda k: rng.randrange(a.margin, a.runs - a.margin), rng, oracle, a.cv_max, trials)
            write_series(con, f"aa-{model}", a.series, a.runs, lambda k: None, rng, cv_max=a.cv_max, trials=trials)
            noise = (f"cv 1-{100 * a.cv_max:g} % of the trials, {trials} a run, the point their median" if trials > 1
                     else f"cv 1-{100 * a.cv_max:g} % of the points themselves")
            seconds, doc = changes(perfzero, db, f"step-{model}", a.extra)
            by_system = {}
            for c in doc["changes"]:
                by_system.setdefault(c["configuration"]["system"], []).append(int(c["execution_id"][-4:]))
            found = sum(1 for system, at in planted.items()
                        if any(abs(i - at) <= 5 for i in by_system.get(system, [])))
            extra_points = sum(len([i for i in by_system.get(s, []) if abs(i - at) > 5]) for s, at in planted.items())
            print(f"detection ({noise}): a +2 % step found within 5 runs in {found} of {a.series} series "
                  f"({100.0 * found / a.series:.1f} %; goal >= 90 %); {extra_points} other change points "
                  f"({seconds:.2f} s for {a.series * a.runs} runs)")
            ceiling = sum(oracle)
            print(f"  ceiling: the least-squares oracle (one step known to exist) finds {ceiling} of {a.series} "
                  f"({100.0 * ceiling / a.series:.1f} %); history changes / oracle = {found / max(ceiling, 1):.2f}")
            seconds, doc = changes(perfzero, db, f"aa-{model}", a.extra)
            false_changes = len(doc["changes"])
            runs = a.series * a.runs
            print(f"  A/A: {false_changes} change points in {a.series} series of {a.runs} runs: "
                  f"{1000.0 * false_changes / runs:.3f} per 1,000 runs (goal <= 1)")
        # Speed: as many more series as it takes to reach --speed_runs runs in one label.
        more = max(0, a.speed_runs // a.runs - a.series)
        if more:
            write_series(con, "step-trials", more, a.runs, lambda k: rng.randrange(a.margin, a.runs - a.margin), rng,
                         cv_max=a.cv_max, trials=a.trials)
        total = con.execute("SELECT COUNT(*) FROM runs WHERE execution_label = 'step-trials'").fetchone()[0]
        times = [changes(perfzero, db, "step-trials", a.extra)[0] for _ in range(3)]
        median = statistics.median(times)
        print(f"speed: history changes over {total} runs: median {median:.2f} s of "
              f"{', '.join(f'{t:.2f}' for t in times)} (goal < 5 s: ratio {median / 5.0:.2f})")
        con.close()
        print(f"database: {pathlib.Path(db).stat().st_size / 1e6:.1f} MB (runs and series points only)")


if __name__ == "__main__":
    main()
