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
import shutil
import subprocess
import re
import sys
import tempfile
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


UNITY_INCLUDE = re.compile(r'^#include "([^"]+)"\s*$')


def unity_members(unity_file):
    """The sources a CMake unity translation unit (Unity/unity_N_cxx.cxx) includes, in order."""
    members = []
    for line in Path(unity_file).read_text(encoding="utf-8", errors="replace").splitlines():
        m = UNITY_INCLUDE.match(line)
        if m:
            members.append(Path(m.group(1)).resolve())
    return members


def compile_commands(build):
    """Every source's own compile command. A unity build (CMAKE_UNITY_BUILD, which the presets use
    to cut the build time) lists only its unity files; each of their members is given the unity
    file's command with the member as the source, so clang-tidy still sees every file alone, and a
    file that compiles only thanks to what an earlier member of its batch included fails here."""
    with open(build / "compile_commands.json", encoding="utf-8") as f:
        entries = json.load(f)
    out = {}
    for e in entries:
        path = Path(e["directory"], e["file"]).resolve()
        argv = e["arguments"] if "arguments" in e else shlex.split(e["command"])
        if path.parent.name == "Unity" and path.name.startswith("unity_"):
            for member in unity_members(path):
                out[member] = (e["directory"], [str(member) if a == e["file"] or a == str(path) else a
                                                for a in argv])
        else:
            out[path] = (e["directory"], argv)
    return out


def write_database(commands, into):
    """A compile_commands.json with one entry per source, for clang-tidy -p."""
    entries = [{"directory": d, "arguments": argv, "file": str(path)} for path, (d, argv) in commands.items()]
    (into / "compile_commands.json").write_text(json.dumps(entries, indent=1), encoding="utf-8")


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


def lint(path, database):
    result = subprocess.run(
        ["clang-tidy", "-p", str(database), "--quiet", "--warnings-as-errors=*", str(path)],
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
    commands = compile_commands(build)
    # Only what this build compiles: files for another architecture (the Arm peak kernels on x86)
    # are not in its compile database and cannot be analyzed with its flags.
    given = [(ROOT / f).resolve() for f in sys.argv[2:]]
    files = [p for p in given if p in commands]
    if len(files) < len(given):
        print(f"clang-tidy: {len(given) - len(files)} files not compiled by {build} are left out", flush=True)
    database = Path(tempfile.mkdtemp(prefix="perfzero-tidy-"))
    write_database(commands, database)
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
        for path, (code, output) in zip(todo, pool.map(lambda p: lint(p, database), todo)):
            if code != 0:
                failed.append(path)
                print(output, end="")
            elif keys.get(path):
                (cache / keys[path]).write_text(str(path.relative_to(ROOT)) + "\n", encoding="utf-8")
    shutil.rmtree(database, ignore_errors=True)
    if failed:
        print("clang-tidy: findings above, in " + ", ".join(str(p.relative_to(ROOT)) for p in failed))
        return 1
    print(f"clang-tidy: {len(files)} files clean")
    return 0


if __name__ == "__main__":
    sys.exit(main())
