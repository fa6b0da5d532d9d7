#!/usr/bin/env bash
# clang-tidy over the project's own sources, with the checks in .clang-tidy, using a build's
# compile_commands.json. usage: scripts/lint.sh BUILD_DIR
set -uo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/ci}
# Only what this build compiles: files for another architecture (the Arm peak kernels on x86) are
# not in its compile database and cannot be analyzed with its flags.
mapfile -t files < <(git ls-files 'harness/*.cpp' 'benchmarks/*.cpp' | while read -r f; do
  grep -q "\"file\": \"[^\"]*/$f\"" "$build/compile_commands.json" && echo "$f"
done)
log=$(mktemp)
printf '%s\n' "${files[@]}" | xargs -P "$(nproc)" -n 4 clang-tidy -p "$build" --quiet --warnings-as-errors='*' >"$log" 2>&1
status=$?
grep -E 'warning:|error:' -A3 "$log"
rm -f "$log"
if [ "$status" -ne 0 ]; then
  echo "clang-tidy: findings above"
  exit 1
fi
echo "clang-tidy: ${#files[@]} files clean"
