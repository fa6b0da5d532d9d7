"""How the package gets installed (docs/python.md, "Installing"): the python3-perfzero component's
files (cmake --install), its .pth read by Debian's python3, the build tree's share/perfzero/python
where perfzero looks beside its binaries, and `pip install harness/python` into a throwaway venv.

Usage: packaging_test.py CMAKE BUILD_DIR"""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

import pyrunner

import perfzero  # the source's, for its version

CMAKE, BUILD_DIR = sys.argv[1], os.path.abspath(sys.argv[2])
del sys.argv[1:3]
pyrunner.skip_unless(pyrunner.has_module(pyrunner.DEBIAN_PYTHON, "wheel"),
                     "Debian's python3-wheel (which python3-pip brings) is needed to build the package offline")


def python_says(python, code, env=None):
    process = subprocess.run([python, "-c", code], capture_output=True, text=True, env=env, timeout=60)
    assert process.returncode == 0, process.stderr
    return process.stdout.strip()


def clean_environment(**extra):
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env.update(extra)
    return env


class Packaging(unittest.TestCase):
    def test_debian_component(self):
        with tempfile.TemporaryDirectory() as root:
            prefix = os.path.join(root, "usr")
            subprocess.run([CMAKE, "--install", BUILD_DIR, "--component", "python3-perfzero", "--prefix", prefix],
                           check=True, capture_output=True)
            files = sorted(os.path.relpath(os.path.join(d, f), prefix) for d, _, fs in os.walk(prefix) for f in fs)
            sources = sorted(f for f in os.listdir(os.path.join(pyrunner.PACKAGE_DIR, "perfzero")) if f.endswith(".py"))
            # The frameworks suite's classes come with the package, beside the installed suites (not
            # their peers' measuring scripts).
            frameworks_dir = os.path.join(pyrunner.SOURCE_DIR, "benchmarks", "frameworks")
            frameworks = sorted(f for f in os.listdir(frameworks_dir) if f.endswith(".py"))
            self.assertIn("torch_networks.py", frameworks)
            self.assertEqual(files, sorted(["lib/python3/dist-packages/perfzero.pth",
                                            "share/doc/python3-perfzero/changelog.gz",
                                            "share/doc/python3-perfzero/copyright"]
                                           + ["share/perfzero/python/perfzero/" + f for f in sources]
                                           + ["share/perfzero/frameworks/" + f for f in frameworks]))
            site = os.path.join(prefix, "lib", "python3", "dist-packages")
            # Debian's python3 reads the .pth in its dist-packages: the same, with this prefix.
            where = python_says(pyrunner.DEBIAN_PYTHON, "import site; site.addsitedir(%r); import perfzero; "
                                "print(perfzero.__file__)" % site, clean_environment())
            self.assertEqual(where, os.path.join(prefix, "share", "perfzero", "python", "perfzero", "__init__.py"))
            # Any other interpreter: the harness puts only share/perfzero/python on PYTHONPATH.
            share = os.path.join(prefix, "share", "perfzero", "python")
            runner = subprocess.run([pyrunner.DEBIAN_PYTHON, "-I", "-c", "import sys; sys.path.insert(0, %r); "
                                     "import runpy; sys.argv = ['runner', 'list', '--method', 'a.B.c']; "
                                     "runpy.run_module('perfzero.runner', run_name='__main__')" % share],
                                    capture_output=True, text=True)
            self.assertEqual(runner.returncode, 3, runner.stderr)
            self.assertIn('"kind": "import"', runner.stdout)

    def test_build_tree_layout(self):
        # perfzero looks for <dir of its binary>/../share/perfzero/python; in the build tree the
        # binary is in harness/.
        share = os.path.join(BUILD_DIR, "harness", "..", "share", "perfzero", "python")
        where = python_says(pyrunner.DEBIAN_PYTHON, "import perfzero; print(perfzero.__file__)",
                            clean_environment(PYTHONPATH=share))
        self.assertEqual(os.path.realpath(where), os.path.join(pyrunner.PACKAGE_DIR, "perfzero", "__init__.py"))

    def test_pip_install(self):
        with tempfile.TemporaryDirectory() as root:
            # A copy: pip builds in the source folder, which must stay clean.
            source = shutil.copytree(pyrunner.PACKAGE_DIR, os.path.join(root, "src"),
                                     ignore=shutil.ignore_patterns("__pycache__", "build", "*.egg-info"))
            venv = os.path.join(root, "venv")
            # System site packages for Debian's setuptools and wheel: the build needs no network.
            subprocess.run([pyrunner.DEBIAN_PYTHON, "-m", "venv", "--system-site-packages", venv], check=True)
            python = os.path.join(venv, "bin", "python")
            install = subprocess.run([python, "-m", "pip", "install", "--quiet", "--no-index", "--no-build-isolation",
                                      "--disable-pip-version-check", source], capture_output=True, text=True,
                                     env=clean_environment())
            self.assertEqual(install.returncode, 0, install.stdout + install.stderr)
            shutil.rmtree(source)  # the installed copy must stand alone
            where = python_says(python, "import perfzero; print(perfzero.__file__, perfzero.__version__)",
                                clean_environment())
            self.assertEqual(where, "%s %s" % (os.path.join(venv, "lib", "python%d.%d" % sys.version_info[:2],
                                                            "site-packages", "perfzero", "__init__.py"),
                                               perfzero.__version__))
            listing = subprocess.run([python, "-m", "perfzero.runner", "list", "--discover", "--path", pyrunner.CLASSES_DIR],
                                     capture_output=True, text=True, env=clean_environment(), cwd=root)
            self.assertEqual(listing.returncode, 0, listing.stderr)
            self.assertIn("perfzero_style.SpinBenchmark.benchmark_spin", listing.stdout)


if __name__ == "__main__":
    unittest.main()
