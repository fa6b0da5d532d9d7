#!/usr/bin/env bash
# The whole test suite, as CI runs it (.ci/run calls this). docs/testing.md has the stages, their
# budgets and measured times, and why they run in this order:
#   1. install what is missing (Debian packages; the PyPI tools in build/venv)
#   2. style (clang-format)
#   3. the ci build: Release, -Werror, every worker (g++; CUDA where the toolkit is)
#   4. two lanes at once:
#        the waiting lane (ctest label waits): the images built from that build, run for real; the
#          Debian packages; the cloud runner; the Slurm clusters on network namespaces. They mostly
#          wait (Docker, apt, the cloud stand-ins, the clusters' daemons), so they share the cores
#          with ...
#        the compiler lane: clang-tidy; the clang build with ASan + UBSan, which the fuzzers share;
#          the fuzzers; the unit tests and the hostile-input tests under the sanitizers
#   5. every other ci test, alone: the timing and load tests, the clusters, the real binary on
#      real suites
# Every test pass ends with scripts/check_test_run.py, which fails the run when fewer tests ran
# than tests/expected_tests.txt says that stage counts, or when a test was skipped that
# tests/skip_allowlist.txt does not allow.
# PERFZERO_SKIP_SANITIZERS=1 skips the sanitizer build, fuzzing and sanitizer tests for a quicker
# local loop; PERFZERO_ARM64_TESTS=1 adds the arm64 tests (the cross-built smoke test, 4 minutes
# alone, and the arm64 image, about 25 minutes cold);
# PERFZERO_FROM_SOURCE_TESTS=1 adds the CPU image compiled inside Docker (docker.from_source);
# PERFZERO_FRAMEWORK_IMAGE_TESTS=1 adds the PyTorch and TensorFlow images (docker.frameworks_images).
set -euo pipefail
cd "$(dirname "$0")/.."
# ccache keys on the compile command: with paths under the checkout made relative, a clone in another
# folder (CI's) reuses what an earlier build of the same sources compiled.
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$PWD}"
python=/usr/bin/python3

# Each stage's time is printed when it ends, and the whole run's at the end.
stage_name=""
stage_start=$SECONDS
stage() {
  [ -n "$stage_name" ] && echo "== $stage_name: done in $((SECONDS - stage_start)) s"
  stage_name="$1"
  stage_start=$SECONDS
  [ -n "$1" ] && echo "== $1"
  return 0
}

# A stage that fails says which, with the disk and memory left: a compiler killed for memory, or
# one whose message ccache could not write to a full disk, prints nothing of its own.
report_failure() {
  echo "== failed in stage: ${stage_name:-?} (after $((SECONDS - stage_start)) s); disk and memory now:"
  df -h . /tmp 2> /dev/null || true
  free -m 2> /dev/null || true
}
trap report_failure ERR
# A run needs about 15 GB (two build trees, the images); below that it may fail in any stage.
free_kb=$(df -Pk . | awk 'NR == 2 { print $4 }')
if [ "${free_kb:-0}" -lt $((15 * 1024 * 1024)) ]; then
  echo "== warning: $((free_kb / 1024 / 1024)) GB free on this checkout's disk; a whole run needs about 15 GB"
fi

stage "install dependencies"
scripts/install-deps.sh

stage "style: clang-format"
mapfile -t sources < <(git ls-files '*.cpp' '*.hpp' '*.c' '*.h')
clang-format --dry-run --Werror "${sources[@]}"

stage "build: ci preset (g++, Release, -Werror)"
cmake --preset ci > /dev/null
cmake --build --preset ci

# The waiting lane runs in the background, its output in a log printed when it ends; a failure of
# the compiler lane stops the run and the waiting lane with it.
lane_log=build/ci/waits-lane.log
rm -f build/ci/waits-lane.status build/ci/waits-lane.seconds # a stale one must not pass this run
lane_pid=""
stop_lane() { [ -z "$lane_pid" ] || kill -- -"$lane_pid" 2> /dev/null || true; }
trap stop_lane EXIT
lane_labels=waits
# Opt-in: the arm64 tests (cross-builds), the image compiled from source inside Docker and the
# framework images.
excluded=()
[ "${PERFZERO_ARM64_TESTS:-0}" = "1" ] || excluded+=(arm64)
[ "${PERFZERO_FROM_SOURCE_TESTS:-0}" = "1" ] || excluded+=(from_source)
[ "${PERFZERO_FRAMEWORK_IMAGE_TESTS:-0}" = "1" ] || excluded+=(frameworks)
lane_exclude=()
[ "${#excluded[@]}" -eq 0 ] || lane_exclude=(-LE "$(IFS='|'; echo "${excluded[*]}")")
echo "== waiting lane (ctest -L $lane_labels) started in the background: $lane_log"
set -m # its own process group, so that stop_lane ends everything it started
(
  started=$SECONDS
  rc=0 # set -e would end this subshell at a failing ctest, before the status and time are written
  ctest --preset ci -L "$lane_labels" "${lane_exclude[@]}" --output-junit "$PWD/build/ci/junit-waits.xml" \
    > "$lane_log" 2>&1 || rc=$?
  echo "$rc" > build/ci/waits-lane.status
  echo $((SECONDS - started)) > build/ci/waits-lane.seconds
) &
lane_pid=$!
set +m

stage "lint: clang-tidy (beside the waiting lane)"
scripts/lint.sh build/ci

if [ "${PERFZERO_SKIP_SANITIZERS:-0}" != "1" ]; then
  stage "build: asan preset (clang, ASan + UBSan, the fuzzers; beside the waiting lane)"
  cmake --preset asan > /dev/null
  # What the sanitizer pass runs, and the fuzzers: not the timing, load and cluster test programs.
  cmake --build --preset asan --target perfzero_unit_tests perfzero_hostile_input_tests perfzero_workers \
    fuzz_child_result fuzz_google_benchmark fuzz_tool_output fuzz_suite fuzz_price_catalog fuzz_journal \
    fuzz_history_document

  stage "fuzzing: each reader ${PERFZERO_FUZZ_SECONDS:-30} s under ASan + UBSan (a crash input is kept as a regression case)"
  tests/fuzz/run_fuzzers.sh "${PERFZERO_FUZZ_SECONDS:-30}"

  stage "test: asan preset (unit and hostile-input tests; beside the waiting lane)"
  ctest --preset asan --output-junit "$PWD/build/asan/junit.xml"
  $python scripts/check_test_run.py asan build/asan/junit.xml
fi

stage "waiting for the waiting lane"
wait "$lane_pid" || true
lane_pid=""
cat "$lane_log"
echo "== waiting lane: done in $(cat build/ci/waits-lane.seconds 2> /dev/null || echo '?') s (from the end of the ci build)"
[ "$(cat build/ci/waits-lane.status 2> /dev/null)" = 0 ] || { echo "== the waiting lane failed (above)"; exit 1; }
$python scripts/check_test_run.py ci-waits build/ci/junit-waits.xml

stage "test: ci preset, every other test (alone: the timing and load tests judge the machine's quiet)"
ctest --preset ci -LE "waits|arm64|from_source|frameworks" --output-junit "$PWD/build/ci/junit.xml"
$python scripts/check_test_run.py ci build/ci/junit.xml

stage ""
echo "== all tests passed in $SECONDS s"
