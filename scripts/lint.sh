#!/usr/bin/env bash
# clang-tidy over the project's own sources, with the checks in .clang-tidy, using a build's
# compile_commands.json (unity builds included: scripts/lint.py gives each file its own command);
# files that passed and have not changed since are skipped (scripts/lint.py says how).
# usage: scripts/lint.sh BUILD_DIR
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/ci}
mapfile -t files < <(git ls-files 'harness/*.cpp' 'benchmarks/*.cpp')
exec /usr/bin/python3 scripts/lint.py "$build" "${files[@]}"
