#!/usr/bin/env bash
# clang-tidy over the project's own sources, with the checks in .clang-tidy, using a build's
# compile_commands.json; files that passed and have not changed since are skipped (scripts/lint.py
# says how). usage: scripts/lint.sh BUILD_DIR
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/ci}
# Only what this build compiles: files for another architecture (the Arm peak kernels on x86) are
# not in its compile database and cannot be analyzed with its flags.
mapfile -t files < <(git ls-files 'harness/*.cpp' 'benchmarks/*.cpp' | while read -r f; do
  grep -q "\"file\": \"[^\"]*/$f\"" "$build/compile_commands.json" && echo "$f"
done)
exec /usr/bin/python3 scripts/lint.py "$build" "${files[@]}"
