#!/usr/bin/env bash
# scripts/gpu-bundle.sh and scripts/gpu-verify.sh on this machine (no GPU): the bundle carries every
# library the binaries need that is not the host's own (glibc, libstdc++, CUDA), the bundled
# binaries load them from the bundle, and gpu-verify runs a suite end to end, the CUDA methods
# ending skipped. On a GPU machine the same two scripts give results/reference/ its runs.
# usage: gpu_bundle_test.sh SOURCE_DIR BUILD_DIR WORK_DIR
set -euo pipefail
source_dir=$1
build_dir=$2
work=$3
fail() { echo "FAIL: $*" >&2; exit 1; }

cd "$source_dir"
rm -rf "$work"
mkdir -p "$work"
scripts/gpu-bundle.sh "$build_dir" "$work/bundle" || fail "gpu-bundle.sh failed"
for b in perfzero perfzero-launch perfzero-worker-core perfzero-worker-cuda; do
  [[ -x "$work/bundle/bin/$b" ]] || fail "$b missing from the bundle"
done
if [[ -x "$build_dir/harness/perfzero-worker-opencl" ]]; then
  [[ -x "$work/bundle/bin/perfzero-worker-opencl" ]] || fail "the OpenCL worker was built but not bundled"
  [[ -n "$(find "$work/bundle/lib" -name 'libclblast.so*')" ]] || fail "CLBlast not bundled with the OpenCL worker"
fi
# shellcheck disable=SC2016 # $ORIGIN is the loader's, not the shell's
readelf -d "$work/bundle/bin/perfzero" | grep -qF 'Library rpath: [$ORIGIN/../lib]' || fail "perfzero has no \$ORIGIN RPATH"
# Every library of every bundled binary outside glibc, the C++ runtime and CUDA resolves into the bundle.
for b in "$work"/bundle/bin/*; do
  outside=$({ ldd "$b" 2>/dev/null || true; } | awk '$2 == "=>" {print $1, $3}' |
    grep -Ev '^(libc|libm|libdl|libpthread|librt|libresolv|libstdc\+\+|libgcc_s|libcudart|libcublas|libcublasLt|libcudnn|libnccl)\.' |
    grep -vF "$work/bundle/bin/../lib/" || true)
  [[ -z "$outside" ]] || fail "$(basename "$b") loads libraries from outside the bundle: $outside"
done
[[ -n "$(find "$work/bundle/lib" -name 'libyaml-cpp.so*')" ]] || fail "yaml-cpp not bundled"
[[ -z "$(find "$work/bundle/lib" -name 'libc.so*' -o -name 'libstdc++*' -o -name 'libcudart*' -o -name 'libcublas*' -o -name 'libnccl*')" ]] ||
  fail "host-owned libraries were bundled"
# OUT_DIR is replaced whole: a folder that is not a bundle is refused, a bundle is rebuilt.
mkdir -p "$work/precious" && echo keep > "$work/precious/file"
if scripts/gpu-bundle.sh "$build_dir" "$work/precious" >/dev/null 2>&1; then fail "gpu-bundle.sh replaced a folder that is not a bundle"; fi
[[ -f "$work/precious/file" ]] || fail "gpu-bundle.sh removed a folder that is not a bundle"
scripts/gpu-bundle.sh "$build_dir" "$work/bundle" >/dev/null || fail "gpu-bundle.sh would not rebuild its own bundle"

# gpu-verify on a two-method suite: a CUDA method skipped here, a CPU method that runs.
cat > "$work/suite.yaml" <<'YAML'
suite: bundle_check
methods:
  - method: cuda.VecAdd.benchmark_vecadd
  - method: sanity.Sanity.benchmark_noop
YAML
rc=0
out=$(PERFZERO_FLAGS="--execution_label=bundle-test" scripts/gpu-verify.sh "$work/bundle" "$work/runs" "$work/suite.yaml" 2>&1) ||
  rc=$?
# Without a usable GPU the CUDA method is skipped and gpu-verify says so with exit 1; with one it succeeds.
if nvidia-smi -L >/dev/null 2>&1; then
  grep -q '^| cuda.VecAdd.benchmark_vecadd | succeeded |' <<<"$out" || fail "the CUDA method did not succeed on the GPU: $out"
  [[ $rc -eq 0 ]] || fail "gpu-verify.sh exited $rc: $out"
else
  grep -q '^| cuda.VecAdd.benchmark_vecadd | skipped |' <<<"$out" || fail "the CUDA method was not skipped: $out"
  [[ $rc -eq 1 ]] || fail "gpu-verify.sh exited $rc, not 1, with the CUDA method skipped: $out"
  grep -q "CUDA case(s) of suite skipped" <<<"$out" || fail "gpu-verify.sh did not say the CUDA method was skipped: $out"
fi
grep -q '^| sanity.Sanity.benchmark_noop | succeeded |' <<<"$out" || fail "the CPU method did not succeed: $out"
[[ -f "$work/runs/suite/summary.json" && -f "$work/runs/suite.log" ]] || fail "no run directory or log in $work/runs"
grep -q 'bundle-test' "$work/runs/suite/summary.json" || fail "PERFZERO_FLAGS did not reach perfzero"

# Bad input: a missing bundle, or an OUT_DIR that already holds the suite's run, is a usage error.
if scripts/gpu-verify.sh "$work/nothing" "$work/runs2" >/dev/null 2>&1; then fail "gpu-verify.sh accepted a missing bundle"; fi
rc=0
again=$(scripts/gpu-verify.sh "$work/bundle" "$work/runs" "$work/suite.yaml" 2>&1) || rc=$?
[[ $rc -eq 2 ]] || fail "gpu-verify.sh into a used OUT_DIR exited $rc, not 2: $again"
grep -q "exists; give a new OUT_DIR" <<<"$again" || fail "gpu-verify.sh did not say why: $again"
echo "PASS: gpu bundle ($(du -sh "$work/bundle" | cut -f1)) and gpu-verify"
