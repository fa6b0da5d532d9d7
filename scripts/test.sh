#!/usr/bin/env bash
# The whole test suite, as CI runs it (.ci/run calls this). docs/testing.md has the stages, their
# budgets and measured times, and why they run in this order:
#   1. install what is missing (Debian packages; the PyPI tools in build/venv)
#   2. style (clang-format)
#   3. the ci build: Release, -Werror, every worker (g++; CUDA where the toolkit is)
#   4. two lanes at once:
#        the image lane (ctest label docker): the images built from that build, run for real; the
#          Debian packages; the cloud runner. They mostly wait (Docker, apt, the cloud stand-ins),
#          so they share the cores with ...
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
# PERFZERO_FROM_SOURCE_TESTS=1 adds the CPU image compiled inside Docker (docker.from_source).
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

stage "install dependencies"
scripts/install-deps.sh

stage "style: clang-format"
mapfile -t sources < <(git ls-files '*.cpp' '*.hpp' '*.c' '*.h')
clang-format --dry-run --Werror "${sources[@]}"

stage "build: ci preset (g++, Release, -Werror)"
cmake --preset ci > /dev/null
cmake --build --preset ci

# The image lane runs in the background, its output in a log printed when it ends; a failure of
# the compiler lane stops the run and the image lane with it.
images_log=build/ci/images-lane.log
images_pid=""
stop_images() { [ -z "$images_pid" ] || kill -- -"$images_pid" 2> /dev/null || true; }
trap stop_images EXIT
images_labels=docker
# Opt-in: the arm64 tests (cross-builds) and the image compiled from source inside Docker.
excluded=()
[ "${PERFZERO_ARM64_TESTS:-0}" = "1" ] || excluded+=(arm64)
[ "${PERFZERO_FROM_SOURCE_TESTS:-0}" = "1" ] || excluded+=(from_source)
images_exclude=()
[ "${#excluded[@]}" -eq 0 ] || images_exclude=(-LE "$(IFS='|'; echo "${excluded[*]}")")
echo "== image lane (ctest -L $images_labels) started in the background: $images_log"
images_started=$SECONDS
set -m # its own process group, so that stop_images ends everything it started
(
  ctest --preset ci -L "$images_labels" "${images_exclude[@]}" --output-junit "$PWD/build/ci/junit-images.xml" \
    > "$images_log" 2>&1
  echo $? > build/ci/images-lane.status
) &
images_pid=$!
set +m

stage "lint: clang-tidy (beside the image lane)"
scripts/lint.sh build/ci

if [ "${PERFZERO_SKIP_SANITIZERS:-0}" != "1" ]; then
  stage "build: asan preset (clang, ASan + UBSan, the fuzzers; beside the image lane)"
  cmake --preset asan > /dev/null
  # What the sanitizer pass runs, and the fuzzers: not the timing, load and cluster test programs.
  cmake --build --preset asan --target perfzero_unit_tests perfzero_hostile_input_tests perfzero_workers \
    fuzz_child_result fuzz_google_benchmark fuzz_tool_output fuzz_suite fuzz_price_catalog fuzz_journal \
    fuzz_history_document

  stage "fuzzing: each reader ${PERFZERO_FUZZ_SECONDS:-30} s under ASan + UBSan (a crash input is kept as a regression case)"
  tests/fuzz/run_fuzzers.sh "${PERFZERO_FUZZ_SECONDS:-30}"

  stage "test: asan preset (unit and hostile-input tests; beside the image lane)"
  ctest --preset asan --output-junit "$PWD/build/asan/junit.xml"
  $python scripts/check_test_run.py asan build/asan/junit.xml
fi

stage "waiting for the image lane"
wait "$images_pid" || true
images_pid=""
cat "$images_log"
echo "== image lane: done in $((SECONDS - images_started)) s (it started after the ci build)"
[ "$(cat build/ci/images-lane.status 2> /dev/null)" = 0 ] || { echo "== the image lane failed (above)"; exit 1; }
$python scripts/check_test_run.py ci-images build/ci/junit-images.xml

stage "test: ci preset, every other test (alone: the timing and load tests judge the machine's quiet)"
ctest --preset ci -LE "docker|arm64|from_source" --output-junit "$PWD/build/ci/junit.xml"
$python scripts/check_test_run.py ci build/ci/junit.xml

stage ""
echo "== all tests passed in $SECONDS s"
