#!/usr/bin/env bash
# The five-minute start on a fresh Debian 12 machine: installs only what building and running need
# (scripts/install-deps.sh --build), builds perfzero, the launcher and the workers (no tests) in
# build/quickstart, runs the small default suite and shows where its results are and their summary.
# usage: scripts/quickstart.sh [--with-cuda] [PERFZERO_FLAGS...]
#   --with-cuda  also build the CUDA worker (needs NVIDIA's toolkit; nvcc takes minutes). Without it
#                the CUDA worker is built only when this machine has an NVIDIA GPU and the toolkit
#                (a GPU machine with the driver alone builds everything else).
#   e.g. scripts/quickstart.sh --execution_label=first-try
set -euo pipefail
cd "$(dirname "$0")/.."
started=$SECONDS
cuda=OFF
flags=()
for arg in "$@"; do
  if [ "$arg" = "--with-cuda" ]; then cuda=ON; else flags+=("$arg"); fi
done
step() { printf 'quickstart: [%3ds] %s\n' $((SECONDS - started)) "$*"; }
if [ "$cuda" = OFF ] && { [ -e /dev/nvidiactl ] || nvidia-smi -L > /dev/null 2>&1; }; then
  # --with-cuda insists (the configure fails without the toolkit); a GPU alone asks for it only
  # where nvcc is there, since clouds' GPU images often have the driver but not the toolkit.
  if command -v nvcc > /dev/null || [ -x /usr/local/cuda/bin/nvcc ]; then
    cuda=ON
  else
    step "an NVIDIA GPU but no CUDA toolkit (nvcc): the CUDA worker is not built (docs/gpu.md)"
  fi
fi

step "installing the build packages (scripts/install-deps.sh --build)"
scripts/install-deps.sh --build | tail -n 1
# The CMake defaults build every worker whose dependency is found; only CUDA is decided here,
# because nvcc takes minutes and its worker cannot run without a GPU. A unity build compiles the
# harness's 190 files as a dozen (the headers they share parsed once per dozen, not per file):
# 3.5 minutes instead of 10 on 2 cores (docs/performance.md); the benchmark families never are.
step "configuring build/quickstart (Release, unity build, no tests, CUDA worker $cuda)"
mkdir -p build/quickstart
cmake -S . -B build/quickstart -G Ninja -DCMAKE_BUILD_TYPE=Release -DPERFZERO_BUILD_TESTS=OFF \
  -DCMAKE_UNITY_BUILD=ON -DCMAKE_UNITY_BUILD_BATCH_SIZE=16 \
  -DPERFZERO_WITH_CUDA="$cuda" > build/quickstart/configure.log 2>&1 ||
  { cat build/quickstart/configure.log >&2; exit 1; }
sed -n 's/^-- perfzero workers:/quickstart: workers:/p' build/quickstart/configure.log
step "building perfzero, perfzero-launch, the workers and the man page (no tests)"
cmake --build build/quickstart

step "running benchmarks/suites/cpu_smoke.yaml"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
build/quickstart/harness/perfzero --config benchmarks/suites/cpu_smoke.yaml ${flags[@]+"${flags[@]}"} 2>&1 | tee "$log" || status=$?
run_dir=$(sed -n 's/^perfzero: .*results in \(.*\)$/\1/p' "$log" | tail -n 1)
step "done"
if [ -n "$run_dir" ] && [ -f "$run_dir/summary.md" ]; then
  echo
  cat "$run_dir/summary.md"
  echo
  echo "quickstart: results in $run_dir (summary.md, summary.csv, summary.json; a report per trial)"
  echo "quickstart: perfzero is build/quickstart/harness/perfzero; try: build/quickstart/harness/perfzero list"
fi
exit "$status"
