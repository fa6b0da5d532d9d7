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

With --postgresql the same runs are also ingested into a PostgreSQL 15 server the script starts
in a temporary directory (Debian's initdb and pg_ctl; as root the cluster runs as `nobody`; a Unix
socket only; fsync on, as SQLite's synchronous = FULL), and both are printed side by side.

With --site, `perfzero history site` of the whole database is timed too (issue 23's goal: 10,000
runs x 50 series in under 30 s; --cases 7 makes 56 series a run: each case has its wall time, the
noop's metric and the harness's counters), with the pages it wrote and their size: with the default
--last (200 runs drawn per series page), with --last=500, and without the cost view (--cost_days=0:
the synthetic runs all fall on two dates, so the default cost view reads every one of them whole).

usage: /usr/bin/python3 benchmarks/history_scaling/history_scaling.py [--perfzero build/ci/harness/perfzero]
           [--runs 10000] [--label_every 10] [--cases 5] [--trials 5] [--batch 1000] [--db FILE_OR_URL]
           [--postgresql] [--site]
"""
import argparse
import contextlib
import json
import os
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


@contextlib.contextmanager
def postgresql_server(work):
    """A throw-away PostgreSQL 15 cluster; yields its URL and a function giving the database's size."""
    bindir = pathlib.Path("/usr/lib/postgresql/15/bin")
    home = work / "pg"
    home.mkdir()
    as_user = []
    if os.geteuid() == 0:
        subprocess.run(["chown", "nobody:nogroup", str(home)], check=True)
        as_user = ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"]
    subprocess.run(as_user + [str(bindir / "initdb"), "-D", str(home / "data"), "-A", "trust", "-U", "perfzero",
                              "-E", "UTF8"], check=True, stdout=subprocess.DEVNULL)
    ctl = as_user + [str(bindir / "pg_ctl"), "-D", str(home / "data")]
    subprocess.run(ctl + ["-l", str(home / "server.log"), "-w", "-o",
                          f"-k {home} -c listen_addresses='' -p 54330", "start"], check=True,
                   stdout=subprocess.DEVNULL)
    url = f"postgresql://perfzero@/postgres?host={home}&port=54330"

    def size():
        out = subprocess.run(["psql", "-h", str(home), "-p", "54330", "-U", "perfzero", "-d", "postgres", "-tAc",
                              "SELECT pg_database_size('postgres')"], check=True, stdout=subprocess.PIPE, text=True)
        return int(out.stdout.strip())
    try:
        yield url, size
    finally:
        subprocess.run(ctl + ["-m", "fast", "stop"], stdout=subprocess.DEVNULL)


def ingest_all(perfzero, db, dirs, batch):
    seconds = 0.0
    for i in range(0, len(dirs), batch):
        t, r = timed([perfzero, "history", "ingest", f"--db={db}"] + [str(d) for d in dirs[i:i + batch]])
        if r.returncode != 0:
            raise SystemExit(f"ingest failed: {r.stderr}")
        seconds += t
    return seconds


def compare_median(perfzero, db, first):
    times = []
    for _ in range(3):
        seconds, r = timed([perfzero, "compare", f"--history={db}", "--label=main", "--last=1000", "--format=json",
                            str(first)])
        if r.returncode not in (0, 1):
            raise SystemExit(f"compare failed: {r.stderr}")
        times.append(seconds)
    return statistics.median(times), times, json.loads(r.stdout)


def site_once(perfzero, db, out, name, extra=()):
    t0 = time.perf_counter()
    r = subprocess.run([perfzero, "history", "site", f"--db={db}", f"--out={out}", "--no_catalog", *extra],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    seconds = time.perf_counter() - t0
    if r.returncode != 0:
        raise SystemExit(f"history site failed ({r.returncode}): {r.stderr}")
    files = [f for f in out.rglob("*") if f.is_file()]
    series = len(list((out / "series").glob("*.html")))
    print(f"{name} history site{' ' + ' '.join(extra) if extra else ''}: {len(files)} pages ({series} series, {len(list((out / 'runs').glob('*.html')))} run "
          f"pages, {sum(f.stat().st_size for f in files) / 1e6:.0f} MB) in {seconds:.1f} s (goal < 30 s: ratio "
          f"{seconds / 30:.2f})")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--perfzero", default="build/ci/harness/perfzero")
    p.add_argument("--runs", type=int, default=10000)
    p.add_argument("--label_every", type=int, default=10)
    p.add_argument("--cases", type=int, default=5)
    p.add_argument("--trials", type=int, default=5)
    p.add_argument("--batch", type=int, default=1000)
    p.add_argument("--db", default="")
    p.add_argument("--postgresql", action="store_true")
    p.add_argument("--site", action="store_true")
    a = p.parse_args()
    perfzero = str(pathlib.Path(a.perfzero).resolve())
    with tempfile.TemporaryDirectory(prefix="perfzero-history-scaling-") as tmp:
        work = pathlib.Path(tmp)
        os.chmod(work, 0o755)
        base = make_base_run(perfzero, work, a.cases, a.trials)
        dirs = copy_runs(base, work, a.runs, a.label_every)
        rows = a.runs * a.cases * a.trials
        backends = [("SQLite", a.db or str(work / "history.sqlite"), None)]
        with contextlib.ExitStack() as stack:
            if a.postgresql:
                url, pg_size = stack.enter_context(postgresql_server(work))
                backends.append(("PostgreSQL", url, pg_size))
            for name, db, size_of in backends:
                seconds = ingest_all(perfzero, db, dirs, a.batch)
                print(f"{name} ingest: {a.runs} runs ({a.cases} cases x {a.trials} trials each, {rows} trials, "
                      f"{rows * 4} metrics) in {seconds:.1f} s: {1e3 * seconds / a.runs:.2f} ms per run")
                median, times, doc = compare_median(perfzero, db, dirs[0])
                history_runs = doc["results"][0]["baseline"]["trials"]
                print(f"{name} compare --history over {history_runs} runs of the label: median {median:.3f} s of "
                      f"{', '.join(f'{t:.3f}' for t in times)} (goal < 1 s: ratio {median / 1.0:.2f})")
                if size_of is not None:
                    print(f"{name} database: {size_of() / 1e6:.1f} MB (pg_database_size)")
                elif "://" not in db:
                    print(f"{name} database: {pathlib.Path(db).stat().st_size / 1e6:.1f} MB (goal <= 100 MB for "
                          f"10,000 runs)")
                if a.site:
                    site_once(perfzero, db, work / f"site-{name}", name)
                    site_once(perfzero, db, work / f"site-{name}-500", name, ("--last=500",))
                    site_once(perfzero, db, work / f"site-{name}-nocost", name, ("--cost_days=0",))


if __name__ == "__main__":
    main()
