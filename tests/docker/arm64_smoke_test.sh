#!/usr/bin/env bash
# The arm64 build in every CI run, time-boxed (the full arm64 image test, docker.arm64, is opt-in):
# from scripts/deps/packages.txt, the same list the x86 build reads, the cross container
# (docker/arm64/cross.Dockerfile) configures and cross-builds perfzero, the launcher and the core
# worker for arm64, then runs them under qemu-user-static: a sanity method, and the measured-peak
# method, whose NEON and SVE kernels must both run (qemu's default CPU has SVE). Nothing needs the
# arm64 Debian base image: the cross container has the arm64 libraries.
# Exit 77 (skipped) with the reason when Docker or qemu cannot run here, except in CI.
set -uo pipefail
source_dir=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
chmod 0777 "$work"
trap 'rm -rf "$work"' EXIT
failures=0
check() {  # check DESCRIPTION COMMAND...
  local what=$1
  shift
  if "$@"; then echo "ok: $what"; else echo "FAILED: $what"; failures=$((failures + 1)); fi
}
cd "$source_dir" || exit 1
if ! scripts/docker-arm64-env.sh --binfmt-only; then
  echo "arm64 binaries cannot run here (reason above)."
  [ "${CI:-}" = "true" ] && exit 1
  exit 77
fi

started=$SECONDS
docker build -q -t perfzero-cross-arm64 -f docker/arm64/cross.Dockerfile . > "$work/image.log" 2>&1 ||
  { tail -n 30 "$work/image.log"; echo "FAILED: the cross container"; exit 1; }
echo "cross container ready in $((SECONDS - started)) s"

cat > "$work/suite.yaml" <<'SUITE'
suite: arm64_smoke
defaults: {trials: 1, warmup_trials: 0, timeout: 5m}
methods:
  - sanity.Sanity.benchmark_noop
  - method: peak.CpuPeak.benchmark_fma
    params: {threads: 1, milliseconds: 20, repeats: 1}
SUITE
chmod 0644 "$work/suite.yaml"
ccache_dir=${PERFZERO_ARM64_CCACHE:-$HOME/.cache/perfzero-arm64-ccache}
mkdir -p build/arm64-smoke "$ccache_dir"
started=$SECONDS
docker run --rm --user "$(id -u):$(id -g)" -v "$PWD:/src" -w /src -v "$ccache_dir:/ccache" -v "$work:/work" \
  -e CCACHE_DIR=/ccache -e CCACHE_BASEDIR=/src -e HOME=/tmp perfzero-cross-arm64 sh -ec '
    cmake --fresh -S . -B build/arm64-smoke -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_TOOLCHAIN_FILE=docker/arm64/aarch64-linux-gnu.cmake -DPERFZERO_BUILD_TESTS=OFF \
      -DCMAKE_UNITY_BUILD=ON -DCMAKE_UNITY_BUILD_BATCH_SIZE=16 > /work/configure.log 2>&1 ||
      { cat /work/configure.log; exit 10; }
    grep "perfzero workers:" /work/configure.log
    cmake --build build/arm64-smoke --target perfzero perfzero-launch perfzero-worker-core > /work/build.log 2>&1 ||
      { tail -n 40 /work/build.log; exit 11; }
    file -L build/arm64-smoke/harness/perfzero build/arm64-smoke/harness/perfzero-worker-core | sed "s|^|built: |"
    PERFZERO_WORKER_CACHE=off build/arm64-smoke/harness/perfzero --config /work/suite.yaml --output_dir /work/out \
      > /work/run.log 2>&1 || { cat /work/run.log; exit 12; }
    tail -n 1 /work/run.log' > "$work/container.log" 2>&1
rc=$?
cat "$work/container.log"
check "configure, cross-build and run under qemu in the cross container ($((SECONDS - started)) s)" test "$rc" -eq 0
check "perfzero is an aarch64 binary" grep -Eq "harness/perfzero: +ELF 64-bit LSB .*ARM aarch64" "$work/container.log"

value() {  # value METHOD PYTHON_EXPRESSION_OF_d
  local report
  report=$(find "$work/out" -path "*/$1*/trial_1/perfzero_summary.json" | head -n 1)
  [ -n "$report" ] || return 1
  /usr/bin/python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$report" "$2"
}
check "the noop method succeeded on aarch64" test "$(value sanity.Sanity.benchmark_noop \
  "d['perfzero_cpp']['outcome'] + ' ' + d['perfzero_cpp']['system']['architecture']")" = "succeeded aarch64"
check "the peak method succeeded" test "$(value peak.CpuPeak.benchmark_fma "d['perfzero_cpp']['outcome']")" = succeeded
extras=$(value peak.CpuPeak.benchmark_fma "sorted(k for k in d['benchmark_result']['extras'] if k.startswith('gflops_'))")
echo "peak kernels measured: $extras"
for kernel in gflops_neon_fp32 gflops_neon_fp64 gflops_sve_fp32 gflops_sve_fp64; do
  check "the $kernel kernel ran" grep -q "'$kernel'" <<< "$extras"
done

echo "$failures failed"
[ "$failures" -eq 0 ]
