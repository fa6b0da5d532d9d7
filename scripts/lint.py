#!/usr/bin/python3
"""clang-tidy over the project's own sources, with a cache of the files that passed.

usage: scripts/lint.py BUILD_DIR FILE...   (scripts/lint.sh picks the files)

Why a cache: clang-tidy parses every translation unit with all its headers (nlohmann, fmt, Boost),
about 8 s a file on this project's 2-core machines, and the test command lints ~190 files: a
quarter of an hour each run, most of it on files nobody changed. A file that passed is skipped when
nothing that could change the verdict has changed: its preprocessed text (every header it includes,
so an edited header re-lints every file that includes it), its compile flags, .clang-tidy and the
clang-tidy version. Paths of the checkout and the build directory are taken out of the key, so a
clone in another folder (CI's) reuses what an earlier lint of the same code found clean. Findings
are never cached: a file with findings is linted again on every run.

The cache is $PERFZERO_TIDY_CACHE, else $XDG_CACHE_HOME/perfzero/clang-tidy, else
~/.cache/perfzero/clang-tidy; PERFZERO_TIDY_CACHE=off lints every file.
"""
import concurrent.futures
import hashlib
import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def cache_dir():
    given = os.environ.get("PERFZERO_TIDY_CACHE")
    if given == "off":
        return None
    if given:
        return Path(given)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "perfzero" / "clang-tidy"


def compile_commands(build):
    with open(build / "compile_commands.json", encoding="utf-8") as f:
        entries = json.load(f)
    out = {}
    for e in entries:
        path = Path(e["directory"], e["file"]).resolve()
        argv = e["arguments"] if "arguments" in e else shlex.split(e["command"])
        out[path] = (e["directory"], argv)
    return out


def preprocess_argv(argv):
    """The compile command, made to print the preprocessed source: no ccache, no output file, no
    dependency files."""
    if argv and os.path.basename(argv[0]) == "ccache":
        argv = argv[1:]
    out = []
    skip = False
    for a in argv:
        if skip:
            skip = False
            continue
        if a in ("-o", "-MT", "-MF", "-MQ"):
            skip = True
            continue
        if a in ("-c", "-MD", "-MMD"):
            continue
        out.append(a)
    return out + ["-E", "-o", "-"]


def key_of(path, commands, build, fixed):
    directory, argv = commands[path]
    pre = preprocess_argv(argv)
    result = subprocess.run(pre, cwd=directory, capture_output=True, check=False)
    if result.returncode != 0:
        return None  # not preprocessable alone: always linted
    h = hashlib.sha256(fixed)
    norm = lambda b: b.replace(str(build).encode(), b"@BUILD@").replace(str(ROOT).encode(), b"@ROOT@")
    h.update(norm(" ".join(pre).encode()))
    h.update(norm(result.stdout))
    return h.hexdigest()


def lint(path, build):
    result = subprocess.run(
        ["clang-tidy", "-p", str(build), "--quiet", "--warnings-as-errors=*", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        errors="replace",
        check=False,
    )
    return result.returncode, result.stdout + result.stderr


def main():
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    build = Path(sys.argv[1]).resolve()
    files = [(ROOT / f).resolve() for f in sys.argv[2:]]
    commands = compile_commands(build)
    cache = cache_dir()
    version = subprocess.run(["clang-tidy", "--version"], capture_output=True, check=True).stdout
    fixed = version + (ROOT / ".clang-tidy").read_bytes()
    jobs = os.cpu_count() or 1
    keys = {}
    if cache is not None:
        cache.mkdir(parents=True, exist_ok=True)
        with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
            for path, key in zip(files, pool.map(lambda p: key_of(p, commands, build, fixed), files)):
                keys[path] = key
    todo = [p for p in files if not (keys.get(p) and (cache / keys[p]).exists())]
    print(f"clang-tidy: {len(files) - len(todo)} of {len(files)} files unchanged since they passed (cache: "
          f"{cache if cache is not None else 'off'}); linting {len(todo)}", flush=True)
    failed = []
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        for path, (code, output) in zip(todo, pool.map(lambda p: lint(p, build), todo)):
            if code != 0:
                failed.append(path)
                print(output, end="")
            elif keys.get(path):
                (cache / keys[path]).write_text(str(path.relative_to(ROOT)) + "\n", encoding="utf-8")
    if failed:
        print("clang-tidy: findings above, in " + ", ".join(str(p.relative_to(ROOT)) for p in failed))
        return 1
    print(f"clang-tidy: {len(files)} files clean")
    return 0


if __name__ == "__main__":
    sys.exit(main())
