#!/usr/bin/python3
"""clang-tidy over the project's own sources, in batches, with a cache of the files that passed.

usage: scripts/lint.py BUILD_DIR FILE...   (scripts/lint.sh picks the files)

Why batches: clang-tidy parses every translation unit with all its headers (nlohmann, fmt, Boost),
about 7 s a file on this project's 2-core machines, so ~260 files alone took half an hour, most of
CI's time budget. Files with the same compile flags are linted together, up to $PERFZERO_TIDY_BATCH
(16) in one translation unit that includes them, which parses the shared headers once (16 harness
files: 34 s instead of about 110). A batch with any finding, or one that does not compile (two files
defining the same static helper), is linted again file by file, so every finding is reported
against the file alone and a file's own verdict decides whether it is cached. misc-unused-using-decls
looks at the main file only, so it runs again alone (that check only) on the ~30 files with a
using-declaration. What a batch cannot see: a file that compiles only thanks to what an earlier
file of its batch included (the build's own unity batches hide that too).

Why a cache: most files did not change since the last lint. A file that passed is skipped when
nothing that could change the verdict has changed: its preprocessed text (every header it includes,
so an edited header re-lints every file that includes it), its compile flags, .clang-tidy and the
clang-tidy version. Paths of the checkout and the build directory are taken out of the key, so a
clone in another folder reuses what an earlier lint of the same code found clean. Findings are
never cached: a file with findings is linted again on every run.

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


def without_outputs(argv):
    """The compile command without ccache, its output file and dependency files: what the flags
    of two sources of one target differ in besides the source."""
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
        if a in ("-MD", "-MMD"):
            continue
        out.append(a)
    return out


def preprocess_argv(argv):
    """The compile command, made to print the preprocessed source."""
    return [a for a in without_outputs(argv) if a != "-c"] + ["-E", "-o", "-"]


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


def clang_tidy(source, database, extra=()):
    result = subprocess.run(
        ["clang-tidy", "-p", str(database), "--quiet", "--warnings-as-errors=*",
         "--config-file=" + str(ROOT / ".clang-tidy"), *extra, str(source)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        errors="replace",
        check=False,
    )
    return result.returncode, result.stdout + result.stderr


def batch_size():
    given = os.environ.get("PERFZERO_TIDY_BATCH", "16")
    if not given.isdigit() or int(given) < 1:
        raise SystemExit(f"lint.py: PERFZERO_TIDY_BATCH must be a whole number of files >= 1, not {given!r}")
    return int(given)


def unity_of(build):
    """Each member of a CMake unity translation unit -> (that unity file, its place there): the build
    compiled them together in that order, so the batch compiles for clang-tidy too."""
    with open(build / "compile_commands.json", encoding="utf-8") as f:
        entries = json.load(f)
    out = {}
    for e in entries:
        path = Path(e["directory"], e["file"]).resolve()
        if path.parent.name == "Unity" and path.name.startswith("unity_"):
            for place, member in enumerate(unity_members(path)):
                out[member] = (str(path), place)
    return out


def batches(paths, commands, size, unity=None):
    """Files in groups of at most `size` that share one compile command but for the source: the
    members of one of the build's unity files together, else files with the same flags."""
    unity = unity or {}
    groups = {}
    for path in sorted(paths, key=lambda p: (unity.get(p, ("", 0)), str(p))):
        directory, argv = commands[path]
        flags = tuple("@SOURCE@" if a == str(path) else a for a in without_outputs(argv))
        groups.setdefault((directory, flags, unity.get(path, ("", 0))[0]), []).append(path)
    out = []
    for (directory, flags, _), members in groups.items():
        for i in range(0, len(members), size):
            out.append((directory, list(flags), members[i:i + size]))
    return out


# Checks that look only at the main file of a translation unit, so a batch never reports them; they
# run again file by file on the files that could trip them.
USING_DECLARATION = re.compile(r"^\s*using\s+[A-Za-z_]\w*(::[A-Za-z_~]\w*)+\s*;", re.M)


def main_file_checks(path, database):
    if not USING_DECLARATION.search(path.read_text(encoding="utf-8", errors="replace")):
        return 0, ""
    return clang_tidy(path, database, ["--checks=-*,misc-unused-using-decls"])


def lint_batch(number, batch, database):
    """[(path, code, output)] for each file of the batch: the batch's own verdict when it is clean,
    else each file's alone."""
    directory, flags, members = batch
    if len(members) > 1:
        source = database / f"lint_batch_{number}.cpp"
        # The batch includes .cpp files on purpose: NOLINT on those lines only, so a member's own
        # suspicious include is still found.
        source.write_text("".join(f'#include "{m}"  // NOLINT(bugprone-suspicious-include)\n' for m in members),
                          encoding="utf-8")
        (database / f"batch_{number}").mkdir()
        entry = {"directory": directory, "file": str(source),
                 "arguments": [str(source) if a == "@SOURCE@" else a for a in flags]}
        (database / f"batch_{number}" / "compile_commands.json").write_text(json.dumps([entry]), encoding="utf-8")
        code, output = clang_tidy(source, database / f"batch_{number}")
        if code == 0:
            return [(m, *main_file_checks(m, database)) for m in members]
    return [(m, *clang_tidy(m, database)) for m in members]


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
    groups = batches(todo, commands, batch_size(), unity_of(build))
    print(f"clang-tidy: {len(files) - len(todo)} of {len(files)} files unchanged since they passed (cache: "
          f"{cache if cache is not None else 'off'}); linting {len(todo)} in {len(groups)} batches", flush=True)
    failed = []
    done = 0
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        futures = [pool.submit(lint_batch, n, group, database) for n, group in enumerate(groups)]
        for future in concurrent.futures.as_completed(futures):
            results = future.result()
            for path, code, output in results:
                if code != 0:
                    failed.append(path)
                    print(output, end="")
                elif keys.get(path):
                    (cache / keys[path]).write_text(str(path.relative_to(ROOT)) + "\n", encoding="utf-8")
            done += len(results)
            print(f"clang-tidy: {done} of {len(todo)} files linted", flush=True)
    shutil.rmtree(database, ignore_errors=True)
    if failed:
        print("clang-tidy: findings above, in " + ", ".join(str(p.relative_to(ROOT)) for p in sorted(failed)))
        return 1
    print(f"clang-tidy: {len(files)} files clean")
    return 0


if __name__ == "__main__":
    sys.exit(main())
