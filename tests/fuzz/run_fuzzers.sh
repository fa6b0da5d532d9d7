#!/usr/bin/env bash
# Builds the libFuzzer targets (the result-file, Google Benchmark, suite, price catalog, journal and history document readers) with clang (build/fuzz) and runs each for SECONDS (default 60) on a
# seed corpus from the tests' fixtures. An input that crashes one is copied into
# tests/fixtures/fuzz_regressions/<target>/, which the unit tests replay (fuzz_regressions_test.cpp).
# Exit status: 0 when no fuzzer found anything, 1 otherwise.
set -euo pipefail
seconds="${1:-60}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="$root/build/fuzz"

cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_COMPILER=clang \
  -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_UNITY_BUILD=ON -DCMAKE_UNITY_BUILD_BATCH_SIZE=16 -DPERFZERO_BUILD_FUZZERS=ON -DPERFZERO_BUILD_TESTS=OFF >/dev/null
cmake --build "$build" --target fuzz_child_result fuzz_google_benchmark fuzz_tool_output fuzz_suite fuzz_price_catalog \
  fuzz_journal fuzz_history_document

# The suite and price catalog targets write each input to a file under TMPDIR; keep those here.
export TMPDIR="$build/tmp"
mkdir -p "$TMPDIR"

status=0
for target in child_result google_benchmark tool_output suite price_catalog journal history_document; do
  corpus="$build/corpus/$target"
  artifacts="$build/artifacts/$target"
  rm -rf "$artifacts"  # only what this run finds is copied below
  mkdir -p "$corpus" "$artifacts"
  # Seeds: the fixtures this reader is tested on, and every input that once broke it.
  case "$target" in
    child_result) cp "$root"/tests/fuzz/seeds/child_result/*.json "$corpus"/ ;;
    google_benchmark) cp "$root"/tests/fixtures/google_benchmark/*.json "$corpus"/ ;;
    tool_output) cp "$root"/tests/fixtures/tool_output/*.json "$corpus"/ ;;
    suite) cp "$root"/tests/fixtures/bad_suites/*.yaml "$root"/benchmarks/suites/*.yaml "$corpus"/ ;;
    price_catalog) cp "$root"/infra/pricing/catalog.yaml "$root"/tests/fuzz/seeds/price_catalog/*.yaml "$corpus"/ ;;
    journal) cp "$root"/tests/fuzz/seeds/journal/* "$corpus"/ ;;
    history_document) cp "$root"/tests/fuzz/seeds/history_document/* "$corpus"/ ;;
  esac
  mkdir -p "$root/tests/fixtures/fuzz_regressions/$target"
  cp "$root"/tests/fixtures/fuzz_regressions/"$target"/* "$corpus"/ 2>/dev/null || true
  echo "fuzzing $target for ${seconds}s"
  if ! "$build/tests/fuzz/fuzz_$target" -max_total_time="$seconds" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
      -artifact_prefix="$artifacts/" -print_final_stats=1 "$corpus" 2>"$build/$target.log"; then
    status=1
  fi
  tail -n 15 "$build/$target.log"
  for found in "$artifacts"/*; do
    [ -e "$found" ] || continue
    cp "$found" "$root/tests/fixtures/fuzz_regressions/$target/"
    echo "kept $(basename "$found") in tests/fixtures/fuzz_regressions/$target/" >&2
    status=1
  done
done
exit "$status"
