#!/usr/bin/env bash
# Runs the GPU suites on a GPU machine from a folder made by scripts/gpu-bundle.sh, one run directory
# per suite, and prints their summaries: docs/gpu.md, "Verifying on a GPU machine". The CUDA libraries are
# the machine's own: the toolkit's, or those of its Python packages (PyTorch's and CuPy's wheels
# ship cuBLAS and cuDNN), found by name.
#
# usage: scripts/gpu-verify.sh BUNDLE OUT_DIR [SUITE...]
#   SUITE: a suite file, or the name of one under benchmarks/suites/ (default: gpu_standard gpu_peer_comparison)
#   PERFZERO_FLAGS: extra flags for every run (labels: --platform_name=... --system_name=...), split at spaces
# Exit status: 0 when every suite ran and no CUDA method was skipped, 1 otherwise, 2 for bad arguments.
set -uo pipefail

[[ $# -ge 2 ]] || { sed -n '2,10p' "$0" >&2; exit 2; }
bundle=$(realpath "$1")
out=$(realpath -m "$2")
shift 2
suites=("$@")
[[ ${#suites[@]} -gt 0 ]] || suites=(gpu_standard gpu_peer_comparison)
perfzero="$bundle/bin/perfzero"
[[ -x "$perfzero" ]] || { echo "gpu-verify: $perfzero is missing; run scripts/gpu-bundle.sh" >&2; exit 2; }
for suite in "${suites[@]}"; do
  # perfzero would refuse the directory, and an old summary must not be printed as this run's.
  if [[ -e "$out/$(basename "$suite" .yaml)" ]]; then
    echo "gpu-verify: $out/$(basename "$suite" .yaml) exists; give a new OUT_DIR" >&2
    exit 2
  fi
done
mkdir -p "$out"

echo "== GPU"
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,power.limit --format=csv || true

# Python packages first: PyTorch and CuPy load theirs, and the methods should use the same builds.
search=()
while read -r dir; do [[ -d "$dir/nvidia" ]] && search+=("$dir/nvidia"); done < <(python3 -c 'import site; print("\n".join(site.getsitepackages()))' 2>/dev/null)
search+=(/usr/local/cuda/lib64 /usr/local/cuda/lib /usr/local/cuda/targets/x86_64-linux/lib /usr/local/nvidia/lib64 /usr/lib/x86_64-linux-gnu)
dirs=()
opencl=""
for lib in libcudart.so.13 libcublas.so.13 libcublasLt.so.13 libcudnn.so.9 libnccl.so.2 libnvidia-ml.so.1 libnvidia-opencl.so.1; do
  found=$(find "${search[@]}" -name "$lib" 2>/dev/null | head -1)
  if [[ -n "$found" ]]; then
    echo "$lib: $found"
    dirs+=("$(dirname "$found")")
    [[ $lib != libnvidia-opencl.so.1 ]] || opencl=$found
  else
    echo "$lib: not found (searched ${search[*]})"
  fi
done
# NVIDIA's OpenCL for the OpenCL worker: the ICD loader reads the vendors from /etc/OpenCL/vendors,
# which a machine without NVIDIA's OpenCL package lacks; OCL_ICD_VENDORS names a folder of our own.
if [[ -n "$opencl" && -z "${OCL_ICD_VENDORS:-}" ]] && ! grep -qs nvidia-opencl /etc/OpenCL/vendors/*.icd; then
  mkdir -p "$out/icd"
  echo "$opencl" > "$out/icd/nvidia.icd"
  export OCL_ICD_VENDORS="$out/icd"
  echo "OCL_ICD_VENDORS=$OCL_ICD_VENDORS ($opencl)"
fi
LD_LIBRARY_PATH=$(printf '%s\n' "${dirs[@]}" | awk '!seen[$0]++' | paste -sd: -)${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export LD_LIBRARY_PATH
echo "LD_LIBRARY_PATH=$LD_LIBRARY_PATH"
if ldd "$bundle/bin/perfzero-worker-cuda" | grep "not found"; then
  echo "gpu-verify: the CUDA worker cannot load the libraries above" >&2
  exit 3
fi
python3 -c 'import torch, cupy; print("torch", torch.__version__, "cuda", torch.version.cuda, "| cupy", cupy.__version__)' ||
  echo "gpu-verify: no PyTorch or CuPy: the peer baselines will fail"

status=0
for suite in "${suites[@]}"; do
  file=$suite
  [[ $file == *.yaml ]] || file="benchmarks/suites/$suite.yaml"
  suite=$(basename "$file" .yaml)
  echo "== $suite"
  # shellcheck disable=SC2086 # PERFZERO_FLAGS is a list of flags
  # The progress lines go to a log beside the run: a caller that keeps only the output's tail wants the summaries.
  "$perfzero" --config "$file" --output_dir "$out/$suite" ${PERFZERO_FLAGS:-} >"$out/$suite.log" 2>&1
  rc=$?
  grep -v '^\[' "$out/$suite.log" | tail -5
  echo "$suite: perfzero exit status $rc"
  [[ $rc -eq 0 ]] || status=1
  cat "$out/$suite/summary.md" 2>/dev/null
  # perfzero counts a skip as success; on a machine meant to verify the GPU, a skipped CUDA method
  # means the GPU, its driver or a library was not usable.
  skipped=$(grep -c '^| cuda\.[^|]* | skipped |' "$out/$suite/summary.md" 2>/dev/null)
  if [[ ${skipped:-0} -gt 0 ]]; then
    echo "gpu-verify: $skipped CUDA case(s) of $suite skipped: is the GPU usable? (reasons in $out/$suite.log)" >&2
    status=1
  fi
done
exit "$status"
