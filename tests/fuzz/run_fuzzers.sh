#!/usr/bin/env bash
# Builds the libFuzzer targets (the result-file, Google Benchmark, suite, price catalog, journal and
# history document readers) in the asan preset's clang build (build/asan: the same build the sanitizer
# pass tests, so the project is compiled with clang once) and runs each for SECONDS (default 60) on a
# seed corpus from the tests' fixtures. An input that crashes one is copied into
# tests/fixtures/fuzz_regressions/<target>/, which the unit tests replay (fuzz_regressions_test.cpp).
# Exit status: 0 when no fuzzer found anything, 1 otherwise.
set -euo pipefail
seconds="${1:-60}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="$root/build/asan"

(cd "$root" && cmake --preset asan > /dev/null)
cmake --build "$build" --target fuzz_child_result fuzz_google_benchmark fuzz_tool_output fuzz_suite fuzz_price_catalog \
  fuzz_journal fuzz_history_document

# The suite and price catalog targets write each input to a file under TMPDIR; keep those here.
export TMPDIR="$build/tmp"
mkdir -p "$TMPDIR"

# fuzz_one TARGET: seeds its corpus, fuzzes it, keeps what crashed it; its exit status says whether
# it found anything.
fuzz_one() {
  local target=$1 corpus="$build/corpus/$1" artifacts="$build/artifacts/$1" found status=0
  rm -f "$build/$target.status"
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
  "$build/tests/fuzz/fuzz_$target" -max_total_time="$seconds" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
    -artifact_prefix="$artifacts/" -print_final_stats=1 "$corpus" 2>"$build/$target.log" || status=1
  for found in "$artifacts"/*; do
    [ -e "$found" ] || continue
    cp "$found" "$root/tests/fixtures/fuzz_regressions/$target/"
    echo "kept $(basename "$found") in tests/fixtures/fuzz_regressions/$target/" >> "$build/$target.log"
    status=1
  done
  return "$status"
}

# As many readers at a time as there are cores (PERFZERO_FUZZ_JOBS): each fuzzer uses one, and
# the seconds each gets stay the same; their logs are printed in order once all have ended.
targets=(child_result google_benchmark tool_output suite price_catalog journal history_document)
jobs=${PERFZERO_FUZZ_JOBS:-$(nproc)}
echo "fuzzing ${#targets[@]} readers for ${seconds}s each, $jobs at a time"
for target in "${targets[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
  # The status goes to a file: a job that `wait -n` reaped cannot be waited for again.
  { fuzz_one "$target"; echo $? > "$build/$target.status"; } &
done
wait
status=0
for target in "${targets[@]}"; do
  if [ "$(cat "$build/$target.status" 2> /dev/null)" = 0 ]; then result="nothing found"; else result="FOUND SOMETHING"; status=1; fi
  echo "== fuzz_$target: $result"
  tail -n 15 "$build/$target.log"
done
exit "$status"
