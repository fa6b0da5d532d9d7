#!/usr/bin/env bash
# The arm64 image, built on x86 and run under qemu-user-static (binfmt_misc): docker/build-arm64.sh
# (incremental: it keeps build/arm64), then
#   the arm64 unit tests pass;
#   the core worker's methods run in the arm64 image: the speed cube gives bit-identical numbers to
#   the x86 image (perfzero-cpp:e2e-test, which docker.e2e builds), STREAM and the sanity methods
#   succeed;
#   the arm64 system info reads OCPUs as 1 per vCPU;
#   the oneDNN worker is in the arm64 image and its matmul succeeds under qemu;
#   the arm64 Debian packages (docker/build-arm64.sh --debs) install in the arm64 base with apt-get,
#   and run the oneDNN matmul there.
# Exit 77 (skipped) with the reason when arm64 containers cannot run here, except in CI.
set -uo pipefail
source_dir=$(cd "$(dirname "$0")/../.." && pwd)
x86_image=${PERFZERO_TEST_IMAGE:-perfzero-cpp:e2e-test}
work=$(mktemp -d)
chmod 0755 "$work" # the image runs as its own user
trap 'rm -rf "$work"' EXIT
failures=0
check() { # check DESCRIPTION COMMAND...
  local what=$1
  shift
  if "$@"; then echo "ok: $what"; else
    echo "FAILED: $what"
    failures=$((failures + 1))
  fi
}
skip() {
  echo "$1"
  [ "${CI:-}" = "true" ] && exit 1
  exit 77
}

cd "$source_dir" || exit 1
scripts/docker-arm64-env.sh || skip "arm64 containers cannot run here (reason above)"
docker image inspect "$x86_image" > /dev/null 2>&1 || skip "image $x86_image is missing (docker.e2e builds it)"
started=$SECONDS
docker/build-arm64.sh --debs "$work/debs" > "$work/build.log" 2>&1 || { tail -n 40 "$work/build.log"; echo "FAILED: docker/build-arm64.sh"; exit 1; }
tail -n 1 "$work/build.log"
echo "docker/build-arm64.sh took $((SECONDS - started)) s"
version=$(sed -n 's/^project(perfzero_cpp VERSION \([0-9.]*\).*/\1/p' CMakeLists.txt)
image=perfzero-cpp:${version}-arm64
check "the image is linux/arm64" test "$(docker image inspect -f '{{.Os}}/{{.Architecture}}' "$image")" = linux/arm64

# Unit tests, in the cross container (which has the arm64 libraries), through qemu.
started=$SECONDS
# Left out: what qemu-user cannot emulate, not what arm64 does. It runs posix_spawn's vfork as a
# fork, so an exec that fails is seen as a child exiting 127 (RunProgram); a child's max RSS is
# qemu's own (LaunchServer's peak memory); its timing makes a launcher's replacement race.
qemu_limits="RunProgram.AMissingProgramIsSaidAndBlockedSignalsAreNotInherited"
qemu_limits+=":LaunchServer.PeakMemoryAndProcessCountCoverTheWholeTreeAndNotTheLauncherHistory"
qemu_limits+=":LaunchServer.ALauncherKilledBetweenTrialsIsReplaced"
docker run --rm -v "$source_dir:/src" -w /src perfzero-cross-arm64 build/arm64/tests/perfzero_unit_tests \
  --gtest_brief=1 --gtest_filter="-$qemu_limits" > "$work/unit.log" 2>&1
rc=$?
tail -n 3 "$work/unit.log"
check "arm64 unit tests pass under qemu ($((SECONDS - started)) s)" test "$rc" -eq 0
[ "$rc" -eq 0 ] || grep -E '^\[  FAILED' "$work/unit.log" | head -n 20

# The same small suite on both architectures; one thread so the speed cube's sums run in one order.
cat > "$work/suite.yaml" << 'EOF'
suite: arm64_check
defaults: {trials: 1, warmup_trials: 0, timeout: 10m}
methods:
  - sanity.Sanity.benchmark_noop
  - method: speedcube.SpeedCube.benchmark_fused
    params: {n: 2048, chunk: 512, threads: 1}
  - method: stream.Stream.benchmark_stream
    params: {n: 1048576, repetitions: 2, threads: 1}
  - method: onednn.Matmul.benchmark_matmul_fp32
    params: {m: 64, n: 64, k: 64, repetitions: 2, threads: 1}
EOF
chmod 0644 "$work/suite.yaml"
mkdir -p "$work/out" && chmod 1777 "$work/out"
for arch in arm64 x86; do
  img=$image
  [ "$arch" = x86 ] && img=$x86_image
  started=$SECONDS
  docker run --rm -v "$work:/work" "$img" --config=/work/suite.yaml --output_dir="/work/out/$arch" \
    --platform_name=oci --instance_type=VM.Standard.A1.Flex > "$work/$arch.log" 2>&1
  rc=$?
  check "$arch: the core worker's methods succeed ($((SECONDS - started)) s)" test "$rc" -eq 0
  [ "$rc" -eq 0 ] || tail -n 20 "$work/$arch.log"
done

report() { # report ARCH METHOD: its trial report (the directory name carries the parameters)
  find "$work/out/$1" -path "*/$2*/trial_1/perfzero_summary.json" | head -n 1
}
value() { # value REPORT PYTHON_EXPRESSION_OF_d
  /usr/bin/python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(repr(eval(sys.argv[2])))" "$1" "$2" 2> /dev/null
}
metric() { value "$1" "[m['value'] for m in d['benchmark_result']['metrics'] if m['name'] == '$2'][0]"; }
cube=speedcube.SpeedCube.benchmark_fused
arm=$(report arm64 $cube)
x86=$(report x86 $cube)
check "arm64: the report says aarch64" test "$(value "$arm" "d['perfzero_cpp']['system']['architecture']")" = "'aarch64'"
for m in mean mean_error; do
  a=$(metric "$arm" "$m")
  b=$(metric "$x86" "$m")
  echo "speed cube $m: arm64 $a, x86 $b"
  check "speed cube $m bit-identical on arm64 and x86" test -n "$a" -a "$a" = "$b"
done
a=$(value "$arm" "d['benchmark_result']['extras']['all_points_mean']")
b=$(value "$x86" "d['benchmark_result']['extras']['all_points_mean']")
check "speed cube mean of all points bit-identical ($a, $b)" test -n "$a" -a "$a" = "$b"
stream=$(report arm64 stream.Stream.benchmark_stream)
check "arm64: STREAM succeeded" test "$(value "$stream" "d['benchmark_result']['succeeded']")" = True

# OCPUs: 1 per vCPU on Arm (OCI bills Ampere per vCPU), whatever the container's CPU count.
logical=$(value "$arm" "d['system_info']['logical_cpu_count']")
ocpus=$(value "$arm" "d['perfzero_cpp']['system']['ocpu_count']")
rule=$(value "$arm" "d['perfzero_cpp']['system']['ocpu_rule']")
echo "arm64 system info: logical_cpu_count $logical, ocpu_count $ocpus, rule $rule"
check "arm64: OCPUs = vCPUs" /usr/bin/python3 -c "import sys; sys.exit(not (float('$logical') > 0 and float('$ocpus') == float('$logical')))"
check "arm64: the OCPU rule says 1 OCPU = 1 vCPU" test "$rule" = "'Arm: 1 OCPU = 1 vCPU'"

matmul=$(report arm64 onednn.Matmul.benchmark_matmul_fp32)
check "arm64: the oneDNN matmul succeeded in the image" test "$(value "$matmul" "d['perfzero_cpp']['outcome']")" = "'succeeded'"
echo "arm64 oneDNN matmul (64x64x64 under qemu): $(metric "$matmul" gflops) GFLOP/s, oneDNN $(value "$matmul" "d['ml_framework_info']")"

# The arm64 packages, installed with apt-get in the arm64 base (under qemu) and run.
arch_of() { dpkg-deb -f "$1" Architecture; }
onednn_debs=("$work"/debs/perfzero-onednn_*_arm64.deb)
check "arm64 packages were built, perfzero-onednn among them" test -f "${onednn_debs[0]}"
for deb in "$work"/debs/*.deb; do
  check "$(basename "$deb") is an arm64 package" test "$(arch_of "$deb")" = arm64
done
started=$SECONDS
docker run --rm -v "$work/debs:/debs:ro" perfzero-base-arm64:bookworm sh -ec '
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q > /dev/null
  apt-get install -y -q --no-install-recommends /debs/perfzero_*_arm64.deb /debs/perfzero-onednn_*_arm64.deb > /tmp/install.log 2>&1 ||
    { tail -n 20 /tmp/install.log; exit 1; }
  printf "%s\n" "methods:" "  - method: onednn.Matmul.benchmark_matmul_fp32" \
    "    params: {m: 64, n: 64, k: 64, repetitions: 2, threads: 1}" > /tmp/matmul.yaml
  cd /tmp && perfzero --config /tmp/matmul.yaml --benchmark_num_trials=1 --output_dir=/tmp/run 2>&1 | tail -n 1' > "$work/debs.log" 2>&1
rc=$?
cat "$work/debs.log"
check "the arm64 packages install with apt-get and run the oneDNN matmul ($((SECONDS - started)) s)" test "$rc" -eq 0
check "... and it succeeded" grep -q "0 not succeeded" "$work/debs.log"

echo "$failures failed"
[ "$failures" -eq 0 ]
