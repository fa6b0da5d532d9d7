#!/usr/bin/python3
"""The start-up cost of a Python trial (issue 38, item 6), step by step, timed by hyperfine: the
interpreter alone, + `import perfzero`, + the perfzero runner running a method that reports at once
(a whole trial's Python side with no framework), + the framework import, + the workload module
(benchmarks/frameworks) that a frameworks-suite trial imports.

usage: python_startup.py [--torch-python PY] [--tensorflow-python PY] [--runs N] [--package-dir DIR]
Run from the repository root. Each interpreter sees PYTHONPATH=DIR (the perfzero package's parent,
harness/python):benchmarks/frameworks:<a temp dir with the empty method>, as the harness gives a child. Prints a markdown table: mean and standard deviation of each
command and its cost over the row above it.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

EMPTY_BENCHMARK = '''import perfzero


class EmptyBenchmark(perfzero.Benchmark):
    def benchmark_nothing(self):
        self.report_benchmark(iters=1, wall_time=0.0)
'''


def rows(python, framework, workload, tmp):
    runner = (f"{python} -m perfzero.runner run --method empty_benchmark.EmptyBenchmark.benchmark_nothing "
              f"--class_type perfzero --constructor_args {{}} --output_dir {tmp}/out --root_data_dir {tmp}")
    return [(f"{python}: interpreter alone", f"{python} -c pass"),
            ("+ import perfzero", f"{python} -c 'import perfzero'"),
            ("+ the runner running an empty method (a trial without a framework)", runner),
            (f"import perfzero, {framework}", f"{python} -c 'import perfzero, {framework}'"),
            (f"import perfzero, {workload} (the frameworks suite's module)",
             f"{python} -c 'import perfzero, {workload}'")]


def hyperfine(commands, runs, env, tmp):
    report = os.path.join(tmp, "hyperfine.json")
    subprocess.run(["hyperfine", "--shell=none", "--warmup", "2", "--runs", str(runs), "--export-json", report,
                    *commands], check=True, env=env, stdout=subprocess.DEVNULL)
    with open(report) as f:
        return [(r["mean"], r["stddev"]) for r in json.load(f)["results"]]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--torch-python", default="/usr/bin/python3")
    parser.add_argument("--tensorflow-python", default="build/venv/bin/python")
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--package-dir", default="harness/python")
    args = parser.parse_args()
    if shutil.which("hyperfine") is None:
        sys.exit("python_startup.py: hyperfine is not on PATH (Debian: apt install hyperfine)")
    root = os.getcwd()
    package_dir = os.path.abspath(args.package_dir)
    if not os.path.isdir(os.path.join(package_dir, "perfzero")):
        sys.exit(f"python_startup.py: no perfzero package in {package_dir} (run from the repository root, or "
                 "say --package-dir)")
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "empty_benchmark.py"), "w") as f:
            f.write(EMPTY_BENCHMARK)
        env = dict(os.environ, PERFZERO_RESULT_FILE=os.path.join(tmp, "result.json"), TF_CPP_MIN_LOG_LEVEL="2",
                   PYTHONPATH=os.pathsep.join([package_dir,
                                               os.path.join(root, "benchmarks", "frameworks"), tmp]))
        print("| step | command | mean | sd | over the row above |")
        print("|---|---|---|---|---|")
        for python, framework, workload in ((args.torch_python, "torch", "torch_networks"),
                                            (args.tensorflow_python, "tensorflow", "tf_networks")):
            table = rows(python, framework, workload, tmp)
            figures = hyperfine([command for _, command in table], args.runs, env, tmp)
            # The runner and the framework rows each build on `import perfzero` (row 2), the workload
            # module on the framework.
            base = {0: None, 1: 0, 2: 1, 3: 1, 4: 3}
            for i, ((label, command), (mean, sd)) in enumerate(zip(table, figures)):
                over = "" if base[i] is None else f"+{(mean - figures[base[i]][0]) * 1e3:.0f} ms"
                print(f"| {label} | `{command.replace(tmp, 'TMP')}` | {mean * 1e3:.0f} ms | {sd * 1e3:.0f} ms "
                      f"| {over} |")


if __name__ == "__main__":
    main()
