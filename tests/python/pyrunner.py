"""What the Python package's tests share: where things are, running `python -m perfzero.runner` as the
harness does (PYTHONPATH = the package : the test classes, PERFZERO_RESULT_FILE in a temporary
folder), and skipping (exit 77, which ctest counts as skipped; in CI a missing tool is a failure)."""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE_DIR = os.path.abspath(os.path.join(HERE, "..", ".."))
PACKAGE_DIR = os.path.join(SOURCE_DIR, "harness", "python")
CLASSES_DIR = os.path.join(SOURCE_DIR, "tests", "data", "python_benchmarks")
DEBIAN_PYTHON = "/usr/bin/python3"
VENV = os.environ.get("PERFZERO_VENV") or os.path.join(SOURCE_DIR, "build", "venv")
VENV_PYTHON = os.path.join(VENV, "bin", "python")

sys.path.insert(0, PACKAGE_DIR)


def skip_unless(condition, reason):
    """Exit 77 with the reason when condition is false (exit 1 in CI)."""
    if not condition:
        print("skipped: " + reason)
        sys.exit(1 if os.environ.get("CI") == "true" else 77)


def has_module(python, module):
    return os.access(python, os.X_OK) and subprocess.run(
        [python, "-c", "import importlib.util, sys; sys.exit(importlib.util.find_spec(%r) is None)" % module],
        capture_output=True).returncode == 0


def environment(result_file=None, extra_paths=()):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([PACKAGE_DIR, CLASSES_DIR, *extra_paths])
    env.pop("PERFZERO_RESULT_FILE", None)
    env.pop("TEST_REPORT_FILE_PREFIX", None)
    env["TF_CPP_MIN_LOG_LEVEL"] = "2"
    if result_file:
        env["PERFZERO_RESULT_FILE"] = result_file
    return env


class Run:
    """One `runner run`: its exit status, output and the result file it left."""

    def __init__(self, method, python=DEBIAN_PYTHON, class_type="perfzero", constructor_args="{}", extra=()):
        self.folder = tempfile.TemporaryDirectory(prefix="perfzero-python-test-")
        self.output_dir = os.path.join(self.folder.name, "trial")
        os.mkdir(self.output_dir)
        self.result_file = os.path.join(self.folder.name, "result.json")
        command = [python, "-m", "perfzero.runner", "run", "--method", method, "--class_type", class_type,
                   "--constructor_args", constructor_args, "--output_dir", self.output_dir,
                   "--root_data_dir", "/data/root", *extra]
        self.process = subprocess.Popen(command, env=environment(self.result_file), stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, cwd=self.folder.name)

    def wait(self, timeout=60):
        out, err = self.process.communicate(timeout=timeout)
        self.returncode = self.process.returncode
        self.stdout = out.decode("utf-8", "replace")
        self.stderr = err.decode("utf-8", "replace")
        self.result = None
        if os.path.exists(self.result_file):
            with open(self.result_file, encoding="utf-8") as f:
                self.result = json.load(f)
        self.folder.cleanup()
        return self

    def describe(self):
        return "exit %s, result %s\nstderr tail:\n%s" % (self.returncode, json.dumps(self.result),
                                                           self.stderr[-2000:])


def run(method, **kwargs):
    return Run(method, **kwargs).wait()


class Listing:
    """One `runner list ARGS`, started now; wait() gives (exit status, the JSON on stdout, stderr)."""

    def __init__(self, args, python=DEBIAN_PYTHON):
        self.process = subprocess.Popen([python, "-m", "perfzero.runner", "list", *args], env=environment(),
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE)

    def wait(self, timeout=60):
        out, err = self.process.communicate(timeout=timeout)
        return self.process.returncode, json.loads(out.decode("utf-8")), err.decode("utf-8", "replace")


def list_methods(args, python=DEBIAN_PYTHON):
    return Listing(args, python).wait()


def metrics_by_name(result):
    return {m["name"]: m for m in result["metrics"]}
